"""Effect chains step by step: tone EQ, sends, inserts, tempo-synced times.

Tone is one EQ insert with two independent bands, so "warm" (low mids) and
"bright" (air) combine; a new instruction on the same band replaces an older one
in the other direction and adds to one in the same direction.
"""

from __future__ import annotations

from pydantic import JsonValue

from muse_tui.compose.effects import note_ms
from muse_tui.contracts import Effect, EffectChain
from muse_tui.knowledge.sound import EffectsTable, EffectStep

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


def keep_tone(old: EffectChain | None, new: EffectChain | None) -> EffectChain | None:
    """The new chain with the old one's tone EQ kept (the producer asked for that tone)."""
    eq = next((e for e in old.effects if e.kind == EQ_KIND), None) if old else None
    if new is None or eq is None:
        return new
    return new.model_copy(update={"effects": [eq, *(e for e in new.effects if e.kind != EQ_KIND)]})
