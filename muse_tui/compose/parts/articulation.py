"""A drafted part played as its instrument's player would (`skills/sound/articulations.json`).

The role's writer drafts the notes (a comping rhythm, a lead line); the idiom of
the instrument the track plays then shapes them: palm-muted chugs are short and
low, staccato strings detached, vocal chops cut into syllables, a pedal steel
swells and bends into its notes, an acid line slides and accents, a talking drum
bends its strokes, vinyl crackle and field recordings hold a bed that follows the
song's sections (`beds`), a clavinet stabs 16ths, a nylon guitar is fingerpicked and
a tin whistle plays a line wherever each is seated (`picking`), and a wind or brass
player plays one note at a time (`monophony`). A genre may ask its own idiom of an
instrument (bossa nova's nylon guitar: the batida); a comping idiom leaves the
instrument's melody track as drafted (`exceptRoles`). Drums take their genre's
idiom (hyperpop's glitch stutters) and leave out what a named kit sound replaces
(a bodhrán band has no claps or crashes).
Lines nobody named sit under a named lead, so the melody stays the named one's.
An idiom rewrites the notes, so a writer's finisher (808 glides, fitted to the
notes it drafted) is left out wherever one applies.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from muse_tui.contracts import ControlChange, PitchBend, Track
from muse_tui.knowledge.articulations import Idiom, articulation_table
from muse_tui.knowledge.instruments import instrument_table
from muse_tui.theory import fold_into

from ..humanize import Draft
from .beds import held
from .context import PartContext, PartDraft
from .monophony import one_voice
from .picking import line, picked
from .swells import swell

#: Lines that may climb over the lead: they are moved under a named one.
_LINE_ROLES = frozenset({"arp", "texture"})
#: The lowest pitch a line is moved down to (E1): below it, it would be rumble.
_FLOOR = 28
_FILTER = 74
_STEP = 0.25


def articulate(ctx: PartContext, draft: PartDraft) -> PartDraft:
    """The draft as the track's player plays it (unchanged where no idiom applies)."""
    table = articulation_table()
    if ctx.track.role == "drums":
        draft = _without_quieted_voices(ctx, draft)
        words = [*ctx.intent.genre, *ctx.intent.sub_genre, *ctx.intent.influences]
        idiom = table.for_genres(words, "drums")
    else:
        idiom = _instrument_idiom(ctx)
    if idiom is not None and ctx.track.role not in idiom.except_roles:
        draft = PLAYERS[idiom.kind](ctx, draft, idiom)
    if ctx.plays_one_note:
        draft = one_voice(ctx, draft)
    return _under_a_named_lead(ctx, draft)


def _instrument_idiom(ctx: PartContext) -> Idiom | None:
    """The idiom the genre asks of this instrument (bossa nova's nylon guitar), else its own."""
    table = articulation_table()
    words = [*ctx.intent.genre, *ctx.intent.sub_genre, *ctx.intent.influences]
    if ctx.track.instrument is not None:
        asked = table.for_genres(words, ctx.track.instrument)
        if asked is not None:
            return asked
    instrument = instrument_table().get(ctx.track.instrument)
    name = instrument.articulation if instrument is not None else None
    return table.idioms[name] if name is not None else None


def _short(ctx: PartContext, draft: PartDraft, idiom: Idiom) -> PartDraft:
    """Every note cut to `longest`; a held note struck again on the pattern's steps."""
    notes = _kept_lowest(draft.notes, idiom.lowest) if idiom.lowest else list(draft.notes)
    played: list[Draft] = []
    for note in notes:
        pitch = _into(note.pitch, idiom.pitch_range)
        starts = [note.start]
        if idiom.restrike and note.duration > 2 * idiom.longest:
            starts = _pattern_starts(idiom.pattern, note.start, note.end) or starts
        for start in starts:
            accent = _accent(idiom.pattern, start)
            played.append(
                Draft(
                    pitch,
                    note.velocity * accent,
                    start,
                    min(note.duration, idiom.longest),
                    note.voice,
                    note.locked,
                )
            )
    return PartDraft(played, draft.control_changes, draft.pitch_bends, draft.feel)


