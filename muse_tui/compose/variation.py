"""How a sound can vary, and how different two takes are: tone, effects, presets, scores, distances.

Tone is one EQ insert with two independent bands, so "warm" (low mids) and
"bright" (air) combine; a new instruction on the same band replaces an older one
in the other direction and adds to one in the same direction. Scores are the
heuristic A/B scores: harmonic (share of chords outside the key), rhythmic
(density against the genre's norm), consonance (tension against the genre's range).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from pydantic import BaseModel, JsonValue, TypeAdapter

from muse_tui.compose.arrangement import chords_for_section
from muse_tui.compose.critics.rhythm import density_norm
from muse_tui.compose.edits import song_key_of
from muse_tui.compose.effects import note_ms
from muse_tui.compose.sounds import SoundBrief, rank_sounds
from muse_tui.contracts import (
    Change,
    ControlChange,
    Effect,
    EffectChain,
    EnrichedProgression,
    GenreDNAVector,
    Note,
    PipelineIntent,
    PitchBend,
    ProgressionChord,
    Region,
    SongState,
    Track,
)
from muse_tui.knowledge.sound import EffectsTable, EffectStep, SoundCatalog, SoundEntry
from muse_tui.theory import ChordSyntaxError, parse_chord

EQ_KIND = "eq"
EQ_NAME = "EQ (any MPC Beats EQ insert)"
#: operation → (EQ parameter, dB per step); warm and bright live on different bands.
TONE_STEPS: dict[str, tuple[str, float]] = {
    "warmer": ("low_mid_db", 2.5),
    "colder": ("low_mid_db", -2.5),
    "brighter": ("air_db", 3.0),
    "darker": ("air_db", -3.0),
}
TONE_CENTRES = {"low_mid_db": ("low_mid_hz", 250), "air_db": ("air_hz", 10000)}
MAX_TONE_DB = 9.0
SEND_STEP = 0.12
MIX_STEP = 0.1
SOUND_WORD_FIT = 0.3


# ── tone and effects ────────────────────────────────────────────────────────
def toned(chain: EffectChain, operation: str) -> EffectChain:
    """The chain with its tone EQ moved one step warmer, colder, brighter or darker."""
    parameter, step = TONE_STEPS[operation]
    effects = list(chain.effects)
    index = next((i for i, e in enumerate(effects) if e.kind == EQ_KIND), None)
    eq = effects[index] if index is not None else Effect(kind=EQ_KIND, name=EQ_NAME)
    old = float(eq.parameters.get(parameter, 0.0))  # type: ignore[arg-type]
    new = old + step if old * step > 0 else step
    new = max(-MAX_TONE_DB, min(MAX_TONE_DB, new))
    centre, hz = TONE_CENTRES[parameter]
    eq = eq.model_copy(update={"parameters": {**eq.parameters, parameter: new, centre: hz}})
    if index is None:
        effects.insert(0, eq)  # tone shaping goes first, before any dynamics
    else:
        effects[index] = eq
    return chain.model_copy(update={"effects": effects})


def tone_of(chain: EffectChain | None) -> dict[str, float]:
    """The tone EQ's band gains in dB ({} when the chain has none)."""
    eq = next((e for e in chain.effects if e.kind == EQ_KIND), None) if chain else None
    if eq is None:
        return {}
    return {k: float(v) for k, v in eq.parameters.items() if k in TONE_CENTRES}  # type: ignore[arg-type]


def with_send(chain: EffectChain, bus_id: str, change: float | None) -> EffectChain:
    """The chain with its send to `bus_id` moved by `change` (None: no send at all)."""
    sends = dict(chain.sends)
    level = 0.0 if change is None else max(0.0, min(1.0, sends.get(bus_id, 0.0) + change))
    if level <= 1e-6:
        sends.pop(bus_id, None)
    else:
        sends[bus_id] = round(level, 3)
    return chain.model_copy(update={"sends": sends})


