"""The players play their style, read back from the MIDI file: Jamerson's Motown bass, disco
octaves and Nile Rodgers' scratch guitar, the dubstep wobble, the montuno on the clave, and
the bossa, walking and one-drop basses against the chords under them."""

from __future__ import annotations

import itertools
from collections import Counter
from statistics import median

from muse_tui.compose.parts.harmony import SoundingChord, section_harmony
from muse_tui.theory.drums import CLAVES, RIM

from .heard import Heard, Part, Played, compose

OFF_EIGHTHS = {2, 6, 10, 14}


def _chords(heard: Heard) -> list[tuple[float, SoundingChord]]:
    """(song beat, chord) of every chord the song plays, in order (a chord begun before its
    section, a pickup, starts with the section)."""
    song = heard.song
    assert song.arrangement is not None
    found = []
    for section in song.arrangement.sections:
        origin, end = song.section_span(section)
        for chord in section_harmony(song, section, heard.harmonic).chords:
            if origin + chord.start < end:
                found.append((max(origin, origin + chord.start), chord))
    return sorted(found, key=lambda item: item[0])


def _chord_at(chords: list[tuple[float, SoundingChord]], beat: float) -> SoundingChord:
    return [c for start, c in chords if start <= beat + 1e-6][-1]


def _strokes(part: Part) -> list[list[Played]]:
    """The part's notes grouped by onset (a chord or a strum within a 16th)."""
    groups: dict[int, list[Played]] = {}
    for note in part.notes:
        groups.setdefault(note.step, []).append(note)
    return [groups[step] for step in sorted(groups)]


def test_motown_bass_syncopates_ghosts_and_walks_up_chromatically() -> None:
    """Jamerson's line: most notes off the beat, 16th pickups, ghosted dead notes, and a
    half step into the chord changes, not roots on the beat."""
    heard = compose("motown soul in C major, 100 BPM")
    notes = heard.bass().notes
    per_bar = heard.steps_per_bar
    off_beat = [n for n in notes if n.step % 4]
    assert len(off_beat) / len(notes) >= 0.45
    assert sum(1 for n in notes if n.step % 2) / len(notes) >= 0.15  # 16th pickups
    loud = median(n.velocity for n in notes)
    ghosts = [n for n in notes if n.velocity <= 0.7 * loud and n.length <= 0.15]
    assert len(ghosts) / len(notes) >= 0.08
    chords = _chords(heard)
    changes = [b for (b, c), (_, p) in itertools.pairwise(chords) if c.symbol != p.symbol]
    landed = [n for n in notes if any(abs(n.start - b) < 0.1 for b in changes)]
    walked = sum(
        1 for a, b in itertools.pairwise(notes) if b in landed and abs(b.pitch - a.pitch) == 1
    )
    assert len(landed) >= 10 and walked / len(landed) >= 0.5
    downbeat_roots = sum(
        1
        for n in notes
        if n.step % 4 == 0 and n.pitch % 12 == _chord_at(chords, n.step / 4).bass_pc
    )
    assert downbeat_roots / len(notes) <= 0.45
    assert per_bar == 16


def test_disco_bass_leaps_to_the_octave_on_the_offbeats() -> None:
    notes = compose("disco in A minor, 120 BPM").bass().notes
    offbeat = [(a, b) for a, b in itertools.pairwise(notes) if b.step % 16 in OFF_EIGHTHS]
    up = sum(1 for a, b in offbeat if b.pitch - a.pitch == 12)
    assert len(offbeat) >= 40 and up / len(offbeat) >= 0.7


