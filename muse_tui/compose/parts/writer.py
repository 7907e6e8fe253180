"""One section of one track, written, shaped into the next section and humanised into a Region."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from muse_tui.contracts import (
    HumanizationConfig,
    PatternSummary,
    PipelineIntent,
    Region,
    Section,
    SongState,
    Track,
    TrackRole,
    new_id,
)
from muse_tui.knowledge.rhythm import rhythm_table

from ..arrangement.repeats import develop_groove, section_repeat
from ..humanize import humanize, one_at_a_time, tidy
from ..transitions import build_entry_bar, drop_out, rest, shape_ending
from .articulation import articulate
from .bass import write_bass
from .comping import write_comping, write_pad, write_texture
from .context import PartContext, PartDraft
from .development import develop_part
from .drums import write_drums
from .lead import write_lead
from .percussion import write_percussion
from .style import feel_for, register_rule, resolve_style, track_look

Writer = Callable[[PartContext, random.Random, Region | None], PartDraft]
WRITERS: dict[str, Writer] = {
    "drums": lambda ctx, rng, _: write_drums(ctx, rng),
    "percussion": lambda ctx, rng, _: write_percussion(ctx, rng),
    "bass": write_bass,
    "sub_bass": write_bass,
    "chords": lambda ctx, rng, _: write_comping(ctx, rng),
    "keys": lambda ctx, rng, _: write_comping(ctx, rng),
    "arp": lambda ctx, rng, _: write_comping(ctx, rng, "arpeggiated"),
    "pad": lambda ctx, rng, _: write_pad(ctx, rng),
    "texture": lambda ctx, rng, _: write_texture(ctx, rng),
    "lead": lambda ctx, rng, _: write_lead(ctx, rng),
}


def write_part(
    track: Track,
    song: SongState,
    intent: PipelineIntent,
    section: Section,
    rng: random.Random,
    kick_source: Region | None = None,
    band: Sequence[Track] | None = None,
) -> Region:
    """One section of one track as a Region: notes relative to the region start, humanised.

    `kick_source` is the drum region of the same section; kick-locked bass
    styles play on its kicks (without it they use their own rhythm). `band` is the
    song's tracks when the caller has them (else they are chosen from the intent). A
    repeat's drop-out bar is left to its soloist; in a build the parts enter one after another.
    """
    region_id = new_id(rng)
    ctx = PartContext(track, song, intent, section, rhythm_table(), band)
    draft = WRITERS[track.role](ctx, rng, kick_source)
    kit = ctx.look.kit
    drafts = shape_ending(
        ctx.section.transition, draft.notes, ctx.length, ctx.beats_per_bar, kit=kit
    )
    repeat = section_repeat(song, section)
    if track.role == "drums":
        drafts = develop_groove(drafts, repeat, ctx.bars, ctx.beats_per_bar)
    else:
        drafts = develop_part(drafts, ctx, repeat)
    # As its player plays it, last, so what a repeat adds is played the same way
    # (a palm-muted repeat's octave stays low and short).
    draft = articulate(ctx, replace(draft, notes=drafts))
    drafts = draft.notes
    if repeat.drops_out(track.role):
        drafts = drop_out(drafts, repeat.dropout_bar, ctx.beats_per_bar)
    if entry := build_entry_bar(section, track.role):
        drafts = rest(drafts, 0.0, entry * ctx.beats_per_bar)
    notes = humanize(drafts, draft.feel or ctx.feel, rng, track.channel)
    bends = list(draft.pitch_bends)
    if draft.finish is not None:
        notes, glides = draft.finish(notes)
        bends += glides
    if ctx.plays_one_note:
        notes = one_at_a_time(notes)
    return Region(
        id=region_id,
        name=f"{track.name} · {section.name}",
        start_beat=song.bar_beat(section.start_bar),
        length_beats=ctx.length,
        notes=tidy(notes, ctx.length),
        control_changes=[c for c in draft.control_changes if c.beat < ctx.length],
        pitch_bends=[b for b in bends if b.beat < ctx.length],
    )


def summarize_part(track: Track, beats_per_bar: float) -> PatternSummary:
    """A track at a glance: notes, bars, range, and how busy it is."""
    pitches = [n.pitch for r in track.regions for n in r.notes]
    end = max((r.end_beat for r in track.regions), default=0.0)
    bars = math.ceil(end / beats_per_bar - 1e-9) if end else 0
    per_bar = len(pitches) / bars if bars else 0.0
    return PatternSummary(
        note_count=len(pitches),
        bars=bars,
        lowest_pitch=min(pitches, default=None),
        highest_pitch=max(pitches, default=None),
        style=f"{track.name}, {per_bar:.1f} notes a bar",
    )


def with_register(
    pattern: PatternSummary, role: TrackRole, intent: PipelineIntent | None
) -> PatternSummary:
    """The summary with the register the role is written in and the rule that set it."""
    if intent is None:
        return pattern
    table = rhythm_table()
    style = resolve_style(intent, table)
    look = track_look(role, style, table)
    if look.kit:
        return pattern
    rule = register_rule(role, style, table)
    return pattern.model_copy(update={"written_range": look.pitch_range, "range_rule": rule})


def groove_for(intent: PipelineIntent, tempo: float) -> tuple[HumanizationConfig, str]:
    """How the song's parts are humanised, and the groove template's name (for the manifest)."""
    table = rhythm_table()
    feel = feel_for(resolve_style(intent, table), table, tempo)
    return feel.config, feel.groove_name
