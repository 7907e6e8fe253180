"""The listening metrics (bench/listening) on tiny hand-built songs whose answers are known."""

from __future__ import annotations

import math
from pathlib import Path

import mido
import pytest

from bench.listening import metrics as m
from bench.listening.heard import (
    HeardNote,
    HeardSection,
    HeardSong,
    HeardTrack,
    read_midi,
    read_session,
)
from bench.listening.prompts import load_prompts
from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages


def note(start: float, pitch: int, length: float = 0.25, velocity: int = 100) -> HeardNote:
    return HeardNote(start, length, pitch, velocity)


def drum_track(*notes: HeardNote) -> HeardTrack:
    return HeardTrack("Drums", 9, None, "drums", list(notes))


def pitched(name: str, role: str, program: int, *notes: HeardNote) -> HeardTrack:
    return HeardTrack(name, 0, program, role, list(notes))


def song(*tracks: HeardTrack, sections=(), bars: int = 4) -> HeardSong:
    return HeardSong(
        list(tracks), list(sections) or [HeardSection("Verse 1", 0, bars)], total_bars=bars
    )


def four_on_floor(bar: int, humanise: float = 0.0) -> list[HeardNote]:
    """Kick on every beat, clap on 2 and 4, closed hat on the off-beats."""
    b = bar * 4
    return (
        [note(b + beat + humanise, 36) for beat in range(4)]
        + [note(b + 1, 39), note(b + 3, 39)]
        + [note(b + beat + 0.5, 42) for beat in range(4)]
    )


def backbeat(bar: int) -> list[HeardNote]:
    """Boom-bap: kick on 1 and the and of 2, snare on 2 and 4, 8th hats."""
    b = bar * 4
    hats = [note(b + i / 2, 42) for i in range(8)]
    return [note(b, 36), note(b + 1.5, 36), note(b + 1, 38), note(b + 3, 38), *hats]


# ── Groove ────────────────────────────────────────────────────────────────────────


def test_two_identical_drum_bars_overlap_completely_even_when_humanised() -> None:
    bars = m.drum_bars(four_on_floor(0) + four_on_floor(1, humanise=0.01), 4, 2)
    assert m.jaccard(bars[0], bars[1]) == 1.0
    assert ("kick", 0) in bars[0] and ("snare", 4) in bars[0] and ("hat", 2) in bars[0]


def test_different_grooves_overlap_partly_and_empty_bars_fully() -> None:
    house, boom_bap = m.drum_bars(four_on_floor(0) + backbeat(1), 4, 2)
    # shared: kick on 1, hats on the off-beats (4), snare on 2 and 4 is a snare not a clap?
    # both count as the backbeat voice, so snare on beats 2 and 4 is shared as well.
    shared = house & boom_bap
    assert shared == {("kick", 0), ("snare", 4), ("snare", 12)} | {
        ("hat", s) for s in (2, 6, 10, 14)
    }
    assert m.jaccard(house, boom_bap) == pytest.approx(len(shared) / len(house | boom_bap))
    assert m.jaccard([], []) == 1.0
    assert m.jaccard([1], [2]) == 0.0


def test_main_drum_bar_is_the_most_frequent_one_and_ignores_fills() -> None:
    groove = drum_track(*four_on_floor(0), *backbeat(1), *four_on_floor(2), note(12, 45))
    main = m.main_drum_bar(song(groove))
    assert main == m.drum_bars(four_on_floor(0), 4, 1)[0]
    assert m.main_drum_bar(song(drum_track())) == frozenset()


def test_genre_pairs_carry_overlap_and_family() -> None:
    a = m.drum_bars(four_on_floor(0), 4, 1)[0]
    pairs = m.genre_pair_overlaps(
        {"house": ("house", a), "techno": ("house", a), "trap": ("trap", frozenset())}
    )
    assert ("house", "techno", 1.0, True) in pairs
    assert ("house", "trap", 0.0, False) in pairs
    assert m.distinct([("i", "iv"), ("i", "iv"), ("i", "VI")]) == 2


# ── Instruments and roles ─────────────────────────────────────────────────────────


def test_an_instrument_word_needs_its_sound_and_notes_in_it() -> None:
    s = song(
        drum_track(note(0, 36), note(1, 56)),
        pitched("Piano", "chords", 0, note(0, 60)),
        pitched("Strings", "pad", 48),  # the right sound, but silent
    )
    assert m.instrument_present(s, drum_notes=[56])  # cowbell
    assert not m.instrument_present(s, drum_notes=[39])  # no clap
    assert m.instrument_present(s, programs=[0, 1])
    assert not m.instrument_present(s, programs=[48, 49])
    assert not m.instrument_present(s, roles=["pad"], programs=[48])
    assert m.instrument_present(s, roles=["chords"])
    assert not m.instrument_present(s, roles=["lead"])


