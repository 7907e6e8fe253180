"""Effect chains for the tracks and the shared reverb bus, timed to the tempo.

Drums and bass get compression, pads, leads and chords send to one reverb bus,
a genre's style adds its colour (lo-fi filters the drums, rock drives the lead,
jazz puts a small room on the chords), and constraints such as "no effects",
"no reverb" or "dry" take effects away.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pydantic import JsonValue

from muse_tui.contracts.song import Bus, Effect, EffectChain, SongState, Track
from muse_tui.knowledge.sound import EffectsTable, EffectStep, NoteValue, StyleOverride

#: A reverb pre-delay longer than this smears the attack instead of separating it.
MAX_PRE_DELAY_MS = 60.0
ALL_EFFECTS = "all"

_BEATS: dict[str, float] = {
    "whole": 4.0,
    "half": 2.0,
    "quarter": 1.0,
    "eighth": 0.5,
    "dotted_eighth": 0.75,
    "sixteenth": 0.25,
}


def beat_ms(bpm: float) -> float:
    """One quarter note in milliseconds: 60000 / bpm."""
    return 60000.0 / bpm


def pre_delay_ms(bpm: float) -> float:
    """A 32nd note, or a 64th when the 32nd would pass 60 ms, clamped to 0–60 ms."""
    thirty_second = beat_ms(bpm) / 8
    chosen = thirty_second if thirty_second <= MAX_PRE_DELAY_MS else thirty_second / 2
    return min(max(chosen, 0.0), MAX_PRE_DELAY_MS)


def note_ms(value: NoteValue, bpm: float) -> float:
    """The length of a note value at this tempo, in ms (`pre_delay` as above)."""
    if value == "pre_delay":
        return pre_delay_ms(bpm)
    return beat_ms(bpm) * _BEATS[value]


def normalise_phrase(text: str) -> str:
    """'No-Effects!' → 'no effects': lowercase words separated by single spaces."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def removed_kinds(constraints: Iterable[str], table: EffectsTable) -> frozenset[str]:
    """The effect kinds the producer's constraints take away ('all' when none may stay)."""
    removed: set[str] = set()
    for constraint in constraints:
        said = f" {normalise_phrase(constraint)} "
        for words, kinds in table.constraints.items():
            if f" {normalise_phrase(words)} " in said:
                removed.update(kinds)
    return frozenset({ALL_EFFECTS}) if ALL_EFFECTS in removed else frozenset(removed)


def matching_styles(genre_words: Iterable[str], table: EffectsTable) -> list[StyleOverride]:
    """The style overrides whose genres the song names, in the order the file lists them."""
    words = set(genre_words)
    return [o for o in table.style_overrides.values() if words & set(o.genres)]


def build_effects(
    song: SongState,
    genre_words: Iterable[str],
    constraints: Sequence[str],
    table: EffectsTable,
) -> tuple[list[EffectChain], list[Bus]]:
    """One chain per track (in track order), then the bus's chain; the bus only if used."""
    removed = removed_kinds(constraints, table)
    styles = matching_styles(genre_words, table)
    chains = [_track_chain(t, song.tempo, styles, removed, table) for t in song.tracks]
    if not any(table.bus.id in c.sends for c in chains):
        return chains, []
    bus_chain = _bus_chain(song.tempo, styles, table)
    bus = Bus(id=table.bus.id, name=table.bus.name, effect_chain=bus_chain, volume=table.bus.volume)
    return [*chains, bus_chain], [bus]


def chain_id(target_id: str) -> str:
    return f"fx-{target_id}"


def _track_chain(
    track: Track,
    bpm: float,
    styles: Sequence[StyleOverride],
    removed: frozenset[str],
    table: EffectsTable,
) -> EffectChain:
    if ALL_EFFECTS in removed:
        return EffectChain(id=chain_id(track.id), target_id=track.id)
    role_chain = table.role_chains[track.role]
    steps = list(role_chain.inserts)
    sends = dict(role_chain.sends)
    reshape: dict[str, dict[str, JsonValue]] = {}
    for style in styles:
        steps += style.add.get(track.role, [])
        sends.update(style.sends.get(track.role, {}))
        for kind, parameters in style.reshape.get(track.role, {}).items():
            reshape.setdefault(kind, {}).update(parameters)
    order = {kind: i for i, kind in enumerate(table.signal_order)}
    steps.sort(key=lambda s: order.get(s.kind, len(order)))
    effects = [
        _effect(step, bpm, table, reshape.get(step.kind, {}))
        for step in steps
        if step.kind not in removed
    ]
    if "reverb" in removed:
        sends.pop(table.bus.id, None)
    return EffectChain(id=chain_id(track.id), target_id=track.id, effects=effects, sends=sends)


def _bus_chain(bpm: float, styles: Sequence[StyleOverride], table: EffectsTable) -> EffectChain:
    reshape: dict[str, JsonValue] = {}
    for style in styles:
        reshape.update(style.bus)
    effects = [_effect(step, bpm, table, reshape) for step in table.bus.inserts]
    return EffectChain(id=chain_id(table.bus.id), target_id=table.bus.id, effects=effects)


def _effect(
    step: EffectStep, bpm: float, table: EffectsTable, reshape: dict[str, JsonValue]
) -> Effect:
    parameters: dict[str, JsonValue] = {**step.parameters, **reshape}
    for parameter, value in step.synced.items():
        parameters[parameter] = round(note_ms(value, bpm), 2)
    return Effect(kind=step.kind, name=table.units[step.kind].name, parameters=parameters)
