"""Chords placed on a track at a position: "add I vi IV to the keys at bar 9".

Chord symbols ("Gmaj/E Am7 D7") or Roman numerals in the song's key ("I vi
IV"), one chord a bar from the position, or looped over a named section ("in
the bridge"). The part keeps its rhythm and register, as when a producer
re-pitches a comping clip in a DAW: a block chord is re-voiced with the least
motion, a single note moves to the nearest chord tone. The band follows by
default (the other harmony tracks the same way, the bass to the new roots
keeping its line's shape); "only the keys" changes the named track alone.
Notes outside the placed bars are not touched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from muse_tui.compose.assembly import EARLY_GRACE_BEATS, remove_overlaps
from muse_tui.compose.harmony import placed_progression, song_key
from muse_tui.compose.parts.harmony import nearest_pitch
from muse_tui.compose.request_types import Edit, Scope
from muse_tui.contracts import Note, Position, SongState, Track
from muse_tui.knowledge.edit_words import Operation
from muse_tui.theory import (
    Chord,
    ChordSyntaxError,
    Key,
    RomanSyntaxError,
    VoicingError,
    parse_chord,
    parse_roman,
    voice_lead,
)

from .entities import find_track
from .positions import bar_of, read_position, section_index
from .revision import COMPONENT_ROLES, EditError, Revision, listed, track_label
from .section_edits import sections_of

#: How far a re-voiced block chord may reach past the notes it replaces, in semitones.
REACH = 5
_ROMAN = re.compile(r"^[b#♭♯]?(?:VII|VI|IV|V|III|II|I|vii|vi|iv|v|iii|ii|i)[°ø+]?[\dsuadgimj/]*$")
_SYMBOL = re.compile(r"^[A-G][#b♯♭]?[\w#♭♯+°ø()/,-]*$")
_VERBS = r"\b(add|put|place|play|write|use|give|lay|drop in)\b"

#: Not a clause word: a whole line read by `daw_lines.daw_edits`.
_PLACED = cast(Operation, "placed_chords")


@dataclass(frozen=True)
class PlacedChords(Edit):
    """Chords (symbols or numerals) for a track at a position; `only` keeps the band out of it."""

    operation: Operation = _PLACED
    chords: tuple[str, ...] = ()
    track: str | None = None  # the words naming the track; None means the song's chord part
    place: Position | None = None
    only: bool = False
    scope: Scope = field(default_factory=Scope)


def handles(edit: Edit) -> bool:
    return isinstance(edit, PlacedChords)


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with the chords placed on the track (and the band following them)."""
    assert isinstance(edit, PlacedChords)
    revision = revision.fork()
    song = revision.song
    key = song_key(song)
    chords = [_chord(word, key) for word in edit.chords]
    spans = chord_spans(song, edit.place, len(chords))
    placed = [(start, end, chords[i % len(chords)]) for i, (start, end) in enumerate(spans)]
    main = _main_track(song, edit.track)
    first_bar, last_bar = (
        int(spans[0][0] / song.beats_per_bar),
        int(spans[-1][1] / song.beats_per_bar),
    )
    if not any(spans[0][0] <= n.start_beat < spans[-1][1] for n in main.notes):
        raise EditError(
            f"{main.name} rests in bars {first_bar + 1}–{last_bar}, so there is nothing there "
            "to play the chords; pick bars where it plays."
        )
    band = [main] if edit.only else [t for t in song.tracks if _follows(t, main)]
    playing = {t.id for t in band}
    tracks = [
        (replaced(t, placed, bass=t.role in COMPONENT_ROLES["bass"]) if t.id in playing else t)
        for t in song.tracks
    ]
    revision.song = song.model_copy(update={"tracks": remove_overlaps(tracks)})
    if edit.place is not None and _whole_section(edit.place):
        _own_progression(revision, section_index(song, edit.place), chords, key)
    for track in band:
        revision.touch(track_label(song, track.id), "cheap")
        revision.aim("chords", f"tracks[{song.tracks.index(track)}].regions", "adjust")
    who = listed([track_label(song, t.id) for t in band])
    names = " ".join(c.symbol for c in chords)
    revision.sentences.append(f"Placed {names} in bars {first_bar + 1}–{last_bar} ({who}).")
    return revision


# ── reading the request ─────────────────────────────────────────────────────
def read_placed_chords(said: str) -> PlacedChords | None:
    """Chords placed on a track, or None: a run of chord words after a verb, or two or more."""
    words = said.replace(",", " ").split()
    run = _longest_run(words)
    if not run:
        return None
    start, end = run
    lower = said.lower()
    if end - start < 2 and not re.search(_VERBS, lower):
        return None
    rest = " ".join(words[end:])
    place = read_position(rest)
    if place is None:
        return None
    track = re.search(
        r"^(?:only |just )?(?:to|on|for|in|into)\s+(?:only |just )?(.+?)"
        r"(?=\s+(?:only|at|in|on|from|during)\b|$)",
        rest,
    )
    named = track.group(1) if track and read_position(track.group(1)) is None else None
    return PlacedChords(
        chords=tuple(words[start:end]),
        track=named,
        place=place,
        only=bool(re.search(r"\bonly\b|\bjust the\b", lower)),
    )


def _longest_run(words: Sequence[str]) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and _chord_word(words[j]):
            j += 1
        if j > i and (best is None or j - i > best[1] - best[0]):
            best = (i, j)
        i = max(j, i + 1)
    if best and best[1] - best[0] == 1 and words[best[0]] in ("I", "A"):
        return None  # "I" and "A" alone are words, not chords
    return best


def _chord_word(word: str) -> bool:
    if _ROMAN.match(word):
        return True
    if not _SYMBOL.match(word):
        return False
    try:
        parse_chord(word)
    except ChordSyntaxError:
        return False
    return True