def test_a_listed_instrument_set_must_be_exactly_the_roles() -> None:
    aliases = {"bass": ("bass", "sub_bass"), "chords": ("chords", "keys")}
    listed = ["drums", "bass", "chords", "lead"]
    assert m.listed_roles_match(listed, aliases, ["lead", "sub_bass", "drums", "keys"])
    assert not m.listed_roles_match(listed, aliases, ["drums", "bass", "lead"])  # chords dropped
    assert not m.listed_roles_match(listed, aliases, ["drums", "bass", "chords", "lead", "pad"])
    assert not m.listed_roles_match(listed, aliases, ["drums", "bass", "bass", "lead"])


# ── Harmony ───────────────────────────────────────────────────────────────────────


def triad(start: float, root: int, length: float = 4) -> list[HeardNote]:
    return [note(start, root, length), note(start, root + 4, length), note(start, root + 7, length)]


def test_doubling_is_shared_onset_and_pitch_over_the_sparser_track() -> None:
    piano = triad(0, 60) + triad(4, 65)
    assert m.doubling(piano, piano) == 1.0
    assert m.doubling(piano, triad(0, 60)) == 1.0  # every pad note is in the piano
    assert m.doubling(piano, triad(2, 60)) == 0.0  # same pitches, other onsets
    assert m.doubling(piano, [n for n in triad(0, 72)]) == 0.0  # an octave up is not a copy
    assert m.doubling(piano, []) == 0.0


def test_harmony_doubling_is_the_worst_pair_of_harmony_tracks() -> None:
    s = song(
        pitched("Piano", "chords", 0, *triad(0, 60)),
        pitched("Organ", "keys", 16, *triad(0, 60)[:2], note(0, 79)),
        pitched("Pad", "pad", 89, *triad(2, 72)),
        pitched("Lead", "lead", 80, *triad(0, 60)),  # a lead doubling is not harmony's
    )
    assert m.harmony_doubling(s) == pytest.approx(2 / 3)
    assert m.harmony_doubling(song(pitched("Piano", "chords", 0, *triad(0, 60)))) is None
    # at beat 2: the piano's 3, the organ's two held notes (its 79 has ended), the pad's 3
    assert m.most_sounding(s.tracks[:3]) == 8


def test_back_to_back_notes_do_not_sound_together() -> None:
    track = pitched("Piano", "chords", 0, *triad(0, 60), *triad(4, 60))
    assert m.most_sounding([track]) == 3


@pytest.mark.parametrize(
    ("text", "key"),
    [("C# minor", (1, "minor")), ("Am", (9, "minor")), ("Eb", (3, "major")),
     ("Bb major", (10, "major")), ("F#m", (6, "minor")), ("Cb major", (11, "major"))],
)  # fmt: skip
def test_keys_parse_from_prompt_and_key_signature_spellings(
    text: str, key: tuple[int, str]
) -> None:
    assert m.parse_key(text) == key


def test_music21_hears_the_key_a_cadence_makes_plain() -> None:
    a_minor = [note(0, 57, 4), note(0, 60, 4), note(0, 64, 4)]
    d_minor = [note(4, 62, 4), note(4, 65, 4), note(4, 69, 4)]
    e_major = [note(8, 64, 4), note(8, 68, 4), note(8, 71, 4)]  # the G# makes it minor, not C
    tonic = [note(12, 57, 8), note(12, 60, 8), note(12, 64, 8), note(12, 45, 8)]
    s = song(pitched("Piano", "chords", 0, *a_minor, *d_minor, *e_major, *tonic))
    assert m.heard_key(s) == (9, "minor")
    i_iv_v7_i = triad(0, 60) + triad(4, 65) + triad(8, 67) + [note(8, 77, 4)] + triad(12, 60, 8)
    assert m.heard_key(song(pitched("Piano", "chords", 0, *i_iv_v7_i))) == (0, "major")
    assert m.heard_key(song(drum_track(note(0, 36)))) is None


# ── Melody ────────────────────────────────────────────────────────────────────────


