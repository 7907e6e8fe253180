"""Ska, chiptune, solo piano, string quartet, bluegrass and Irish folk are heard in the MIDI.

Before, the first three read as hip-hop, the quartet as cinematic (drums and synths),
bluegrass as country (a drum kit, no banjo) and Irish folk as folk (a pop verse-chorus):
a panel of producers dropped every one. Each is now read as its genre, played by its
core band on the right GM programs, with its signature rhythm in the file.
"""

from __future__ import annotations

import pytest

from muse_tui.compose.intent import decompose

from .heard import Heard, Part, compose


def _programs(heard: Heard) -> dict[str, int | None]:
    return {p.name: p.program for p in heard.parts if p.notes and p.role != "drums"}


def _bars(heard: Heard, part: Part) -> int:
    """The bars the part plays in."""
    return len({int(n.start // heard.song.beats_per_bar) for n in part.notes})


@pytest.mark.parametrize(
    ("prompt", "genre"),
    [
        ("ska, 100 BPM", "ska"),
        ("euphoric ska", "ska"),
        ("video game chiptune", "chiptune"),
        ("solo piano", "solo_piano"),
        ("string quartet", "string_quartet"),
        ("bluegrass", "bluegrass"),
        ("Irish folk", "irish_folk"),
        ("an Irish jig with fiddle", "irish_folk"),
        ("2-tone ska", "ska"),
        ("rocksteady", "reggae"),
    ],
)
def test_the_genre_word_is_read_as_its_genre(prompt: str, genre: str) -> None:
    assert decompose(prompt).intent.genre == [genre]


def test_ska_is_fast_two_tone_slower_and_rocksteady_drops_one() -> None:
    ska, two_tone = decompose("ska").intent, decompose("2-tone ska").intent
    assert ska.tempo >= 150 and 125 <= two_tone.tempo < ska.tempo
    rocksteady = decompose("rocksteady").intent
    assert rocksteady.genre_dna.drum_family == "one_drop" and rocksteady.tempo < two_tone.tempo


def test_ska_skanks_on_every_offbeat_over_a_backbeat_with_horns_leading() -> None:
    heard = compose("ska, 160 BPM", 3)
    (comp,) = [p for p in heard.parts if p.role == "chords"]
    per_beat = 4
    ands = [n for n in comp.notes if n.step % per_beat == 2]
    onsets = {n.step for n in comp.notes}
    assert len({n.step for n in ands}) >= 0.7 * len(onsets), "the skank is on the 'and's"
    assert comp.program in range(24, 32), "a guitar skanks"
    (lead,) = heard.role("lead")
    assert lead.program in (56, 57, 61, 64, 65, 66, 67), "a horn carries the tune"
    (drums,) = heard.role("drums")
    snare_steps = {n.step % 16 for n in drums.notes if n.pitch in (37, 38, 40)}
    assert {4, 12} <= snare_steps, "the snare (or rim) keeps 2 and 4"
    assert heard.bass().program in range(32, 40)


def test_chiptune_is_square_waves_arpeggios_and_a_small_noise_kit() -> None:
    heard = compose("video game chiptune", 3)
    programs = _programs(heard)
    assert set(programs.values()) <= {80, 81}, programs
    (lead,) = heard.role("lead")
    assert lead.program == 80
    (chords,) = heard.role("chords")
    stacked = len({n.start for n in chords.notes}) / len(chords.notes)
    assert stacked > 0.95, "the chords are arpeggios, one note at a time"
    (drums,) = heard.role("drums")
    assert len({n.pitch for n in drums.notes}) <= 5, "the noise channel is a small kit"


def test_solo_piano_is_one_pianist_with_no_band() -> None:
    heard = compose("solo piano", 3)
    assert {p.role for p in heard.parts if p.notes} == {"chords", "lead"}
    assert set(_programs(heard).values()) == {0}
    left, right = heard.role("chords")[0], heard.role("lead")[0]
    assert min(n.pitch for n in left.notes) < min(n.pitch for n in right.notes)


def test_a_string_quartet_is_two_violins_a_viola_and_a_cello() -> None:
    heard = compose("string quartet", 3)
    pitched = [p for p in heard.parts if p.notes]
    assert sorted(p.program for p in pitched) == [40, 40, 41, 42]
    assert not heard.role("drums", "percussion")
    (lead,) = heard.role("lead")
    assert (lead.name, lead.program) == ("Violin I", 40)
    assert heard.bass().program == 42, "the cello plays the bass line"


def test_bluegrass_has_no_kit_and_the_banjo_rolls() -> None:
    heard = compose("bluegrass, banjo and fiddle", 3)
    assert not heard.role("drums", "percussion")
    programs = _programs(heard)
    assert programs["Banjo"] == 105 and programs["Fiddle"] == 110
    assert programs["Upright Bass"] in (32, 43) and programs["Acoustic Guitar"] == 25
    assert "Mandolin" in programs
    (banjo,) = [p for p in heard.parts if p.name == "Banjo"]
    assert len(banjo.notes) / _bars(heard, banjo) >= 6, "eight-note rolls a bar"
    (mandolin,) = [p for p in heard.parts if p.name == "Mandolin"]
    chops = {n.step % 16 for n in mandolin.notes}
    assert chops <= {4, 12, 14}, "the mandolin chops on 2 and 4"
    (lead,) = heard.role("lead")
    assert lead.name == "Fiddle"


def test_an_irish_reel_runs_8ths_on_the_fiddle_through_aabb_parts() -> None:
    heard = compose("Irish folk reel with fiddle", 3)
    names = [s.name for s in heard.song.arrangement.sections]
    assert [n.split(" Part")[0] for n in names[:4]] == ["A", "A", "B", "B"]
    assert {s.bars for s in heard.song.arrangement.sections} == {8}
    (lead,) = heard.role("lead")
    assert lead.program in (110, 40)
    lengths = sorted(round(n.length * 2) for n in lead.notes)
    assert lengths[len(lengths) // 2] <= 1, "running 8ths"
    (drums,) = heard.role("drums")
    assert {n.pitch for n in drums.notes} <= {41, 43, 45, 47}, "a bodhran: toms, no clap or crash"
    assert heard.song.tempo <= 120


def test_a_jig_is_in_six_eight() -> None:
    intent = decompose("an Irish jig with fiddle").intent
    assert intent.meter is not None
    assert (intent.meter.numerator, intent.meter.denominator) == (6, 8)


@pytest.mark.parametrize("prompt", ["Aphex Twin meets Metro Boomin", "Aphex Twin meets Kaytranada"])
def test_a_blend_of_two_artists_whose_genres_have_drums_keeps_a_kit(prompt: str) -> None:
    """Aphex Twin reads as ambient, which has no kit; the blend took its "none" (no kick or
    snare at all), then its form (drums in one section of five)."""
    heard = compose(prompt, 3)
    (drums,) = heard.role("drums")
    beats = heard.song.beats_per_bar
    kick_bars = {int(n.start // beats) for n in drums.notes if n.pitch in (35, 36)}
    backbeats = [n for n in drums.notes if n.pitch in (37, 38, 39, 40)]
    total = heard.song.arrangement.total_bars
    assert len(kick_bars) >= total / 2, f"kicks in {len(kick_bars)} of {total} bars"
    assert len(backbeats) >= total, "a snare, clap or rim on the backbeats"
    # Ambient keeps one loop for its drift; the blend's verses answer the hook's chords.
    assert heard.song.progression is not None and "verse" in heard.song.progression.sections


def test_a_kit_asked_of_a_genre_without_drums_is_heard() -> None:
    """Bluegrass has no drums; 'with brushes' made a silent brush kit before."""
    heard = compose("bluegrass with brushes, banjo", 3)
    (drums,) = heard.role("drums")
    assert drums.program == 40, "the GS brush kit"
    assert len(drums.notes) >= heard.song.arrangement.total_bars