# ── placing ─────────────────────────────────────────────────────────────────
def chord_spans(song: SongState, place: Position | None, count: int) -> list[tuple[float, float]]:
    """(start, end) beats of each chord: one a bar from a bar, or filling a section bar by bar."""
    if place is None:
        raise EditError("say where, e.g. “at bar 9” or “in the bridge”.")
    beats = song.beats_per_bar
    if _whole_section(place):
        section = sections_of(song)[section_index(song, place)]
        bars = range(section.start_bar, section.end_bar)
    else:
        start = bar_of(song, place)
        bars = range(start, start + count)
    return [(bar * beats, (bar + 1) * beats) for bar in bars]


def _whole_section(place: Position) -> bool:
    return place.bar is None and place.offset_bars == 0 and place.relation == "at"


def _own_progression(revision: Revision, index: int, chords: Sequence[Chord], key: Key) -> None:
    """The section keeps the chords it was given, for its own `.progression` file."""
    song = revision.song
    assert song.arrangement is not None
    sections = list(song.arrangement.sections)
    own = placed_progression(chords, key, song.beats_per_bar, sections[index].name)
    sections[index] = sections[index].model_copy(update={"progression": own})
    arrangement = song.arrangement.model_copy(update={"sections": sections})
    revision.song = song.model_copy(update={"arrangement": arrangement})
    revision.touch("arrangement", "cheap")


def replaced(track: Track, placed: Sequence[tuple[float, float, Chord]], *, bass: bool) -> Track:
    """The track with its notes inside the placed spans moved onto the chords there."""
    moved = _bass_line if bass else _comped
    early = EARLY_GRACE_BEATS  # a note played just ahead of its bar belongs to it
    regions = []
    for region in track.regions:
        notes = list(region.notes)
        for start, end, chord in placed:
            inside = [
                i
                for i, n in enumerate(notes)
                if start - early <= region.start_beat + n.start_beat < end - early
            ]
            if inside:
                new = moved([notes[i] for i in inside], chord)
                skip = set(inside)
                keep = [n for i, n in enumerate(notes) if i not in skip]
                notes = sorted([*keep, *new], key=lambda n: (n.start_beat, n.pitch))
        regions.append(
            region if notes == region.notes else region.model_copy(update={"notes": notes})
        )
    return track.model_copy(update={"regions": regions})


def _comped(notes: Sequence[Note], chord: Chord) -> list[Note]:
    """Each struck chord re-voiced with the least motion, in as many voices; a lone note to
    the nearest chord tone. Notes struck within a 64th of each other are one chord (humanised)."""
    out: list[Note] = []
    for group in _struck_together(notes):
        pitches = sorted(n.pitch for n in group)
        voicing = _revoiced(pitches, chord) if len(group) >= 3 else None
        if voicing is not None:
            ordered = sorted(group, key=lambda n: n.pitch)
            out += [
                n.model_copy(update={"pitch": p}) for n, p in zip(ordered, voicing, strict=True)
            ]
        else:
            out += [n.model_copy(update={"pitch": _nearest(n.pitch, chord)}) for n in group]
    return out


def _revoiced(pitches: list[int], chord: Chord) -> list[int] | None:
    """The chord in these voices, moving least, near where they were (None if it cannot be)."""
    for reach in (REACH, 2 * REACH + 2):
        low, high = max(0, pitches[0] - reach), min(127, pitches[-1] + reach)
        try:
            return sorted(voice_lead(pitches, chord, low, high))
        except VoicingError:
            continue
    return None


def _struck_together(notes: Sequence[Note]) -> list[list[Note]]:
    groups: list[list[Note]] = []
    for note in sorted(notes, key=lambda n: n.start_beat):
        if groups and note.start_beat - groups[-1][0].start_beat < EARLY_GRACE_BEATS:
            groups[-1].append(note)
        else:
            groups.append([note])
    return groups


def _bass_line(notes: Sequence[Note], chord: Chord) -> list[Note]:
    """The bar's line moved so its first note is the new root; on-beat notes land on chord tones."""
    first = min(notes, key=lambda n: (n.start_beat, n.pitch))
    shift = (chord.bass_pc - first.pitch) % 12
    shift = shift - 12 if shift > 6 else shift
    out = []
    for note in notes:
        pitch = note.pitch + shift
        if note.start_beat % 1 == 0 and pitch % 12 not in chord.pitch_classes:
            pitch = _nearest(pitch, chord)
        out.append(note.model_copy(update={"pitch": min(127, max(0, pitch))}))
    return out


def _nearest(pitch: int, chord: Chord) -> int:
    """The closest pitch holding one of the chord's tones (the lower one on a tie)."""
    return nearest_pitch(pitch, chord.pitch_classes, pitch - 6, pitch + 6)


def _chord(word: str, key: Key) -> Chord:
    try:
        if _ROMAN.match(word):
            return parse_roman(word, key)
        return parse_chord(word)
    except (ChordSyntaxError, RomanSyntaxError) as exc:
        raise EditError(f"cannot read the chord {word!r}: {exc}") from None


def _main_track(song: SongState, named: str | None) -> Track:
    if named is not None:
        return find_track(song, named)
    harmony = [t for t in song.tracks if t.role in COMPONENT_ROLES["chords"]]
    if not harmony:
        raise EditError("this song has no chord part; say which track, e.g. “to track 2”.")
    return harmony[0]


def _follows(track: Track, main: Track) -> bool:
    """The named track, every other harmony track, and the bass follow placed chords."""
    if track.id == main.id:
        return True
    return not track.frozen and (
        track.role in COMPONENT_ROLES["chords"] or track.role in COMPONENT_ROLES["bass"]
    )