def test_lead_rest_share_counts_silence_only_where_the_lead_plays() -> None:
    half_bars = [note(bar * 4, 72, 2) for bar in range(4)]  # plays half of each bar
    sections = [HeardSection("Intro", 0, 4), HeardSection("Verse 1", 4, 4)]
    assert m.rest_share(half_bars, sections, 4) == pytest.approx(0.5)
    overlapping = [note(0, 72, 4), note(2, 74, 4)]  # sounds beats 0-6 of 16
    assert m.rest_share(overlapping, sections, 4) == pytest.approx(10 / 16)
    assert m.rest_share([], sections, 4) == 1.0


def test_lead_present_needs_more_than_a_stray_note() -> None:
    assert not m.lead_present(song(pitched("Lead", "lead", 80, note(0, 72))))
    assert m.lead_present(song(pitched("Lead", "lead", 80, *[note(i, 72) for i in range(8)])))
    assert not m.lead_present(song(pitched("Keys", "chords", 0, *[note(i, 72) for i in range(8)])))


def motif(start_bar: int, transpose: int = 0) -> list[HeardNote]:
    """A 2-bar idea: three notes then a held answer."""
    b = start_bar * 4
    return [note(b, 72 + transpose), note(b + 0.5, 74 + transpose), note(b + 1, 76 + transpose),
            note(b + 4, 79 + transpose, 2)]  # fmt: skip


def test_a_two_bar_motif_recurs_when_repeated_or_sequenced() -> None:
    stated_and_sequenced = motif(0) + motif(2, transpose=2) + motif(4, transpose=-3) + motif(6)
    assert m.motif_recurs(stated_and_sequenced, 8, 4)
    wandering = [note(bar * 4 + bar * 0.25, 60 + bar) for bar in range(8)] + [note(1, 70)]
    assert not m.motif_recurs(wandering, 8, 4)
    assert not m.motif_recurs([], 8, 4)
    assert m.lead_bar_variety(stated_and_sequenced, 4) == (2, 8)


def test_a_bar_moved_along_the_scale_keeps_its_contour_and_a_wandering_one_does_not() -> None:
    up = [note(0, 60), note(1, 64), note(2, 67), note(3, 65)]  # C E G F: a major third up
    along = [note(4, 62), note(5, 65), note(6, 69), note(7, 67)]  # D F A G: a minor third up
    assert m.lead_bar_variety(up + along, 4) == (2, 2)  # by intervals, two bars
    assert m.lead_bar_contours(up + along, 4) == (1, 2)  # by contour, one motif come back
    turned = [note(8, 67), note(9, 64), note(10, 60), note(11, 62)]  # the same rhythm, falling
    assert m.lead_bar_contours(up + along + turned, 4) == (2, 3)


def test_hooks_agree_while_a_copied_section_differs_by_nothing() -> None:
    sections = [
        HeardSection("Chorus 1", 0, 4),
        HeardSection("Verse 2", 4, 4),
        HeardSection("Chorus 2", 8, 4),
    ]
    lead = pitched("Lead", "lead", 80, *motif(0), *motif(2), *motif(8), *motif(10))
    drums_copy = drum_track(*[n for bar in (0, 1, 2, 3, 8, 9, 10, 11) for n in four_on_floor(bar)])
    s = song(lead, drums_copy, sections=sections, bars=12)
    first, second = m.choruses(s)
    assert (first.name, second.name) == ("Chorus 1", "Chorus 2")
    hook_1 = m.section_notes(lead.notes, first, 4)
    hook_2 = m.section_notes(lead.notes, second, 4)
    assert m.hook_agreement(hook_1, hook_2, 16) == 1.0
    assert m.section_difference(s, first, second) == 0.0
    assert m.copied_sections(s) == 1
    # a crash on chorus 2's downbeat: the hook still agrees, the sections now differ
    drums_copy.notes.append(note(32, 49))
    assert 0 < m.section_difference(s, first, second) < 0.1
    assert m.copied_sections(s) == 0
    assert m.hook_agreement(hook_1, m.section_notes(motif(8, 5), second, 4), 16) == 0.0


# ── Form ──────────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("bars", "ok"), [(4, True), (8, True), (16, True), (20, False), (6, False), (0, False)]
)
def test_section_lengths_are_multiples_of_four_up_to_sixteen(bars: int, ok: bool) -> None:
    assert m.section_length_ok(bars) is ok


