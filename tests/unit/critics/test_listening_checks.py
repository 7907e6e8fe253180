"""Each fault a listener names lowers the right axis, with a sentence that names it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from muse_tui.compose.critics import score_song
from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.song import Note, ProgressionChord, SongState
from muse_tui.knowledge import SkillFileError, reload_all
from muse_tui.knowledge.critics import CRITICS_FILE, critic_table

from .songs import clean_song, notes_of, pop_intent, with_notes


def one_chord(song: SongState) -> SongState:
    """Every bar plays C: the progression, the chords and the bass."""
    assert song.progression is not None
    c = ProgressionChord(symbol="C", roman="I", voicing=[60, 64, 67], beats=4.0)
    chords = [
        n.model_copy(update={"pitch": [60, 64, 67][i % 3]})
        for i, n in enumerate(notes_of(song, "chords"))
    ]
    bass = [n.model_copy(update={"pitch": 36}) for n in notes_of(song, "bass")]
    flat = with_notes(with_notes(song, "chords", chords), "bass", bass)
    progression = song.progression.model_copy(update={"chords": [c] * 4})
    return flat.model_copy(update={"progression": progression})


def test_one_chord_all_song_sinks_harmony_and_says_so() -> None:
    good = score_song(clean_song(), pop_intent())
    stuck = score_song(one_chord(clean_song()), pop_intent())

    assert stuck.harmony < 0.5 < good.harmony
    assert not stuck.passed
    assert any("one chord" in n for n in stuck.notes), stuck.notes


def test_one_chord_is_the_idiom_in_a_genre_that_vamps() -> None:
    techno = pop_intent(genre="techno", display_name="Techno")

    score = score_song(one_chord(clean_song()), techno)

    assert score.harmony >= 0.8
    assert not any("one chord" in n for n in score.notes)


def test_a_pad_doubling_the_chords_lowers_harmony_and_names_both() -> None:
    song = clean_song()
    doubled = with_notes(song, "pad", notes_of(song, "chords"))
    own_line = with_notes(
        song,
        "pad",
        [n.model_copy(update={"pitch": n.pitch - 12}) for n in notes_of(song, "chords")],
    )

    score = score_song(doubled, pop_intent())

    assert score.harmony < 0.5 < score_song(own_line, pop_intent()).harmony
    assert any("doubles the chords note for note" in n for n in score.notes), score.notes


def drum_bar(at: float, kicks: list[float], snares: list[float], hats: list[float]) -> list[Note]:
    hits = [(36, b) for b in kicks] + [(38, b) for b in snares] + [(42, b) for b in hats]
    return [Note(pitch=p, velocity=90, start_beat=at + b, duration_beats=0.25) for p, b in hits]


def test_drums_of_another_genre_lower_rhythm_and_name_the_style() -> None:
    song = clean_song()
    bars = sorted({int(n.start_beat // 4) for n in notes_of(song, "drums")})
    # Trap: kick on 1 and the 'a' of 2, the clap on 3 of a half-time bar, rolling 16th hats.
    trap = [
        n for bar in bars for n in drum_bar(bar * 4, [0, 1.75], [2], [i / 4 for i in range(16)])
    ]

    score = score_song(with_notes(song, "drums", trap), pop_intent())

    assert score.rhythm < score_song(song, pop_intent()).rhythm
    assert score.rhythm < 0.6
    assert any("do not play a rock groove" in n for n in score.notes), score.notes


def lead_line(song: SongState, pattern: list[tuple[float, float]], seed: int | None) -> list[Note]:
    """A lead over the chorus bars: `pattern` (onset, length) each bar; random pitches if seeded."""
    rng = random.Random(seed)
    bars = sorted({int(n.start_beat // 4) for n in notes_of(song, "lead")})
    motif = [72, 74, 76, 79, 77, 76, 74, 72]
    return [
        Note(
            pitch=rng.choice(motif) + rng.choice((0, 2, 5)) if seed is not None else motif[i],
            velocity=90,
            start_beat=bar * 4 + at,
            duration_beats=length,
        )
        for bar in bars
        for i, (at, length) in enumerate(pattern)
    ]


def test_a_lead_that_never_rests_lowers_rhythm_and_says_it_never_breathes() -> None:
    song = clean_song()
    eighths = [(i / 2, 0.5) for i in range(8)]

    score = score_song(with_notes(song, "lead", lead_line(song, eighths, None)), pop_intent())

    assert score.rhythm < score_song(song, pop_intent()).rhythm
    assert any("never breathes" in n for n in score.notes), score.notes


def test_a_lead_without_an_idea_that_returns_lowers_arrangement() -> None:
    song = clean_song()
    phrase = [(0.0, 0.5), (0.5, 0.5), (1.0, 1.0), (2.5, 0.5), (3.0, 0.5)]
    hook = with_notes(song, "lead", lead_line(song, phrase, None))
    wander = with_notes(song, "lead", lead_line(song, phrase, seed=3))

    hooked, lost = score_song(hook, pop_intent()), score_song(wander, pop_intent())

    assert lost.arrangement < hooked.arrangement
    assert any("no hook to remember" in n for n in lost.notes), lost.notes
    assert not any("hook" in n for n in hooked.notes), hooked.notes


def test_a_chorus_pasted_note_for_note_is_called_a_copy() -> None:
    song = clean_song(bars=48)  # the sections come round again: Chorus 6 is Chorus 2, pasted

    score = score_song(song, pop_intent())

    assert any("note-for-note copy" in n for n in score.notes), score.notes
    assert score.arrangement < score_song(clean_song(), pop_intent()).arrangement


def flute_intent() -> PipelineIntent:
    return pop_intent().model_copy(
        update={"instrument_requests": ["flute"], "roles": ["drums", "bass", "chords", "lead"]}
    )


def test_a_requested_instrument_that_never_plays_sinks_arrangement() -> None:
    song = clean_song()
    silent = song.model_copy(update={"tracks": [t for t in song.tracks if t.role != "lead"]})
    muted = song.model_copy(
        update={"tracks": [t.model_copy(update={"mute": t.role == "lead"}) for t in song.tracks]}
    )

    for spoiled in (silent, muted):
        score = score_song(spoiled, flute_intent())
        assert score.arrangement < 0.5 < score_song(song, flute_intent()).arrangement
        assert any("flute you asked for never plays" in n for n in score.notes), score.notes


def test_a_planned_role_that_never_plays_is_named() -> None:
    intent = pop_intent().model_copy(update={"roles": ["drums", "bass", "chords", "lead", "pad"]})

    score = score_song(clean_song(), intent)

    assert any("pad planned for this song never plays" in n for n in score.notes), score.notes


def test_a_critic_file_naming_an_unknown_measure_is_refused_with_its_field(
    skills_copy: Path,
) -> None:
    path = skills_copy / CRITICS_FILE
    data = json.loads(path.read_text())
    data["rhythm"]["weights"]["swagger"] = 0.5
    path.write_text(json.dumps(data))

    with pytest.raises(SkillFileError, match=r"critics\.json.*rhythm.*swagger"):
        critic_table(skills_copy)


def test_the_bundled_critic_file_loads() -> None:
    reload_all()
    table = critic_table()

    assert {"variety", "doubling"} <= set(table.harmony.faults)
    assert "instruments" in table.arrangement.faults


def test_a_requested_kit_sound_is_heard_only_when_its_drum_is_hit() -> None:
    song = clean_song()
    intent = pop_intent().model_copy(update={"instrument_requests": ["cowbell"]})
    bars = sorted({int(n.start_beat // 4) for n in notes_of(song, "drums")})
    cowbell = [
        Note(pitch=56, velocity=80, start_beat=b * 4 + 0.5, duration_beats=0.25) for b in bars
    ]
    with_bell = with_notes(song, "drums", [*notes_of(song, "drums"), *cowbell])

    assert any("cowbell you asked for never plays" in n for n in score_song(song, intent).notes)
    assert not any("cowbell" in n for n in score_song(with_bell, intent).notes)


def test_drums_without_the_familys_signature_sound_are_told_what_they_lack(
    skills_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A family whose every base pattern rings a cowbell (as phonk's does) wants one heard."""
    path = skills_copy / "rhythm/drum-families/band.json"
    data = json.loads(path.read_text())
    for pattern in data["families"]["rock"]["patterns"]["base"]:
        steps = len(next(iter(pattern["voices"].values())))
        pattern["voices"]["cowbell"] = "x..." * (steps // 4)
    path.write_text(json.dumps(data))
    monkeypatch.setenv("MUSE_SKILLS_DIR", str(skills_copy))
    reload_all()
    song = clean_song()
    bars = sorted({int(n.start_beat // 4) for n in notes_of(song, "drums")})
    bell = [
        Note(pitch=56, velocity=80, start_beat=b * 4 + i, duration_beats=0.25)
        for b in bars
        for i in range(4)
    ]
    with_bell = with_notes(song, "drums", [*notes_of(song, "drums"), *bell])

    plain, rung = score_song(song, pop_intent()), score_song(with_bell, pop_intent())

    assert plain.rhythm < rung.rhythm
    assert any("never play the cowbell a rock groove" in n for n in plain.notes), plain.notes
    assert not any("cowbell" in n for n in rung.notes), rung.notes