def test_disco_guitar_scratches_sixteenths_between_short_chord_stabs() -> None:
    """Nile Rodgers' chucking: a stroke on most 16ths of a bar, most of them muted (soft,
    a click), the chord fragments between them accented and short."""
    heard = compose("disco in A minor, 120 BPM")
    (guitar,) = [p for p in heard.role("chords") if 24 <= (p.program or 0) <= 31]
    strokes = _strokes(guitar)
    bars = {s[0].step // 16 for s in strokes}
    assert len(strokes) / (len(bars) * 16) >= 0.6
    muted = [s for s in strokes if max(n.length for n in s) <= 0.1]
    stabs = [s for s in strokes if s not in muted]
    assert len(muted) / len(strokes) >= 0.4 and len(stabs) / len(strokes) >= 0.2
    loudest = [max(n.velocity for n in s) for s in muted]
    assert median(loudest) <= 0.6 * median(max(n.velocity for n in s) for s in stabs)
    assert median(max(n.length for n in s) for s in stabs) <= 0.3
    assert sum(1 for s in stabs if s[0].step % 2) / len(stabs) >= 0.15  # on the e's and a's


def _cycles(values: list[int]) -> int:
    """How many times a sampled LFO curve dips to a trough."""
    return sum(
        1 for a, b, c in zip(values, values[1:], values[2:], strict=False) if b < a and b <= c
    )


def test_dubstep_wobble_bass_moves_its_filter_in_tempo_divisions() -> None:
    """Held notes under a CC 74 LFO: 8ths, triplets or 16ths a bar (8, 12, 16 or 24 troughs
    in a 4/4 bar), the cutoff swinging wide, the rate changing from bar to bar."""
    heard = compose("dubstep in F minor, 140 BPM")
    wobble = heard.bass()
    assert wobble.name == "Wobble Bass"
    assert median(n.length for n in wobble.notes) >= 1.5
    per_bar: dict[int, list[int]] = {}
    for beat, controller, value in wobble.controls:
        if controller == 74 and beat % 4:  # on a bar line: the arrangement's sweep resets
            per_bar.setdefault(int(beat // 4), []).append(value)
    sounding = {int(n.start // 4) for n in wobble.notes}
    wobbling = {b: v for b, v in per_bar.items() if b in sounding and len(v) >= 16}
    assert len(wobbling) >= 0.7 * len(sounding)
    rates = Counter(_cycles(v) + 1 for v in wobbling.values())
    assert set(rates) <= {4, 8, 12, 16, 24}, rates
    assert len(rates) >= 3  # the rate changes, triplets among them
    assert rates[12] + rates[24] >= 1
    assert all(max(v) - min(v) >= 60 for v in wobbling.values())


def _clave_sides(heard: Heard) -> dict[int, int]:
    """Bar -> hits of the son clave in it (3 or 2), from the claves and the rim click."""
    hits = {
        n.step
        for p in heard.role("drums", "percussion")
        for n in p.notes
        if n.pitch in (CLAVES, RIM)
    }
    return dict(Counter(step // 16 for step in hits))


def test_salsa_piano_montuno_sits_on_the_clave_in_octaves() -> None:
    """On the clave's 3-side the montuno plays only offbeats; on the 2-side it opens on
    beat 1; every stroke is an octave, the pattern two bars long."""
    heard = compose("salsa in C major, 100 BPM")
    (piano,) = heard.role("chords")
    sides = _clave_sides(heard)
    strokes = _strokes(piano)
    three = [s for s in strokes if sides.get(s[0].step // 16) == 3]
    two_bars = {s[0].step // 16 for s in strokes if sides.get(s[0].step // 16) == 2}
    assert len(three) >= 40 and len(two_bars) >= 8
    assert sum(1 for s in three if s[0].step % 4 == 2) / len(three) >= 0.95
    opened = {s[0].step // 16 for s in strokes if s[0].step % 16 == 0}
    assert len(opened & two_bars) / len(two_bars) >= 0.9
    octaves = sum(1 for s in strokes if any(b.pitch - a.pitch == 12 for a in s for b in s))
    assert octaves / len(strokes) >= 0.9


def test_bossa_bass_plays_the_fifth_and_the_next_root_an_eighth_early() -> None:
    """Root and fifth on 1 and 3, each anticipated: the '&' of 2 takes beat 3's fifth, the
    '&' of 4 the next bar's root."""
    heard = compose("bossa nova in F major, 130 BPM")
    chords = _chords(heard)
    notes = heard.bass().notes
    fifths = [n for n in notes if n.step % 16 == 6]
    roots = [n for n in notes if n.step % 16 == 14]
    assert len(fifths) >= 16 and len(roots) >= 16

    def fifth_of(chord: SoundingChord) -> set[int]:
        return {(chord.bass_pc + 7) % 12, (chord.bass_pc + 6) % 12, (chord.bass_pc + 8) % 12}

    good_fifths = sum(
        1 for n in fifths if n.pitch % 12 in fifth_of(_chord_at(chords, n.step / 4 + 0.5))
    )
    good_roots = sum(
        1 for n in roots if n.pitch % 12 == _chord_at(chords, n.step / 4 + 0.5).bass_pc
    )
    assert good_fifths / len(fifths) >= 0.8
    assert good_roots / len(roots) >= 0.8


def test_a_walking_bass_plays_chord_tones_on_one_and_three_and_approaches_by_half_step() -> None:
    heard = compose("jazz in Bb major, 160 BPM")
    chords = _chords(heard)
    notes = heard.bass().notes
    strong = [n for n in notes if n.step % 16 in (0, 8)]
    tones = sum(1 for n in strong if n.pitch % 12 in _chord_at(chords, n.step / 4).tones)
    assert tones / len(strong) >= 0.85
    changes = {round(b, 3) for (b, c), (_, p) in itertools.pairwise(chords) if c.symbol != p.symbol}
    into = [(a, b) for a, b in itertools.pairwise(notes) if round(b.step / 4, 3) in changes]
    chromatic = sum(1 for a, b in into if abs(b.pitch - a.pitch) == 1)
    assert len(into) >= 20 and chromatic / len(into) >= 0.3


def test_reggae_one_drop_bass_is_a_melody_not_a_root() -> None:
    """Beat 1 left empty (tested beside the other idioms), and the line moves: three or
    more pitches in most bars."""
    notes = compose("reggae in G major, 75 BPM").bass().notes
    bars: dict[int, set[int]] = {}
    for note in notes:
        bars.setdefault(note.step // 16, set()).add(note.pitch)
    assert sum(1 for p in bars.values() if len(p) >= 3) / len(bars) >= 0.6


def test_a_named_sub_bass_alone_plays_the_genres_bassline() -> None:
    """A sub bass named in reggae: the sub is the band's only bass, so it plays the one-drop line on
    its own sound (the panel heard whole-note roots); beside a bass it may hold the roots."""
    heard = compose("reggae in D major, 75 BPM, sub bass")
    assert not heard.role("bass") and heard.role("sub_bass")
    notes = heard.bass().notes
    bars: dict[int, set[int]] = {}
    for note in notes:
        bars.setdefault(note.step // 16, set()).add(note.pitch)
    assert sum(1 for p in bars.values() if len(p) >= 3) / len(bars) >= 0.6
    assert median(n.length for n in notes) <= 1.0