def with_effect(
    chain: EffectChain, kind: str, operation: str, table: EffectsTable, bpm: float
) -> EffectChain:
    """More, less or none of one insert; "more" of a missing insert adds the file's default."""
    if kind == "reverb" and not any(e.kind == "reverb" for e in chain.effects):
        change = {"effect_more": SEND_STEP, "effect_less": -SEND_STEP}.get(operation)
        return with_send(chain, table.bus.id, change)
    effects = list(chain.effects)
    index = next((i for i, e in enumerate(effects) if e.kind == kind), None)
    if operation == "effect_remove" or (operation == "effect_less" and index is None):
        return chain.model_copy(update={"effects": [e for e in effects if e.kind != kind]})
    if index is None:
        step = default_step(kind, table)
        parameters = {**step.parameters}
        parameters.update({p: round(note_ms(v, bpm), 2) for p, v in step.synced.items()})
        effects.append(Effect(kind=kind, name=table.units[kind].name, parameters=parameters))
        order = {k: i for i, k in enumerate([EQ_KIND, *table.signal_order])}
        effects.sort(key=lambda e: order.get(e.kind, len(order)))
        return chain.model_copy(update={"effects": effects})
    effect = effects[index]
    mix = float(effect.parameters.get("mix", 0.3))  # type: ignore[arg-type]
    mix += MIX_STEP if operation == "effect_more" else -MIX_STEP
    if mix <= 0.05:
        return chain.model_copy(update={"effects": [e for e in effects if e.kind != kind]})
    parameters = {**effect.parameters, "mix": round(min(1.0, mix), 3)}
    effects[index] = effect.model_copy(update={"parameters": parameters})
    return chain.model_copy(update={"effects": effects})


def retimed(chain: EffectChain, old_bpm: float, bpm: float, table: EffectsTable) -> EffectChain:
    """The chain with its tempo-synced times (delay, pre-delay, release) moved to `bpm`."""
    steps = [s for c in table.role_chains.values() for s in c.inserts] + list(table.bus.inserts)
    steps += [s for o in table.style_overrides.values() for a in o.add.values() for s in a]
    effects = []
    for effect in chain.effects:
        synced = {p: v for s in steps if s.kind == effect.kind for p, v in s.synced.items()}
        times: dict[str, JsonValue] = {}
        for parameter, value in synced.items():
            old = effect.parameters.get(parameter)
            if isinstance(old, int | float):
                moved = note_ms(value, bpm) if value == "pre_delay" else old * old_bpm / bpm
                times[parameter] = round(moved, 2)
        effects.append(effect.model_copy(update={"parameters": {**effect.parameters, **times}}))
    return chain.model_copy(update={"effects": effects})


def default_step(kind: str, table: EffectsTable) -> EffectStep:
    """The first setting of `kind` the effects file gives any role or style."""
    steps = [s for chain in table.role_chains.values() for s in chain.inserts]
    steps += [s for o in table.style_overrides.values() for a in o.add.values() for s in a]
    return next(
        (s for s in steps if s.kind == kind), EffectStep(kind=kind, parameters={"mix": 0.3})
    )


def pick_sound(
    role: str,
    words: Iterable[str],
    current: str | None,
    catalog: SoundCatalog,
    brief: SoundBrief,
    rng: random.Random | None = None,
) -> SoundEntry | None:
    """The best other sound for the role, favouring the words asked for ("warm", "punchy")."""
    wanted = set(words)
    ranked = rank_sounds(role, brief, catalog, rng)
    choices = [r for r in ranked if r.entry.id != current]
    if not choices:
        return None
    if wanted:
        choices.sort(key=lambda r: -(r.score + SOUND_WORD_FIT * len(wanted & set(r.entry.tags))))
    return choices[0].entry


# ── scores ──────────────────────────────────────────────────────────────────
def outside_share(progression: EnrichedProgression, key_pcs: frozenset[int]) -> float:
    """Share of chords with a note outside the key."""
    outside = 0
    for chord in progression.chords:
        try:
            pcs = parse_chord(chord.symbol).pitch_classes
        except ChordSyntaxError:
            pcs = frozenset(p % 12 for p in chord.voicing)
        outside += not pcs <= key_pcs
    return outside / len(progression.chords)


def harmonic_score(outside: float) -> float:
    """1 up to half the chords outside the key, falling to 0 when all are."""
    return round(max(0.0, 1.0 - max(0.0, outside - 0.5) * 2), 3)


def rhythmic_score(density: float, norm: float) -> float:
    """1 at the genre's density, 0.5 at double or half of it."""
    if density <= 0 or norm <= 0:
        return 0.0
    return round(0.5 ** abs(math.log2(density / norm)), 3)


def consonance_score(tension: float, low: float, high: float) -> float:
    """1 inside the genre's tension range, falling off twice as fast as it strays."""
    distance = max(low - tension, tension - high, 0.0)
    return round(max(0.0, 1.0 - 2 * distance), 3)


def tension_range(harmonic_complexity: float) -> tuple[float, float]:
    """Where a genre's average chord tension sits: plain pop low, jazz high."""
    centre = 0.2 + 0.3 * harmonic_complexity
    return round(centre - 0.12, 3), round(centre + 0.12, 3)


def composite(harmonic: float, rhythmic: float, consonance: float) -> float:
    return round(0.4 * harmonic + 0.3 * rhythmic + 0.3 * consonance, 3)


