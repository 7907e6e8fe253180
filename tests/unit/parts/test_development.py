"""A repeated section's pitched parts develop, heard on the written notes.

A song of three verses and three choruses in C minor (i–VI–III–VII, a bar
each), every part seeded by its section kind as the engine seeds it, so without
development verse 2 would be verse 1 note for note.
"""

from __future__ import annotations

import pytest

from muse_tui.compose.arrangement.repeats import Repeat
from muse_tui.compose.humanize import Draft
from muse_tui.compose.parts import choose_tracks, write_part
from muse_tui.compose.parts.context import PartContext
from muse_tui.compose.parts.development import develop_part
from muse_tui.compose.parts.devices import Phrase
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import Arrangement, Note, Section, SongState
from muse_tui.knowledge import SkillFileError
from muse_tui.knowledge.development import development_table
from muse_tui.knowledge.rhythm import rhythm_table

from .songs import KICK, intent, progression

BPB = 4.0
BARS = 8
ROLES = ["drums", "bass", "chords", "lead"]
#: chord root pitch classes of i–VI–III–VII in C minor, a bar each
ROOTS = (0, 8, 3, 10)
FORM = ("verse", "chorus", "verse", "chorus", "verse", "chorus")


def arrangement() -> Arrangement:
    sections, bar, seen = [], 0, {"verse": 0, "chorus": 0}
    for kind in FORM:
        seen[kind] += 1
        sections.append(
            Section(
                name=f"{kind.title()} {seen[kind]}",
                kind=kind,
                start_bar=bar,
                bars=BARS,
                energy=0.5 if kind == "verse" else 0.9,
                active_roles=list(ROLES),
            )
        )
        bar += BARS
    return Arrangement(template="test", sections=sections)


@pytest.fixture(scope="module")
def written() -> dict[str, dict[str, list[Note]]]:
    """role → section name → the notes written there (relative to the section)."""
    the_intent = intent("rock", roles=list(ROLES))
    song = SongState(
        tempo=110, key="C", mode="minor", arrangement=arrangement(), progression=progression()
    )
    tracks = choose_tracks(the_intent, derive_rng(1, "tracks"))
    parts: dict[str, dict[str, list[Note]]] = {}
    for track in tracks:
        if track.role == "drums":
            continue
        parts[track.role] = {
            section.name: write_part(
                track, song, the_intent, section, derive_rng(1, track.role, section.kind)
            ).notes
            for section in song.arrangement.sections  # type: ignore[union-attr]
        }
    return parts


def heard(notes: list[Note], first_bar: int = 0, last_bar: int = BARS) -> set[tuple[int, int]]:
    """(16th, pitch) of the notes starting in the bars, as the producer audit compares them."""
    return {
        (round(n.start_beat * 4), n.pitch)
        for n in notes
        if first_bar * BPB - 0.1 <= n.start_beat < last_bar * BPB - 0.1
    }


