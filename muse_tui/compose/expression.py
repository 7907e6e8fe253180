"""Expression: how the parts are played beyond their notes, written as controller data.

A player does more than strike notes. A pianist changes the sustain pedal with
the harmony (legato pedalling: down just after the new chord sounds, up just
before the next, so two chords never blur); a singer or a lead synth player
leans into long notes with a delayed vibrato and scoops up into a phrase's first
long note; a pad player swells into a section with the expression pedal; a
keyboard player presses into a held note (channel pressure). A producer may ask
for more: a filter sweep on the pad over the build.

What a prompt or a change asks for is read in `intent.expression_words` (S1 puts
the prompt's requests on the intent). The song keeps what to play
(`SongState.expression`, `ExpressionRequest`s); `with_expression` writes the
controller data afresh each time the song is arranged, from the notes as they
now stand, so an edit to the notes never leaves a pedal change on the old
chords. Writing it changes no note.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence

from muse_tui.compose.intent.expression_words import CC_FILTER, CC_MODULATION, DEFAULTS
from muse_tui.contracts.song import (
    ChannelPressure,
    ControlChange,
    ExpressionRequest,
    PitchBend,
    Region,
    SongState,
    Track,
)

CC_EXPRESSION, CC_SUSTAIN = 11, 64
#: Legato pedalling: the pedal goes down this long after a chord sounds and up this
#: long before the next one (a 32nd note), well inside the 1/16 beat a listener hears.
PEDAL_LAG_BEATS = 1 / 32
#: Chord strikes closer than this are one chord (a rolled or humanised voicing).
STRIKE_BEATS = 1 / 16
#: Vibrato waits this long into a note, as a singer's does, and only notes this long get it.
VIBRATO_DELAY_BEATS, VIBRATO_MIN_BEATS, VIBRATO_DEPTH = 0.5, 1.0, 48
#: A scoop starts half a semitone flat (with the GM ±2 semitone bend range) and lands
#: on the note in an eighth of a beat; only a phrase's first long note gets one.
SCOOP_FROM, SCOOP_BEATS, SCOOP_MIN_BEATS, PHRASE_REST_BEATS = -2048, 0.125, 1.0, 0.5
#: A pad swell: the expression pedal rises from this to that over the first bar of a section.
SWELL_FROM, SWELL_TO = 72, 112
#: Ramps move at most this often (beats), so a 16-bar sweep is 64 controller events.
RAMP_STEP_BEATS = 0.25
_EXPRESSION_NAMESPACE = uuid.UUID("5b0e6c2a-3f1d-4e8b-9a57-64c0ffee0064")
#: Instruments with a sustain pedal (by instrument name, or GM programs 0–7 without one).
_PEDAL_WORDS = ("piano", "rhodes", "wurlitzer", "keys", "electric piano")


# ── planning: which expressions the song gets ───────────────────────────────


def plan_expression(song: SongState, asked: Sequence[ExpressionRequest]) -> SongState:
    """The song with its expression planned once: the defaults plus what the prompt `asked`
    (`PipelineIntent.expression_requests`).

    A song already planned (edits have changed it, or it was composed before) is
    returned as it is.
    """
    if song.expression is not None:
        return song
    roles = {t.role for t in song.tracks}
    requests = [r for r in default_requests(song.tracks) if r.role in roles]
    for request in asked:
        if request.role in roles and request not in requests:
            requests.append(request)
    return song.model_copy(update={"expression": requests})


def default_requests(tracks: Iterable[Track]) -> list[ExpressionRequest]:
    """What players do unasked: pedal on piano-like keys, vibrato and scoops on leads, swells."""
    requests: list[ExpressionRequest] = []
    for track in tracks:
        for kind, roles in DEFAULTS.items():
            if track.role not in roles or (kind == "sustain" and not has_pedal(track)):
                continue
            request = ExpressionRequest(kind=kind, role=track.role)
            if request not in requests:
                requests.append(request)
    return requests


def has_pedal(track: Track) -> bool:
    """A piano, a Rhodes, a Wurlitzer: instruments a player pedals (an organ or a guitar not)."""
    if track.is_drums:
        return False
    if track.instrument:
        name = track.instrument.lower().replace("_", " ")
        return any(word in name for word in _PEDAL_WORDS)
    return track.role in ("keys", "chords") and track.program is not None and track.program < 8


# ── writing: the controller data of each track ───────────────────────────────


def expression_region_id(track_id: str) -> str:
    """The stable id of the region that holds a track's expression (one per track)."""
    return str(uuid.uuid5(_EXPRESSION_NAMESPACE, track_id))


def with_expression(song: SongState, tracks: Sequence[Track]) -> list[Track]:
    """`tracks` (arranged, on their channels) each with its expression region written afresh.

    The notes are read as they will sound, so the pedal follows the chords that
    are actually played. Applying it twice gives the same tracks.
    """
    requests = song.expression or []
    result: list[Track] = []
    for track in tracks:
        kept = [r for r in track.regions if r.id != expression_region_id(track.id)]
        mine = [r for r in requests if r.role == track.role]
        region = _expression_region(song, track, kept, mine) if mine else None
        if region is None and len(kept) == len(track.regions):
            result.append(track)
            continue
        regions = [*kept, region] if region is not None else kept
        result.append(track.model_copy(update={"regions": regions}))
    return result


