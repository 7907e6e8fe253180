"""`mpc/*.mpcpattern`: each track's part in each section as an MPC pattern, drums on MPC pads.

An `.mpcpattern` is the JSON file MPC software and MPC Beats load onto a track
(and users trade): `{"pattern": {"length": …, "events": [...]}}` at 960 ticks
a quarter note. It opens with three set-up events (type 1) and then one type 2
event per note: its tick, its length in ticks, the note in field "1" and the
velocity over 127 in field "2". The shape is the one real patterns have, as
Midian (fentonia.com's MIDI to .mpcpattern converter) writes them and as the
public reverse-engineering notes of MPC and Force expansion patterns list them
(dojevou/midi-software-center, docs/mpc-force).

A drum part is written on MPC pads, not General MIDI: each voice of the kit
takes a pad in the order of `skills/mpc/pads.json`, and the note is the one that
pad answers to in the MPC layout (A01 = 37, A02 = 36, …). The producer notes
list the pads, so the producer puts each sound where the pattern plays it.
Everything here is formatting: the song was arranged upstream.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from muse_tui.contracts import SongState, Track
from muse_tui.knowledge.mpc import pad_table
from muse_tui.store.sessions import sanitise_name
from muse_tui.theory.drums import drum_name

PATTERN_DIR = "mpc"
PATTERN_WORDS = "each track in each section it plays in, numbered in song order"
PATTERN_PPQ = 960
#: The length real pattern files carry: the MPC takes the sequence's length instead.
_OPEN_LENGTH = 9223372036854775807
#: The set-up events every pattern opens with, as real ones do.
_SET_UP = (
    {"type": 1, "time": 0, "len": 0, "1": 0, "2": 0.0, "3": 0, "mod": 0, "modVal": 0.0},
    {"type": 1, "time": 0, "len": 0, "1": 32, "2": 0.0, "3": 0, "mod": 0, "modVal": 0.0},
    {"type": 1, "time": 0, "len": 0, "1": 130, "2": 100 / 127, "3": 0, "mod": 0, "modVal": 0.0},
)


@dataclass(frozen=True, slots=True)
class Pad:
    """Where one drum voice of the session goes on an MPC drum program."""

    pad: str  # "A01"
    gm_note: int
    name: str  # "Kick"
    note: int  # what the pad answers to in the MPC layout


def drum_pads(song: SongState, drum_map: str | None = None) -> list[Pad]:
    """The kit's voices on pads: every drum note the song's drum tracks play, in pad order,
    each with the note it plays in `drum_map` (`skills/mpc/pads.json`; None: its default)."""
    table = pad_table()
    used = {n.pitch for t in song.tracks if t.is_drums for r in t.regions for n in r.notes}
    return [
        Pad(pad, gm, drum_name(gm), table.note_for_pad(pad, gm, drum_map))
        for pad, gm in table.layout(used)
    ]


def pattern_files(song: SongState, drum_map: str | None = None) -> list[tuple[str, bytes, str]]:
    """(path, bytes, description) of a pattern for each track in each section it plays in;
    the drums in `drum_map`."""
    sections = song.arrangement.sections if song.arrangement else []
    pads = {p.gm_note: p.note for p in drum_pads(song, drum_map)}
    layout = pad_table().maps[drum_map or pad_table().default_map].label
    files: list[tuple[str, bytes, str]] = []
    used: set[str] = set()
    for track in song.tracks:
        notes = _placed(track)
        for number, section in enumerate(sections, start=1):
            start = song.bar_beat(section.start_bar)
            end = song.bar_beat(section.start_bar + section.bars)
            inside = [n for n in notes if start <= n[0] < end]
            if not inside:
                continue
            name = _file_name(number, section.name, track, used)
            data = _pattern(inside, start, pads if track.is_drums else None)
            on = f"drums for {layout}" if track.is_drums else "notes as played"
            described = f"{track.name} ({track.role}) in {section.name}, an MPC pattern ({on})"
            files.append((name, data, described))
    return files


def _placed(track: Track) -> list[tuple[float, int, float, int]]:
    """(start beat, pitch, length in beats, velocity) of every note, in onset order."""
    placed = [
        (r.start_beat + n.start_beat, n.pitch, n.duration_beats, n.velocity)
        for r in track.regions
        for n in r.notes
    ]
    placed.sort()
    return placed


def _file_name(number: int, section: str, track: Track, used: set[str]) -> str:
    """`mpc/03-chorus-1-drums.mpcpattern`: sections in song order, then the track's role."""
    stem = f"{number:02d}-{sanitise_name(section, 'section')}-{sanitise_name(track.role)}"
    name, again = stem, 1
    while name in used:  # a second track of the same role
        again += 1
        name = f"{stem}-{again}"
    used.add(name)
    return f"{PATTERN_DIR}/{name}.mpcpattern"


def _pattern(
    notes: list[tuple[float, int, float, int]], start: float, pads: dict[int, int] | None
) -> bytes:
    """The pattern's JSON, an event a line (formatted by hand: a JSON encoder took seconds)."""
    events = [json.dumps(e) for e in _SET_UP]
    for begin, pitch, length, velocity in notes:
        note = pads.get(pitch, pitch) if pads is not None else pitch
        events.append(
            f'{{"type": 2, "time": {_ticks(begin - start)}, "len": {max(1, _ticks(length))}, '
            f'"1": {note}, "2": {velocity / 127!r}, "3": 0, "mod": 0, "modVal": 0.5}}'
        )
    body = ",\n      ".join(events)
    head = f'{{\n  "pattern": {{\n    "length": {_OPEN_LENGTH},\n    "events": [\n      '
    return f"{head}{body}\n    ]\n  }}\n}}\n".encode()


def _ticks(beats: float) -> int:
    return round(beats * PATTERN_PPQ)