def jaccard(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> float:
    return len(a & b) / len(a | b)


@pytest.mark.parametrize("role", ["bass", "chords", "lead"])
@pytest.mark.parametrize("kind", ["Verse", "Chorus"])
def test_no_two_statements_of_a_section_are_one_pasted_twice(written, role, kind) -> None:
    takes = [heard(written[role][f"{kind} {n}"]) for n in (1, 2, 3)]

    for a in range(3):
        for b in range(a + 1, 3):
            assert jaccard(takes[a], takes[b]) < 0.95, (role, kind, a + 1, b + 1)


@pytest.mark.parametrize("role", ["bass", "chords"])
def test_a_repeat_keeps_its_opening_phrase_as_first_stated(written, role) -> None:
    first, second = written[role]["Verse 1"], written[role]["Verse 2"]

    assert heard(first, 0, 4) == heard(second, 0, 4)
    assert heard(first, 4, 8) != heard(second, 4, 8)


def test_a_repeated_verse_lead_sings_every_phrase_anew_on_the_motif_rhythm(written) -> None:
    """The lead's writer varies a repeat's every phrase (skills/melody/phrases.json
    `repeats`): the second and third verses re-sing the first one's rhythm to new pitches."""
    first = written["lead"]["Verse 1"]
    for name in ("Verse 2", "Verse 3"):
        again = written["lead"][name]
        for bars in ((0, 4), (4, 8)):
            was, now = heard(first, *bars), heard(again, *bars)
            assert now != was, (name, bars)
            steps = lambda notes: {step for step, _ in notes}  # noqa: E731
            assert jaccard({(s, 0) for s in steps(was)}, {(s, 0) for s in steps(now)}) >= 0.6


def test_verse_two_bass_keeps_its_roots_on_the_chord_changes(written) -> None:
    for name in ("Verse 2", "Verse 3"):
        bass = written["bass"][name]
        for bar in range(BARS):
            on_change = [n for n in bass if abs(n.start_beat - bar * BPB) < 0.1]
            assert on_change, (name, bar)
            assert min(n.pitch for n in on_change) % 12 == ROOTS[bar % 4], (name, bar)


def test_comping_repeats_voice_the_same_chords_differently(written) -> None:
    def chord_colours(notes: list[Note]) -> set[frozenset[int]]:
        onsets: dict[int, set[int]] = {}
        for n in notes:
            onsets.setdefault(round(n.start_beat * 4), set()).add(n.pitch % 12)
        return {frozenset(pcs) for pcs in onsets.values()}

    first = written["chords"]["Verse 1"]
    for name in ("Verse 2", "Verse 3"):
        again = written["chords"][name]
        assert chord_colours(again) <= chord_colours(first), name  # the same chords
        assert heard(again) != heard(first), name  # struck or voiced differently


def test_the_last_chorus_lead_keeps_the_hook_rhythm_and_lifts(written) -> None:
    first, last = written["lead"]["Chorus 1"], written["lead"]["Chorus 3"]
    onsets = lambda notes: sorted(round(n.start_beat * 4) for n in notes)  # noqa: E731

    assert set(onsets(first)) <= set(onsets(last))  # the motif rhythm, ornamented
    ending = lambda notes: [n.pitch for n in notes if n.start_beat >= 4 * BPB - 0.1]  # noqa: E731
    assert ending(last) != ending(first)
    assert sum(ending(last)) > sum(ending(first))  # it climbs


def test_the_second_chorus_lead_keeps_the_hook_ornamented_and_changes_its_ending(written) -> None:
    first, second = written["lead"]["Chorus 1"], written["lead"]["Chorus 2"]

    assert heard(first, 0, 6) <= heard(second, 0, 6)  # every note of the hook, and ornaments
    assert heard(first, 6, 8) != heard(second, 6, 8)


def test_a_first_statement_comes_back_as_written() -> None:
    song = SongState(
        tempo=110, key="C", mode="minor", arrangement=arrangement(), progression=progression()
    )
    section = song.arrangement.sections[0]  # type: ignore[union-attr]
    the_intent = intent("rock")
    track = next(t for t in choose_tracks(the_intent, derive_rng(1, "tracks")) if t.role == "bass")
    ctx = PartContext(track, song, the_intent, section, rhythm_table())
    notes = [Draft(36, 90, b, 0.9) for b in range(32)]

    assert develop_part(notes, ctx, Repeat(1, 3)) is notes
    assert develop_part(notes, ctx, Repeat(2, 3)) != notes


def test_every_pitched_role_has_one_family_and_drums_have_none() -> None:
    table = development_table()

    for role in ("bass", "sub_bass", "chords", "keys", "pad", "arp", "texture", "lead"):
        family = table.for_role(role)  # type: ignore[arg-type]
        assert family is not None and family.devices(2, last_peak=False, solo=False), role
    assert table.for_role("drums") is None and table.for_role("percussion") is None


def test_a_device_without_its_description_names_the_file(tmp_path) -> None:
    from muse_tui.knowledge import BUNDLED_SKILLS

    folder = tmp_path / "melody"
    folder.mkdir()
    text = (BUNDLED_SKILLS / "melody" / "development.json").read_text(encoding="utf-8")
    (folder / "development.json").write_text(text.replace('"passing": "a scale', '"x": "'))

    with pytest.raises(SkillFileError, match=r"development\.json"):
        development_table.__wrapped__(tmp_path)


def test_a_kick_locked_bass_develops_without_leaving_the_kicks() -> None:
    the_intent = intent("trap", roles=list(ROLES))  # the 808 plays on the kicks
    song = SongState(
        tempo=140, key="C", mode="minor", arrangement=arrangement(), progression=progression()
    )
    tracks = {t.role: t for t in choose_tracks(the_intent, derive_rng(1, "tracks"))}
    bass: dict[str, list[Note]] = {}
    kicks: dict[str, set[int]] = {}
    for name in ("Verse 1", "Verse 2", "Verse 3"):
        section = next(s for s in song.arrangement.sections if s.name == name)  # type: ignore[union-attr]
        drums = write_part(
            tracks["drums"], song, the_intent, section, derive_rng(1, "drums", "verse")
        )
        kicks[name] = {round(n.start_beat * 4) for n in drums.notes if n.pitch == KICK}
        bass[name] = write_part(
            tracks["bass"], song, the_intent, section, derive_rng(1, "bass", "verse"), drums
        ).notes
    onsets = lambda notes: {round(n.start_beat * 4) for n in notes}  # noqa: E731

    for name in ("Verse 2", "Verse 3"):  # the repeat's drums push a kick or two: the 808 follows
        assert onsets(bass[name]) <= kicks[name] | onsets(bass["Verse 1"]), name
        assert heard(bass[name]) != heard(bass["Verse 1"]), name


def test_a_strummed_chord_is_inverted_as_one_chord() -> None:
    song = SongState(
        tempo=110, key="C", mode="minor", arrangement=arrangement(), progression=progression()
    )
    section = song.arrangement.sections[0]  # type: ignore[union-attr]
    the_intent = intent("rock")
    track = next(
        t for t in choose_tracks(the_intent, derive_rng(1, "tracks")) if t.role == "chords"
    )
    phrase = Phrase(PartContext(track, song, the_intent, section, rhythm_table()))
    strum = [Draft(p, 90, 16.0 + 0.03 * i, 1.0) for i, p in enumerate((48, 55, 60, 63))]

    inverted = sorted(n.pitch for n in phrase.inversion(strum))

    assert inverted == [48, 60, 63, 67]  # the upper strings' lowest up above the top, C kept under