def _expression_region(
    song: SongState, track: Track, regions: list[Region], requests: list[ExpressionRequest]
) -> Region | None:
    notes = sorted(
        (
            (r.start_beat + n.start_beat, r.start_beat + n.end_beat, n.pitch)
            for r in regions
            for n in r.notes
        ),
    )
    controls: list[ControlChange] = []
    bends: list[PitchBend] = []
    pressures: list[ChannelPressure] = []
    channel = track.channel
    for request in requests:
        spans = _section_spans(song, request.section)
        placed = [n for n in notes if _inside(n[0], spans)]
        if request.kind == "sustain" and has_pedal(track):
            controls += sustain_pedal(placed, channel)
        elif request.kind == "vibrato":
            controls += vibrato(placed, channel)
        elif request.kind == "scoop":
            bends += scoops(placed, channel)
        elif request.kind == "swell":
            controls += swells(placed, _section_spans(song, None) or [], channel)
        elif request.kind == "pressure":
            pressures += pressure(placed, channel)
        elif request.kind == "cc_curve":
            over = [(0.0, _end(notes))] if request.section is None else spans or []
            controls += cc_curve(request, over, channel)
    controls = _clear_of_others(controls, _owned_windows(regions))
    if not (controls or bends or pressures):
        return None
    last = max([c.beat for c in controls] + [b.beat for b in bends] + [p.beat for p in pressures])
    return Region(
        id=expression_region_id(track.id),
        name="expression",
        start_beat=0,
        length_beats=max(last + RAMP_STEP_BEATS, _end(notes)),
        control_changes=sorted(controls, key=lambda c: (c.beat, c.controller)),
        pitch_bends=sorted(bends, key=lambda b: b.beat),
        channel_pressures=sorted(pressures, key=lambda p: p.beat),
    )


Placed = tuple[float, float, int]  # start, end, pitch in song beats


def _owned_windows(regions: Sequence[Region]) -> dict[int, list[tuple[float, float]]]:
    """Controller → the beat spans the track already moves it: a transition ramp (a build's
    mod wheel), or the part's own moves (a pad generator's own swells)."""
    beats: dict[int, list[float]] = {}
    for region in regions:
        for cc in region.control_changes:
            beats.setdefault(cc.controller, []).append(region.start_beat + cc.beat)
    windows: dict[int, list[tuple[float, float]]] = {}
    for controller, found in beats.items():
        spans: list[tuple[float, float]] = []
        for beat in sorted(found):
            if spans and beat - spans[-1][1] <= 2 * RAMP_STEP_BEATS:
                spans[-1] = (spans[-1][0], beat)
            else:
                spans.append((beat, beat))
        windows[controller] = spans
    return windows


def _clear_of_others(
    controls: list[ControlChange], windows: Mapping[int, list[tuple[float, float]]]
) -> list[ControlChange]:
    """Whatever already moves a controller owns it while it moves: expression steps aside."""
    return [
        c
        for c in controls
        if not any(a - 1e-6 <= c.beat <= b + 1e-6 for a, b in windows.get(c.controller, ()))
    ]


def chord_changes(notes: Sequence[Placed]) -> list[tuple[float, float]]:
    """(start, end) of each chord as played: strikes grouped, a new chord where the pitch
    classes change. A chord ends when the next begins, or when its last note stops
    before a rest."""
    strikes: list[tuple[float, float, set[int]]] = []
    for start, end, pitch in notes:
        if strikes and start - strikes[-1][0] < STRIKE_BEATS:
            first, last, pitches = strikes[-1]
            strikes[-1] = (first, max(last, end), pitches | {pitch % 12})
        else:
            strikes.append((start, end, {pitch % 12}))
    chords: list[tuple[float, float, set[int]]] = []
    for start, end, pitches in strikes:
        if chords and pitches == chords[-1][2] and start <= chords[-1][1] + STRIKE_BEATS:
            chords[-1] = (chords[-1][0], max(chords[-1][1], end), pitches)  # the same chord again
        else:
            chords.append((start, end, pitches))
    return [
        (start, min(end, chords[i + 1][0]) if i + 1 < len(chords) else end)
        for i, (start, end, _) in enumerate(chords)
    ]


def sustain_pedal(notes: Sequence[Placed], channel: int) -> list[ControlChange]:
    """Legato pedalling: down just after each chord sounds, up just before the next.

    Never held across two chords; a chord that stops before a rest is let go as it ends.
    """
    events: list[ControlChange] = []
    for start, end in chord_changes(notes):
        if end - start <= 2 * PEDAL_LAG_BEATS:
            continue  # too short to pedal
        events.append(_cc(start + PEDAL_LAG_BEATS, CC_SUSTAIN, 127, channel))
        events.append(_cc(end - PEDAL_LAG_BEATS, CC_SUSTAIN, 0, channel))
    return events


