"""Bass idioms read as a bassist would: walking lines that approach each chord, disco
octaves, an 808 on the kick."""

from __future__ import annotations

import itertools

from muse_tui.compose.parts.harmony import section_harmony

from .heard import Heard, compose


def _changes(heard: Heard) -> list[tuple[float, int]]:
    """(beat, bass pitch class) of every chord change of the song that falls on a beat."""
    song = heard.song
    assert song.arrangement is not None
    found = []
    for section in song.arrangement.sections:
        origin = song.bar_beat(section.start_bar)
        harmony = section_harmony(song, section, 0.5)
        for before, chord in itertools.pairwise(harmony.chords):
            if chord.symbol != before.symbol and chord.start == int(chord.start):
                found.append((origin + chord.start, chord.bass_pc))
    return found


def _at(notes: list, beat: float, tolerance: float = 0.2):
    return next((n for n in notes if abs(n.start - beat) <= tolerance), None)


def test_a_walking_bass_approaches_every_chord_by_step() -> None:
    heard = compose("jazz in Bb major, 160 BPM")
    notes = heard.bass().notes
    approached = landed = total = 0
    for beat, bass_pc in _changes(heard):
        arrival, before = _at(notes, beat), _at(notes, beat - 1)
        if arrival is None or before is None:
            continue
        total += 1
        landed += arrival.pitch % 12 == bass_pc
        approached += abs(arrival.pitch - before.pitch) <= 2
    assert total >= 20
    assert landed / total >= 0.9  # the new chord's root on the change
    assert approached / total >= 0.6  # a half or whole step into it


def test_a_jazz_waltz_walks_one_note_a_beat() -> None:
    heard = compose("jazz waltz in F major, 3/4, 150 BPM")
    notes = heard.bass().notes
    per_bar = heard.steps_per_bar
    assert per_bar == 12
    on_beats = sum(1 for n in notes if n.step % 4 == 0)
    assert on_beats / len(notes) >= 0.85
    bars = {n.step // per_bar for n in notes}
    assert len(notes) / len(bars) >= 2.5  # about three a bar, not a held root


def test_disco_bass_jumps_octaves() -> None:
    notes = compose("disco in A minor, 120 BPM").bass().notes
    octaves = sum(1 for a, b in itertools.pairwise(notes) if abs(b.pitch - a.pitch) == 12)
    assert octaves / len(notes) >= 0.4


def test_a_trap_808_plays_on_the_kick() -> None:
    heard = compose("trap, 140 BPM, C minor")
    kicks = heard.kick_steps
    notes = heard.bass().notes
    on_kick = sum(1 for n in notes if n.step in kicks)
    assert on_kick / len(notes) >= 0.75


def test_techno_rolls_on_one_note_whatever_the_chords() -> None:
    heard = compose("techno, 130 BPM, A minor")
    notes = heard.bass().notes
    assert {n.pitch % 12 for n in notes} == {9}  # A, and its octave
    assert len({c.symbol for c in heard.song.progression.chords}) >= 2  # type: ignore[union-attr]