def _acid(ctx: PartContext, draft: PartDraft, idiom: Idiom) -> PartDraft:
    """The drafted line's pitches as a running 16th sequence: roots and octaves on the
    pattern, accents, slides (a note held over the next one's start) and the filter
    opening over each bar. Where the draft rests for a bar, the sequence rests too."""
    drafted = sorted(draft.notes, key=lambda n: n.start)
    notes: list[Draft] = []
    current = 0
    for start in _pattern_starts(idiom.pattern, 0.0, ctx.length):
        while current + 1 < len(drafted) and drafted[current + 1].start <= start + 1e-6:
            current += 1
        if not drafted or drafted[current].start > start + 1e-6:
            continue
        source = drafted[current]
        if start > source.end + ctx.beats_per_bar:
            continue  # the part rests here (a break, a drop-out bar)
        root = _into(source.pitch, idiom.pitch_range)
        step = _step(idiom.pattern, start)
        pitch = root + 12 if step == "o" and root + 12 <= 127 else root
        if notes and notes[-1].end > start and notes[-1].pitch == pitch:
            pitch = root + 12 if pitch == root else root  # a slide glides to another note
        length = idiom.longest + 0.06 if step == "~" else idiom.longest * 0.8
        velocity = source.velocity * _accent(idiom.pattern, start)
        notes.append(Draft(pitch, velocity, start, length, source.voice))
    bar = ctx.beats_per_bar
    sweep = [
        ControlChange(
            beat=b * bar + bar * k / 4,
            controller=_FILTER,
            value=round(50 + 60 * k / 4),
            channel=ctx.track.channel,
        )
        for b in range(ctx.bars)
        for k in range(4)
    ]
    return PartDraft(notes, [*draft.control_changes, *sweep], draft.pitch_bends, draft.feel)


def _talking(ctx: PartContext, draft: PartDraft, idiom: Idiom) -> PartDraft:
    """Short strokes on the pattern, on the drafted pitches, each accented one squeezed up."""
    notes, bends = [], list(draft.pitch_bends)
    for note in sorted(draft.notes, key=lambda n: n.start):
        pitch = _into(note.pitch, idiom.pitch_range)
        for start in _pattern_starts(idiom.pattern, note.start, note.end) or [note.start]:
            accent = _accent(idiom.pattern, start)
            notes.append(Draft(pitch, note.velocity * accent, start, idiom.longest, note.voice))
            if accent > 1:
                bends += [
                    PitchBend(beat=start + 0.06, value=idiom.bend, channel=ctx.track.channel),
                    PitchBend(beat=start + 0.2, value=0, channel=ctx.track.channel),
                ]
    return PartDraft(notes, draft.control_changes, bends, draft.feel)


def _stutter(ctx: PartContext, draft: PartDraft, idiom: Idiom) -> PartDraft:
    """The last struck `voices` hit of each `every`-beat span repeated in a fast burst."""
    added: list[Draft] = []
    span = 0.0
    while span < ctx.length:
        inside = [
            n
            for n in draft.notes
            if n.voice in idiom.voices and span <= n.start < span + idiom.every
        ]
        if inside:
            hit = max(inside, key=lambda n: n.start)
            added += [
                Draft(
                    hit.pitch,
                    hit.velocity * (0.9 - 0.1 * k),
                    hit.start + idiom.gap * k,
                    idiom.gap * 0.8,
                    hit.voice,
                    locked=True,
                )
                for k in range(1, idiom.repeats + 1)
                if hit.start + idiom.gap * k < ctx.length
            ]
        span += idiom.every
    return PartDraft([*draft.notes, *added], draft.control_changes, draft.pitch_bends, draft.feel)


