"""Small songs for audition tests: a 4-track, 8-bar groove with an intro and a hook."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from muse_tui.contracts import (
    Arrangement,
    ControlChange,
    Note,
    PitchBend,
    Region,
    Section,
    SongState,
    Track,
)

KICK, SNARE, HAT = 36, 38, 42
NoteSpec = tuple[float, float, int, int]  # start beat, length in beats, pitch, velocity


def _id() -> str:
    return str(uuid.uuid4())


def region(
    start: float,
    length: float,
    notes: Iterable[NoteSpec],
    ccs: Iterable[tuple[float, int, int]] = (),
    bends: Iterable[tuple[float, int]] = (),
    name: str = "clip",
) -> Region:
    return Region(
        id=_id(),
        name=name,
        start_beat=start,
        length_beats=length,
        notes=[Note(start_beat=s, duration_beats=d, pitch=p, velocity=v) for s, d, p, v in notes],
        control_changes=[ControlChange(beat=b, controller=c, value=v) for b, c, v in ccs],
        pitch_bends=[PitchBend(beat=b, value=v) for b, v in bends],
    )


def track(role: str, channel: int, regions: list[Region], **extra: object) -> Track:
    return Track(id=_id(), name=role.title(), role=role, channel=channel, regions=regions, **extra)


def drums(bars: int, beats_per_bar: int = 4) -> Track:
    """Kick on every beat, snare on 2 and 4, closed hat on the eighths."""
    notes: list[NoteSpec] = []
    for beat in range(bars * beats_per_bar):
        notes.append((beat, 0.25, KICK, 110))
        if beat % 2 == 1:
            notes.append((beat, 0.25, SNARE, 100))
        notes.append((beat, 0.25, HAT, 70))
        notes.append((beat + 0.5, 0.25, HAT, 60))
    return track("drums", 9, [region(0, bars * beats_per_bar, notes)], program=0)


def bass(bars: int, roots: tuple[int, ...] = (36, 41, 43, 39), name: str = "Bass") -> Track:
    """Half-note roots, in two regions (intro, hook) so region offsets matter."""
    half = bars // 2
    clips = []
    for start_bar in (0, half):
        notes = [
            (bar * 4 + half_note * 2, 1.75, roots[(start_bar + bar) % len(roots)], 96)
            for bar in range(half)
            for half_note in (0, 1)
        ]
        clips.append(region(start_bar * 4, half * 4, notes))
    return track("bass", 1, clips, program=38).model_copy(update={"name": name})


def chords(bars: int) -> Track:
    """Whole-bar triads held with the sustain pedal, overlapping into the next bar."""
    triads = [(60, 63, 67), (65, 68, 72), (67, 70, 74), (63, 67, 70)]
    notes: list[NoteSpec] = []
    ccs: list[tuple[float, int, int]] = []
    for bar in range(bars):
        for pitch in triads[bar % len(triads)]:
            notes.append((bar * 4, 4.5 if bar < bars - 1 else 4, pitch, 80))
        ccs += [(bar * 4, 64, 127), (bar * 4 + 3.5, 64, 0)]
    return track("chords", 2, [region(0, bars * 4, notes, ccs)], program=4)


def lead(bars: int) -> Track:
    """A two-note figure per bar with a bend glide and a re-struck note."""
    notes: list[NoteSpec] = []
    bends: list[tuple[float, int]] = []
    for bar in range(bars):
        notes += [
            (bar * 4 + 1, 1.5, 72, 90),
            (bar * 4 + 2, 1.0, 72, 85),
            (bar * 4 + 3, 0.5, 75, 80),
        ]
        bends += [(bar * 4 + 3, 2048), (bar * 4 + 3.5, 0)]
    return track("lead", 3, [region(0, bars * 4, notes, bends=bends)], program=81)


def groove(bars: int = 8, tempo: float = 400.0) -> SongState:
    """Four tracks, an intro and a hook."""
    half = bars // 2
    return SongState(
        title="Loopback groove",
        tempo=tempo,
        tracks=[drums(bars), bass(bars), chords(bars), lead(bars)],
        arrangement=Arrangement(
            template="test",
            sections=[
                Section(name="intro", kind="intro", start_bar=0, bars=half, energy=0.4),
                Section(name="hook", kind="hook", start_bar=half, bars=bars - half, energy=0.9),
            ],
        ),
    )


def other_bass(bars: int) -> Track:
    """An alternative bass: different roots, same rhythm."""
    return bass(bars, roots=(40, 45, 47, 44), name="Bass B")


def waltz(bars: int = 4, tempo: float = 240.0) -> SongState:
    """3/4: a low note on every downbeat, a high one on beats 2 and 3."""
    notes = [(bar * 3, 0.5, 40, 100) for bar in range(bars)]
    notes += [(bar * 3 + b, 0.5, 64, 70) for bar in range(bars) for b in (1, 2)]
    return SongState(
        tempo=tempo,
        time_signature=(3, 4),
        tracks=[track("keys", 0, [region(0, bars * 3, notes)])],
    )


_RANK = {"off": 0, "cc": 1, "bend": 2, "on": 3}


def expected_events(song: SongState) -> list[tuple[float, tuple[int, ...]]]:
    """The song as MIDI bytes in the order a listener should hear it.

    Written apart from the player's scheduler on purpose: at one instant,
    note-offs, then controllers, then bends, then note-ons; then track order.
    """
    keyed = []
    for index, t in enumerate(song.tracks):
        ch = t.channel
        for r in t.regions:
            for n in r.notes:
                start = r.start_beat + n.start_beat
                keyed.append((start, _RANK["on"], index, n.pitch, (0x90 | ch, n.pitch, n.velocity)))
                keyed.append(
                    (
                        start + n.duration_beats,
                        _RANK["off"],
                        index,
                        n.pitch,
                        (0x80 | ch, n.pitch, 0),
                    )
                )
            for c in r.control_changes:
                keyed.append(
                    (
                        r.start_beat + c.beat,
                        _RANK["cc"],
                        index,
                        c.controller,
                        (0xB0 | ch, c.controller, c.value),
                    )
                )
            for b in r.pitch_bends:
                v = b.value + 8192
                keyed.append(
                    (r.start_beat + b.beat, _RANK["bend"], index, v, (0xE0 | ch, v & 0x7F, v >> 7))
                )
    keyed.sort(key=lambda k: k[:4])
    return [(k[0], k[4]) for k in keyed]