def test_crashes_count_on_section_starts_where_drums_play() -> None:
    sections = [HeardSection("Intro", 0, 1), HeardSection("Verse 1", 1, 1),
                HeardSection("Hook 1", 2, 1), HeardSection("Break", 3, 1)]  # fmt: skip
    drums = drum_track(*four_on_floor(0), *four_on_floor(1), *four_on_floor(2), note(8.01, 49))
    assert m.crashes_on_starts(song(drums, sections=sections)) == (1, 2)  # break has no drums
    drums.notes.append(note(4.5, 49))  # a crash off the downbeat is not a section crash
    assert m.crashes_on_starts(song(drums, sections=sections)) == (1, 2)


def test_build_density_compares_its_last_quarter_with_its_first() -> None:
    build = HeardSection("Build 1", 0, 4)
    roll = [note(i, 38) for i in range(4)] + [note(12 + i / 2, 38) for i in range(8)]
    s = song(drum_track(*roll), sections=[build, HeardSection("Drop 1", 4, 4)], bars=8)
    assert m.builds(s) == [build]
    assert m.build_density_ratio(s, build) == 2.0
    flat = song(drum_track(*[note(i, 38) for i in range(16)]), sections=[build])
    assert m.build_density_ratio(flat, build) == 1.0
    assert math.isinf(
        m.build_density_ratio(song(drum_track(note(13, 38)), sections=[build]), build)
    )


# ── Reading the file ──────────────────────────────────────────────────────────────


def test_the_midi_file_reads_back_as_tracks_sections_and_key(tmp_path) -> None:
    midi = mido.MidiFile(type=1, ticks_per_beat=480)
    conductor = mido.MidiTrack(
        [mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(140)),
         mido.MetaMessage("time_signature", numerator=4, denominator=4),
         mido.MetaMessage("key_signature", key="Am"),
         mido.MetaMessage("marker", text="Intro"),
         mido.MetaMessage("marker", text="Hook 1", time=480 * 8)]
    )  # fmt: skip
    keys = mido.MidiTrack(
        [mido.MetaMessage("track_name", name="Keys"),
         mido.Message("program_change", channel=1, program=4),
         mido.Message("note_on", channel=1, note=57, velocity=90, time=480 * 9),
         mido.Message("note_on", channel=1, note=57, velocity=0, time=240),
         mido.MetaMessage("end_of_track", time=480 * 6 + 240)]
    )  # fmt: skip
    drums = mido.MidiTrack(
        [mido.MetaMessage("track_name", name="Drums"),
         mido.Message("note_on", channel=9, note=36, velocity=110),
         mido.Message("note_off", channel=9, note=36, time=120)]
    )  # fmt: skip
    midi.tracks.extend([conductor, keys, drums])
    path = tmp_path / "song.mid"
    midi.save(path)
    heard = read_midi(path)
    assert (round(heard.tempo), heard.declared_key, heard.total_bars) == (140, "Am", 4)
    assert heard.sections == [HeardSection("Intro", 0, 2), HeardSection("Hook 1", 2, 2)]
    assert heard.sections[1].base == "hook"
    keys_track, drum = heard.tracks
    assert (keys_track.name, keys_track.program, keys_track.notes) == (
        "Keys",
        4,
        [note(9, 57, 0.5, 90)],
    )
    assert drum.is_drums and drum.program is None and drum.notes == [note(0, 36, 0.25, 110)]


def test_the_prompt_set_covers_the_issues_examples() -> None:
    prompts = load_prompts()
    assert len(prompts.prompts) >= 40
    words = {w for p in prompts.prompts for w in p.instruments}
    assert {"cowbell", "log drum", "bells", "piano", "strings", "brass", "nylon guitar"} <= words
    listed = [p for p in prompts.prompts if p.listed_roles]
    assert any(p.listed_roles == ("drums", "bass", "chords", "lead") for p in listed)


def test_two_tracks_of_one_name_keep_their_own_roles(tmp_path: Path) -> None:
    """The C major pop song has a Piano on chords and a Piano on keys: each lane says which."""
    engine = Orchestrator(product_stages(), tmp_path)
    pipeline = run_blocking(
        engine.run(
            "pop song in C major, piano keys, bass, drums, 100 bpm",
            seed=1,
            config=PipelineConfig(approval_gates=[]),
        )
    )
    pianos = [t.role for t in pipeline.song_state.tracks if t.name == "Piano"]
    assert sorted(pianos) == ["chords", "keys"]  # the song this test is about
    heard = read_session(tmp_path / pipeline.session_id)
    assert [t.role for t in heard.tracks if t.name == "Piano"] == pianos
