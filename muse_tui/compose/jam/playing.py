"""One member's part for one pass of the loop, written by the song's own part writers.

The loop is a one-section song in the jam's key; the member's energy is the
section's, so a busier drummer plays the family's busy patterns; the member's
variant picks the section kind (verse, chorus…) and the random stream, so an
evolving part moves through the genre's own variations rather than random
notes. Then the jam's own rules: the octave the member asked for, every
pitched note in the key, the half-time feel, the bass on the kick.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from muse_tui.contracts import (
    Arrangement,
    Note,
    PipelineIntent,
    Region,
    Section,
    SongState,
    new_id,
)
from muse_tui.contracts.jam import JamContext, MemberState
from muse_tui.knowledge.rhythm import rhythm_table
from muse_tui.theory.drums import KICK, KICK_ACOUSTIC
from muse_tui.theory.key import Key, key_of

from ..humanize import humanize, tidy
from ..iteration.note_edits import Groove, filled, thinned
from ..parts.context import PartContext
from ..parts.style import family_of, resolve_style
from ..parts.writer import WRITERS
from ..seeding import derive_rng

Want = Literal["more", "fewer"] | None

#: The section kinds a member's variants walk through: each is its own pattern in the writers.
VARIANT_KINDS = ("verse", "chorus", "pre_chorus", "bridge")
#: The family a half-time feel plays, and the bass style a bass locked to the kick plays.
HALF_TIME_FAMILY = "half_time"
LOCKED_BASS_STYLE = "syncopated"
#: How many times a member asked for more (or fewer) notes tries before settling.
_TRIES = 4
#: A bass note this close to a kick (in beats) plays with it.
KICK_WINDOW = 0.125
KICKS = frozenset({KICK, KICK_ACOUSTIC})
#: A locked bass note rings this share of the way to the next one.
HELD = 0.9
_MIDI_TOP = 127


def play_member(
    intent: PipelineIntent,
    context: JamContext,
    member: MemberState,
    seed: int,
    round_number: int,
    kick: Region | None = None,
    want: Want = None,
) -> Region:
    """The member's part for this round (empty when they lay out).

    With `want`, the part has more (or fewer) onsets than the one they played
    last, trying the next energy level and variation until it does.
    """
    region_id = new_id(derive_rng(seed, "jam", member.id, "region", round_number))
    if member.laid_out:
        return Region(id=region_id, name=member.name, start_beat=0, length_beats=context.loop_beats)
    before = len(member.part.notes) if member.part is not None else None
    energy, variant = member.energy, member.variant
    notes = _notes(intent, context, member, seed, kick)
    for attempt in range(1, _TRIES):
        if want is None or before is None or _satisfied(want, len(notes), before):
            break
        energy = _nudged(energy, want, attempt)
        variant += 1
        tried = member.model_copy(update={"energy": energy, "variant": variant})
        notes = _notes(intent, context, tried, seed, kick)
    region = Region(
        id=region_id,
        name=member.name,
        start_beat=0,
        length_beats=context.loop_beats,
        notes=notes,
    )
    stuck = want is not None and before is not None and not _satisfied(want, len(notes), before)
    if stuck and member.part is not None:
        # The genre's own patterns are no busier (or sparser) here: work the last part.
        region = _worked(member.part, want, intent, context, member).model_copy(  # type: ignore[arg-type]
            update={"id": region_id}
        )
    return region


def _worked(
    part: Region,
    want: Literal["more", "fewer"],
    intent: PipelineIntent,
    context: JamContext,
    member: MemberState,
) -> Region:
    """The last part with hats or echoes added (more), or its weakest notes taken out (fewer)."""
    table = rhythm_table()
    style = resolve_style(intent, table)
    family = family_of(style, table)
    groove = Groove(context.beats_per_bar, style.swing, family.swing_unit)
    role = member.track.role
    return filled(part, 1, groove, role) if want == "more" else thinned(part, 1, groove, role)


def _satisfied(want: Literal["more", "fewer"], count: int, before: int) -> bool:
    return count > before if want == "more" else count < before


def _nudged(energy: float, want: Literal["more", "fewer"], attempt: int) -> float:
    step = 0.15 * attempt
    return min(1.0, energy + step) if want == "more" else max(0.0, energy - step)


def _notes(
    intent: PipelineIntent,
    context: JamContext,
    member: MemberState,
    seed: int,
    kick: Region | None,
) -> list[Note]:
    track = member.track
    section = Section(
        name="Loop",
        kind=VARIANT_KINDS[member.variant % len(VARIANT_KINDS)],
        start_bar=0,
        bars=context.bars,
        energy=member.energy,
        active_roles=[track.role],
    )
    song = SongState(
        seed=seed,
        tempo=context.tempo,
        key=context.key,
        mode=context.mode,
        progression=context.progression,
        arrangement=Arrangement(template="jam", sections=[section]),
        **context.song_time,
    )
    table = rhythm_table()
    ctx = PartContext(track, song, intent, section, table)
    _play_style(ctx, intent, context, member)
    rng = derive_rng(seed, "jam", member.id, member.variant, round(member.energy, 3))
    draft = WRITERS[track.role](ctx, rng, kick if member.locked_to_kick else None)
    notes = humanize(draft.notes, draft.feel or ctx.feel, rng, track.channel)
    if draft.finish is not None:
        notes, _ = draft.finish(notes)  # 808 glides are left out of a jam loop
    if member.locked_to_kick and kick is not None and not ctx.look.kit:
        notes = _on_the_kick(notes, kick, ctx)
    if not ctx.look.kit:
        key = key_of(context.key, context.mode)
        notes = [_in_key(_octave(n, member.octave), key) for n in notes]
    return tidy(notes, ctx.length)


def _play_style(
    ctx: PartContext, intent: PipelineIntent, context: JamContext, member: MemberState
) -> None:
    """The member's way of playing the genre: half-time drums, a bass on the kick.

    `PartContext.style` is a cached property; setting the instance's value first
    is how functools' cached_property lets a caller supply it.
    """
    style = resolve_style(intent, ctx.table)
    if ctx.look.kit and context.half_time and HALF_TIME_FAMILY in ctx.table.drums.families:
        style = dataclasses.replace(style, family=HALF_TIME_FAMILY)
    if member.locked_to_kick and not ctx.look.kit:
        rhythm = ctx.table.bass.get(style.bass_style)  # type: ignore[union-attr]
        if rhythm is None or not rhythm.kick_locked:
            style = dataclasses.replace(style, bass_style=LOCKED_BASS_STYLE)
    ctx.__dict__["style"] = style


def _on_the_kick(notes: list[Note], kick: Region, ctx: PartContext) -> list[Note]:
    """Only the notes that land with a kick, held to the next (a chord with none keeps one).

    The writers' kick-locked styles also play every chord change; asked to lock,
    the bass plays with the drummer's foot and lets a chord change without a kick pass.
    """
    kicks = [n.start_beat for n in kick.notes if n.pitch in KICKS]
    if not kicks:
        return notes
    on = [n for n in notes if any(abs(n.start_beat - k) <= KICK_WINDOW for k in kicks)]
    chords = ctx.harmony.chords[:-1]  # the last is the next section's first chord
    for chord in chords:
        if not any(chord.start - 1e-6 <= n.start_beat < chord.end for n in on):
            first = next((n for n in notes if chord.start - 1e-6 <= n.start_beat < chord.end), None)
            if first is not None:
                on.append(first)
    on.sort(key=lambda n: n.start_beat)
    held = []
    for index, note in enumerate(on):
        end = on[index + 1].start_beat if index + 1 < len(on) else ctx.length
        held.append(
            note.model_copy(
                update={"duration_beats": max(note.duration_beats, (end - note.start_beat) * HELD)}
            )
        )
    return held


def _octave(note: Note, octave: int) -> Note:
    if octave == 0:
        return note
    pitch = note.pitch + 12 * octave
    while pitch > _MIDI_TOP:
        pitch -= 12
    while pitch < 0:
        pitch += 12
    return note.model_copy(update={"pitch": pitch})


def _in_key(note: Note, key: Key) -> Note:
    """The note, or the nearest note of the key below it (a jam never leaves its key)."""
    if key.contains(note.pitch % 12):
        return note
    for distance in (1, -1, 2, -2):
        pitch = note.pitch - distance
        if 0 <= pitch <= _MIDI_TOP and key.contains(pitch % 12):
            return note.model_copy(update={"pitch": pitch})
    return note
