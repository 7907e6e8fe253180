"""The harmony under one section, as the part writers need it: which chord sounds when, and the key.

Times are beats from the start of the section (the region). With the harmonic
dial at 0 the parts stay in the key's scale, so chord tones outside it (a
harmonic-minor V's leading tone) are left out of what the parts may play.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from muse_tui.contracts import EnrichedProgression, ProgressionChord, Section, SongState
from muse_tui.theory.chord import parse_chord
from muse_tui.theory.key import Key

from ..arrangement import chords_in_song
from ..harmony import song_key
from ..transposition import shifted_key


@dataclass(frozen=True)
class SoundingChord:
    """A chord as it sounds in the section: when, its bass, the tones parts may use, its voicing."""

    start: float
    end: float
    symbol: str
    root_pc: int
    bass_pc: int
    tones: frozenset[int]
    voicing: tuple[int, ...]


class SectionHarmony:
    """Chords and scale of one section; looks up the chord sounding at any beat."""

    def __init__(self, song: SongState, section: Section, harmonic_dial: float) -> None:
        self.key = shifted_key(song_key(song), section.key_shift)
        self.scale: tuple[int, ...] = self.key.pitch_classes
        self.strict = harmonic_dial <= 0
        bpb = song.beats_per_bar
        origin = song.bar_beat(section.start_bar)
        progression = song.progression or _tonic_only(self.key, bpb)
        self.chords = [
            self._sounding(p.chord, p.start_beat - origin, p.end_beat - origin)
            for p in chords_in_song(song, section, progression)
        ]
        following = _next_section(song, section)
        first_next = (
            chords_in_song(song, following, progression)[0].chord
            if following is not None
            else progression.chords[0]
        )
        end = self.chords[-1].end
        self.chords.append(self._sounding(first_next, end, end + first_next.beats))
        self._starts = [c.start for c in self.chords]

    def index(self, beat: float) -> int:
        """Index in `chords` of the chord sounding at `beat` (the next section's past the end)."""
        return max(0, bisect_right(self._starts, beat + 1e-6) - 1)

    def at(self, beat: float) -> SoundingChord:
        """The chord sounding at `beat`."""
        return self.chords[self.index(beat)]

    def in_scale(self, pitch: int) -> bool:
        return pitch % 12 in self.scale

    def step(self, pitch: int, steps: int) -> int:
        """`pitch` moved by scale steps (a pitch outside the scale first snaps into it)."""
        pitch = self.snap(pitch)
        direction = 1 if steps > 0 else -1
        for _ in range(abs(steps)):
            pitch += direction
            while not self.in_scale(pitch):
                pitch += direction
        return pitch

    def snap(self, pitch: int) -> int:
        """The nearest scale tone, the lower one on a tie."""
        for distance in range(7):
            for candidate in (pitch - distance, pitch + distance):
                if self.in_scale(candidate):
                    return candidate
        return pitch

    def _sounding(self, chord: ProgressionChord, start: float, end: float) -> SoundingChord:
        voicing = tuple(sorted(chord.voicing))
        read = _chord_tones(chord.symbol)
        if read is not None:
            root, bass, tones = read[0], read[1], set(read[2])
        else:
            root = bass = voicing[0] % 12
            tones = {p % 12 for p in voicing}
        if self.strict:
            voicing = tuple(p for p in voicing if self.in_scale(p)) or voicing
            tones = {pc for pc in tones if pc in self.scale} or tones
            if bass not in tones:
                bass = root if root in tones else min(tones, key=lambda pc: (pc - root) % 12)
        return SoundingChord(start, end, chord.symbol, root, bass, frozenset(tones), voicing)


def section_harmony(song: SongState, section: Section, harmonic_dial: float) -> SectionHarmony:
    """`SectionHarmony(...)`, shared by the parts of one song: each part of a section reads the
    same chords, and S4 writes three or four of them per section at once.

    Remembered for the song written last, by the identity of the song and the
    section (models are never changed in place, and the entry holds the section,
    so its id cannot be reused while it stands). A SectionHarmony is never
    changed once built, so threads may share it; two racing threads at worst
    build one twice.
    """
    song_then, known = _last_song.state
    if song_then is not song:
        known = {}
        _last_song.state = (song, known)
    key = (id(section), harmonic_dial)
    hit = known.get(key)
    if hit is not None and hit[0] is section:
        return hit[1]
    harmony = SectionHarmony(song, section, harmonic_dial)
    known[key] = (section, harmony)
    return harmony


class _LastSong:
    """The song `section_harmony` wrote last, and its sections' harmony by (section, dial)."""

    def __init__(self) -> None:
        self.state: tuple[SongState | None, dict[tuple[int, float], tuple[Section, SectionHarmony]]]
        self.state = (None, {})  # one tuple, swapped whole: threads never see half of it


_last_song = _LastSong()


@lru_cache(maxsize=256)
def _chord_tones(symbol: str) -> tuple[int, int, frozenset[int]] | None:
    """A symbol's root, bass and pitch classes (None when it cannot be read).

    Cached: every part reads every chord of every section, and a song has only a few symbols.
    """
    try:
        parsed = parse_chord(symbol)
        return parsed.root_pc, parsed.bass_pc, parsed.pitch_classes
    except ValueError:
        return None


def nearest_pitch(
    target: float, pitch_classes: frozenset[int] | set[int], low: int, high: int
) -> int:
    """The pitch within low..high with one of `pitch_classes` nearest `target` (lower on a tie).

    A range too narrow to hold any of them widens an octave at a time: the
    pitch class matters more than the register.
    """
    while True:
        candidates = [p for p in range(max(0, low), min(127, high) + 1) if p % 12 in pitch_classes]
        if candidates or (low <= 0 and high >= 127):
            break
        low, high = low - 12, high + 12
    if not candidates:
        return int(min(max(round(target), 0), 127))
    return min(candidates, key=lambda p: (abs(p - target), p))


def _tonic_only(key: Key, beats_per_bar: float) -> EnrichedProgression:
    """A stand-in progression for a song without one: the tonic triad held."""
    pcs = [key.degree_pc(d) for d in (1, 3, 5)]
    voicing = [60 + (pc - pcs[0]) % 12 + pcs[0] for pc in pcs]
    minor_third = (pcs[1] - pcs[0]) % 12 == 3
    symbol = key.tonic + ("m" if minor_third else "")
    chord = ProgressionChord(
        symbol=symbol,
        roman="i" if minor_third else "I",
        voicing=sorted(voicing),
        beats=beats_per_bar * 4,
    )
    return EnrichedProgression(key=key.tonic, mode=key.mode, chords=[chord])


def _next_section(song: SongState, section: Section) -> Section | None:
    if song.arrangement is None:
        return None
    for candidate in song.arrangement.sections:
        if candidate.start_bar == section.end_bar:
            return candidate
    return None


def keeps_direction(pitch: int, before: int | None, rise: int) -> bool:
    """Whether `pitch` moves from `before` the way a line means to (`rise`: 1 up, -1 down,
    0 either way or none)."""
    return before is None or rise == 0 or (pitch - before) * rise > 0


def directed_tone(
    options: list[int],
    pitch: int,
    tones: frozenset[int] | set[int],
    before: int | None,
    rise: int,
    low: int,
    high: int,
) -> int:
    """Where a line's note snapped to a chord lands: the first of `options` (chord tones, best
    first) that keeps the line's motion from `before` (`rise`), else the next of `tones` from
    `pitch` that way, else the first option (the window has no room that way).

    Snapping each note of a rising scale figure to its nearest chord tone folds neighbouring
    steps onto one pitch (D over C major goes back to C): a step becomes a repeated note and
    the motif's contour is lost. A line that rises takes the next chord tone up; one that
    falls, the next one down.
    """
    if before is None or rise == 0:
        return options[0]
    for option in options:
        if keeps_direction(option, before, rise):
            return option
    start = pitch if keeps_direction(pitch, before, rise) else before + rise
    for candidate in range(start, start + 12 * rise, rise):
        if not low <= candidate <= high:
            break
        if candidate % 12 in tones:
            return candidate
    return options[0]