PLAYERS: dict[str, Callable[[PartContext, PartDraft, Idiom], PartDraft]] = {
    "short": _short,
    "swell": swell,
    "acid": _acid,
    "talking": _talking,
    "stutter": _stutter,
    "held": held,
    "picked": picked,
    "line": line,
}


def _without_quieted_voices(ctx: PartContext, draft: PartDraft) -> PartDraft:
    """The kit without the voices a named kit sound has no place for (a bodhrán: claps)."""
    table = instrument_table()
    named = (table.get(r) for r in ctx.intent.instrument_requests)
    quiet = {v for i in named if i is not None for v in i.quiets_kit_voices}
    if not quiet:
        return draft
    kept = [n for n in draft.notes if n.voice not in quiet]
    return PartDraft(kept, draft.control_changes, draft.pitch_bends, draft.feel)


def _under_a_named_lead(ctx: PartContext, draft: PartDraft) -> PartDraft:
    """An arp or texture line that cannot lead, moved octaves down under a named lead.

    The melody is the named instrument's: an unnamed line (or a named bed, a talking
    drum) whose pitches average above the lead's floor would be heard as the tune.
    """
    if ctx.track.role not in _LINE_ROLES or not draft.notes:
        return draft
    table = instrument_table()
    requests = ctx.intent.instrument_requests
    if ctx.track.instrument in requests and table.can_lead(ctx.track.instrument):
        return draft
    lead = next((t for t in ctx.band if t.role == "lead"), None)
    named = {sound.program for r in requests if table.can_lead(r) and (sound := table.get(r))}
    if lead is None or lead.program not in named:
        return draft
    floor = _lead_floor(ctx, lead)
    shift = 0
    pitches = [n.pitch for n in draft.notes]
    while statistics.mean(pitches) + shift >= floor and min(pitches) + shift - 12 >= _FLOOR:
        shift -= 12
    if not shift:
        return draft
    moved = [
        Draft(n.pitch + shift, n.velocity, n.start, n.duration, n.voice, n.locked)
        for n in draft.notes
    ]
    return PartDraft(moved, draft.control_changes, draft.pitch_bends, draft.feel, draft.finish)


def _lead_floor(ctx: PartContext, lead: Track) -> int:
    """The lowest pitch the named lead sings (its idiom's register when it has one)."""
    from .lead import lead_style, lead_window  # the lead's register is the lead's to say

    instrument = instrument_table().get(lead.instrument)
    idiom = articulation_table().idioms.get(instrument.articulation or "") if instrument else None
    if idiom is not None and idiom.pitch_range is not None:
        return idiom.pitch_range[0]
    lead_ctx = PartContext(lead, ctx.song, ctx.intent, ctx.section, ctx.table, ctx.song_tracks)
    return lead_window(lead_ctx, lead_style(lead_ctx))[0]


def _kept_lowest(notes: list[Draft], count: int) -> list[Draft]:
    """Of each chord (notes struck together), its `count` lowest notes: a power-chord grip."""
    by_onset: dict[float, list[Draft]] = {}
    for note in notes:
        by_onset.setdefault(round(note.start, 4), []).append(note)
    return [n for chord in by_onset.values() for n in sorted(chord, key=lambda n: n.pitch)[:count]]


def _into(pitch: int, pitch_range: tuple[int, int] | None) -> int:
    """The pitch moved by octaves into the range (unchanged without one)."""
    if pitch_range is None:
        return pitch
    return fold_into(pitch, *pitch_range)


def _pattern_starts(pattern: str, start: float, end: float) -> list[float]:
    """The pattern's struck 16th steps from `start` up to `end` (beats, section time)."""
    first = round(start / _STEP)
    last = round(end / _STEP)
    return [k * _STEP for k in range(first, last) if pattern[k % len(pattern)] != "."]


def _step(pattern: str, start: float) -> str:
    return pattern[round(start / _STEP) % len(pattern)] if pattern else "x"


def _accent(pattern: str, start: float) -> float:
    return 1.2 if _step(pattern, start) == "X" else 1.0