def vibrato(notes: Sequence[Placed], channel: int) -> list[ControlChange]:
    """Delayed vibrato on long notes: the mod wheel rises after the attack, falls at the end."""
    events: list[ControlChange] = []
    for start, end, _ in _monophonic(notes):
        if end - start < VIBRATO_MIN_BEATS:
            continue
        onset = start + VIBRATO_DELAY_BEATS
        steps = max(1, min(4, int((end - onset) / RAMP_STEP_BEATS)))
        for step in range(steps):
            beat = onset + step * RAMP_STEP_BEATS
            events.append(_cc(beat, CC_MODULATION, VIBRATO_DEPTH * (step + 1) // steps, channel))
        events.append(_cc(end, CC_MODULATION, 0, channel))
    return events


def scoops(notes: Sequence[Placed], channel: int) -> list[PitchBend]:
    """A short bend up from below into the first long note of each phrase (after a rest)."""
    events: list[PitchBend] = []
    previous_end, armed = -PHRASE_REST_BEATS, True
    for start, end, _ in _monophonic(notes):
        armed = armed or start - previous_end >= PHRASE_REST_BEATS
        if armed and end - start >= SCOOP_MIN_BEATS:
            armed = False
            for beat, value in ((0.0, SCOOP_FROM), (0.5, SCOOP_FROM // 3), (1.0, 0)):
                events.append(
                    PitchBend(beat=start + beat * SCOOP_BEATS, value=value, channel=channel)
                )
        previous_end = end
    return events


def swells(
    notes: Sequence[Placed], sections: Sequence[tuple[float, float]], channel: int
) -> list[ControlChange]:
    """The expression pedal rises over the first bar the pad plays in each section."""
    events: list[ControlChange] = []
    starts = [next((n[0] for n in notes if a <= n[0] < b), None) for a, b in sections]
    for first in sorted(
        {s for s in starts if s is not None} or ({notes[0][0]} if notes else set())
    ):
        events += _ramp(first, first + 4.0, CC_EXPRESSION, SWELL_FROM, SWELL_TO, channel)
    return events


def pressure(notes: Sequence[Placed], channel: int) -> list[ChannelPressure]:
    """Pressing into each held note: pressure rises through it and lets go at its end."""
    events: list[ChannelPressure] = []
    for start, end, _ in _monophonic(notes):
        if end - start < 0.5:
            continue
        middle = start + (end - start) / 2
        events += [
            ChannelPressure(beat=start, value=40, channel=channel),
            ChannelPressure(beat=middle, value=90, channel=channel),
            ChannelPressure(beat=end, value=0, channel=channel),
        ]
    return events


def cc_curve(
    request: ExpressionRequest, spans: Sequence[tuple[float, float]], channel: int
) -> list[ControlChange]:
    """The controller ramps from `start_value` to `end_value` across each span."""
    controller = request.controller if request.controller is not None else CC_FILTER
    events: list[ControlChange] = []
    for start, end in spans:
        events += _ramp(start, end, controller, request.start_value, request.end_value, channel)
    return events


def _ramp(
    start: float, end: float, controller: int, low: int, high: int, channel: int
) -> list[ControlChange]:
    steps = max(1, round((end - start) / RAMP_STEP_BEATS))
    return [
        _cc(
            start + (end - start) * i / steps,
            controller,
            round(low + (high - low) * i / steps),
            channel,
        )
        for i in range(steps + 1)
        if i < steps or end > start
    ]


def _monophonic(notes: Sequence[Placed]) -> list[Placed]:
    """One note per strike (onsets within `STRIKE_BEATS`): a chord or a double-stop counts
    once, lasting as long as its longest note, at its highest pitch."""
    merged: list[Placed] = []
    for start, end, pitch in sorted(notes):
        if merged and start - merged[-1][0] < STRIKE_BEATS:
            first, last, top = merged[-1]
            merged[-1] = (first, max(last, end), max(top, pitch))
        else:
            merged.append((start, end, pitch))
    return merged


def _section_spans(song: SongState, kind: str | None) -> list[tuple[float, float]] | None:
    """Beat spans of the sections of `kind`, every section for None; None without sections."""
    if song.arrangement is None:
        return None
    return [
        song.section_span(s)
        for s in song.arrangement.sections
        if kind is None or s.kind == kind or s.name.lower() == kind
    ]


def _inside(beat: float, spans: list[tuple[float, float]] | None) -> bool:
    return spans is None or any(a - 1e-6 <= beat < b - 1e-6 for a, b in spans)


def _end(notes: Sequence[Placed]) -> float:
    return max((n[1] for n in notes), default=RAMP_STEP_BEATS)


def _cc(beat: float, controller: int, value: int, channel: int) -> ControlChange:
    return ControlChange(
        beat=max(0.0, beat), controller=controller, value=max(0, min(127, value)), channel=channel
    )