def part_score(song: SongState, intent: PipelineIntent | None, track: Track) -> float:
    """A part: notes in the key, busyness against the genre's, notes on the chord that sounds."""
    notes = track.notes
    if not notes:
        return 0.0
    bars = max(1, len({int(n.start_beat // song.beats_per_bar) for n in notes}))
    onsets = len({round(n.start_beat * 12) for n in notes}) / bars
    rhythmic = rhythmic_score(onsets, density_norm(song, intent))
    if track.is_drums or song.progression is None:
        return composite(1.0, rhythmic, 1.0)
    key_pcs = frozenset(song_key_of(song.progression).pitch_classes)
    outside = sum(n.pitch % 12 not in key_pcs for n in notes) / len(notes)
    off_chord = _off_chord_share(song, notes)
    return composite(harmonic_score(outside), rhythmic, consonance_score(off_chord, 0.0, 0.35))


def progression_score(progression: EnrichedProgression, dna: GenreDNAVector | None) -> float:
    """A progression: chords outside the key, its length, its tension against the genre's range."""
    key_pcs = frozenset(song_key_of(progression).pitch_classes)
    low, high = dna.progression_length if dna else (4, 4)
    rhythmic = 1.0 if low <= len(progression.chords) <= high else 0.75
    tension = sum(c.tension for c in progression.chords) / len(progression.chords)
    consonance = consonance_score(tension, *tension_range(dna.harmonic_complexity if dna else 0.3))
    return composite(harmonic_score(outside_share(progression, key_pcs)), rhythmic, consonance)


def _off_chord_share(song: SongState, notes: list[Note]) -> float:
    assert song.progression is not None
    placed = []
    for section in song.arrangement.sections if song.arrangement else []:
        placed += chords_for_section(section, song.progression, song.beats_per_bar)
    if not placed:
        return 0.0
    tones = [(p.start_beat, p.end_beat, _pitch_classes(p.chord)) for p in placed]
    off, i = 0, 0
    for note in sorted(notes, key=lambda n: n.start_beat):
        while i + 1 < len(tones) and tones[i][1] <= note.start_beat:
            i += 1
        off += note.pitch % 12 not in tones[i][2]
    return off / len(notes)


def _pitch_classes(chord: ProgressionChord) -> frozenset[int]:
    try:
        return parse_chord(chord.symbol).pitch_classes
    except ChordSyntaxError:
        return frozenset(p % 12 for p in chord.voicing)


# ── comparing takes ─────────────────────────────────────────────────────────
def content_hash(value: JsonValue) -> str:
    """A short, stable hash of a take's content (identical takes hash alike)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def note_edit_distance(a: Sequence[Note], b: Sequence[Note]) -> int:
    """Notes to add or remove to turn one part into the other, on a 16th grid."""
    counts: dict[tuple[int, int], int] = {}
    for note in a:
        key = (note.pitch, round(note.start_beat * 4))
        counts[key] = counts.get(key, 0) + 1
    for note in b:
        key = (note.pitch, round(note.start_beat * 4))
        counts[key] = counts.get(key, 0) - 1
    return sum(abs(v) for v in counts.values())


def progression_distance(a: EnrichedProgression, b: EnrichedProgression) -> int:
    """Chords that differ by symbol (2 each) or only by voicing (1 each), plus any extra chords."""
    distance = 2 * abs(len(a.chords) - len(b.chords))
    for x, y in zip(a.chords, b.chords, strict=False):
        distance += 2 if x.symbol != y.symbol else int(sorted(x.voicing) != sorted(y.voicing))
    return distance


# ── packing takes for the history ───────────────────────────────────────────
def packed_regions(regions: Sequence[Region]) -> list[JsonValue]:
    """Regions as compact lists: `[id, name, start, length, notes, ccs, bends]`."""
    return [
        [
            r.id,
            r.name,
            r.start_beat,
            r.length_beats,
            [[n.pitch, n.velocity, n.start_beat, n.duration_beats, n.channel] for n in r.notes],
            [[c.beat, c.controller, c.value, c.channel] for c in r.control_changes],
            [[b.beat, b.value, b.channel] for b in r.pitch_bends],
        ]
        for r in regions
    ]


def unpacked_regions(value: JsonValue) -> list[Region]:
    """The regions `packed_regions` wrote."""
    regions = []
    for rid, name, start, length, notes, ccs, bends in value:  # type: ignore[union-attr, misc]
        regions.append(
            Region(
                id=rid,
                name=name,
                start_beat=start,
                length_beats=length,
                notes=[
                    Note(pitch=p, velocity=v, start_beat=s, duration_beats=d, channel=c)
                    for p, v, s, d, c in notes
                ],
                control_changes=[
                    ControlChange(beat=t, controller=k, value=v, channel=c) for t, k, v, c in ccs
                ],
                pitch_bends=[PitchBend(beat=t, value=v, channel=c) for t, v, c in bends],
            )
        )
    return regions


# ── the song before and after ───────────────────────────────────────────────
_SONG_FIELDS = ("tempo", "key", "mode", "genre", "title", "time_signature", "arrangement", "buses")
_TRACK_FIELDS = (
    "name", "channel", "program", "drum_kit", "volume", "pan", "mute", "solo", "frozen",
    "color", "preset", "effect_chain", "regions",
)  # fmt: skip


def song_changes(before: SongState, after: SongState) -> list[Change]:
    """Every atomic difference between two songs, as history paths (history itself excluded)."""
    changes = [
        _change(_alias(SongState, f), getattr(before, f), getattr(after, f))
        for f in _SONG_FIELDS
        if getattr(before, f) != getattr(after, f)
    ]
    changes += _progression_changes(before.progression, after.progression)
    if [t.id for t in before.tracks] != [t.id for t in after.tracks]:
        return [*changes, _change("tracks", before.tracks, after.tracks)]
    for i, (old, new) in enumerate(zip(before.tracks, after.tracks, strict=True)):
        if old is new:
            continue
        for f in _TRACK_FIELDS:
            a, b = getattr(old, f), getattr(new, f)
            if a != b:
                path = f"tracks[{i}].{_alias(Track, f)}"
                if f == "regions":
                    changes.append(
                        Change(
                            path=path, previous_value=packed_regions(a), new_value=packed_regions(b)
                        )
                    )
                else:
                    changes.append(_change(path, a, b))
    return changes


def intent_changes(before: PipelineIntent | None, after: PipelineIntent | None) -> list[Change]:
    """Differences in the generators' inputs, as `intent.<field>` paths."""
    if before is None or after is None:
        return [] if before == after else [_change("intent", before, after)]
    return [
        _change(f"intent.{_alias(PipelineIntent, f)}", getattr(before, f), getattr(after, f))
        for f in PipelineIntent.model_fields
        if getattr(before, f) != getattr(after, f)
    ]


def applied(
    song: SongState, intent: PipelineIntent | None, changes: Sequence[Change], *, undo: bool
) -> tuple[SongState, PipelineIntent | None]:
    """The song and intent with each change's previous (undo) or new value put back."""
    for change in reversed(changes) if undo else changes:
        value = change.previous_value if undo else change.new_value
        tokens = _tokens(change.path)
        if tokens[0] == "intent":
            intent = (
                _set(intent, tokens[1:], value, packed=False)
                if len(tokens) > 1
                else (None if value is None else PipelineIntent.model_validate(value))
            )
        else:
            song = _set(song, tokens, value, packed=tokens[-1] == "regions")
    return song, intent


def _progression_changes(
    a: EnrichedProgression | None, b: EnrichedProgression | None
) -> list[Change]:
    if a == b:
        return []
    if a is None or b is None or len(a.chords) != len(b.chords):
        return [_change("progression", a, b)]
    changes = [
        _change(f"progression.{_alias(EnrichedProgression, f)}", getattr(a, f), getattr(b, f))
        for f in ("name", "key", "mode", "source", "variant")
        if getattr(a, f) != getattr(b, f)
    ]
    for i, (x, y) in enumerate(zip(a.chords, b.chords, strict=True)):
        for f in ProgressionChord.model_fields:
            if getattr(x, f) != getattr(y, f):
                path = f"progression.chords[{i}].{_alias(ProgressionChord, f)}"
                changes.append(_change(path, getattr(x, f), getattr(y, f)))
    return changes


def _change(path: str, before: object, after: object) -> Change:
    return Change(path=path, previous_value=_json(before), new_value=_json(after))


def _json(value: object) -> JsonValue:
    return TypeAdapter(type(value)).dump_python(value, mode="json", by_alias=True)  # type: ignore[no-any-return]


def _alias(model: type[BaseModel], name: str) -> str:
    return model.model_fields[name].alias or name


def _tokens(path: str) -> list[str | int]:
    return [int(i) if i else k for k, i in re.findall(r"([A-Za-z_]+)|\[(\d+)\]", path)]


def _set(node: Any, tokens: list[str | int], value: JsonValue, *, packed: bool) -> Any:
    head, rest = tokens[0], tokens[1:]
    if isinstance(head, int):
        items = list(node)
        items[head] = _set(items[head], rest, value, packed=packed) if rest else value
        return items
    name = next(n for n, f in type(node).model_fields.items() if (f.alias or n) == head)
    if rest:
        return node.model_copy(update={name: _set(getattr(node, name), rest, value, packed=packed)})
    if packed:
        return node.model_copy(update={name: unpacked_regions(value)})
    return node.model_copy(update={name: _adapter(type(node), name).validate_python(value)})


@cache
def _adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    return TypeAdapter(model.model_fields[name].annotation)
