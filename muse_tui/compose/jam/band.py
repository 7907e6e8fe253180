"""How the band moves from one pass of the loop to the next.

`start_jam` sets the band up from a prompt; `plan_round` decides, from the
directions given and each member's own restlessness, who plays what next and
what they say about it; `finish_round` takes the parts they played. Playing
itself (`playing.play_member`) is separate so the engine (`engine.jam.Jam`) can
give each member a deadline and keep a member's last part when they miss it.

Members are independent: a member's next part depends only on the shared
context, their own state and the directions given to them, never on another
member's directions (a bass locked to the kick reads the kick when it plays).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from muse_tui.contracts import PipelineIntent, Region
from muse_tui.contracts.jam import Directive, JamContext, JamRound, JamSession, MemberState
from muse_tui.knowledge.jam import BandTable, Persona, band_table, directive_table
from muse_tui.knowledge.rhythm import rhythm_table
from muse_tui.theory.key import KeySyntaxError, parse_key

from ..intent import decompose
from ..parts.style import resolve_style
from ..seeding import derive_rng
from .context import band_intent, band_tracks, moved_to, start_context
from .directives import BAND
from .playing import Want

#: Tempo changes a producer can ask for ("faster", "slower") and the limits a jam keeps.
TEMPO_STEP = 6.0
TEMPO_RANGE = (50.0, 200.0)
#: Restlessness gained per round is the persona's rate times a seeded factor in this range.
_JITTER = (0.75, 1.25)


@dataclass
class MemberPlan:
    """What a member does next round: their new state, and whether (and how) they replay."""

    state: MemberState
    plays: bool
    want: Want = None


@dataclass
class RoundPlan:
    """The next round before anyone plays: context, members' plans, what was said."""

    number: int
    context: JamContext
    members: list[MemberPlan]
    directives: list[Directive]
    notes: list[str] = field(default_factory=list)

    def playing(self) -> list[MemberPlan]:
        """Members who play anew, drummers first (a bass on the kick reads this round's kick)."""
        return sorted(
            (m for m in self.members if m.plays), key=lambda m: not m.state.track.is_drums
        )


def start_jam(
    prompt: str, seed: int = 0, band: BandTable | None = None, loop_bars: int | None = None
) -> tuple[PipelineIntent, RoundPlan]:
    """The intent every round is played from, and the first round's plan: everyone plays."""
    band = band or band_table()
    intent = band_intent(decompose(prompt).intent, band)
    context = start_context(intent, band, seed, loop_bars)
    tracks = band_tracks(intent, band, seed)
    locked = _kick_locked(intent)
    members = [
        MemberPlan(
            MemberState(
                id=p.id,
                name=p.name,
                track=tracks[p.id],
                energy=p.energy,
                locked_to_kick=locked and "bass" in p.id,
                thought=_line(p, "keep", seed, 1),
            ),
            plays=True,
        )
        for p in band.members
    ]
    opening = f"{context.key} {context.mode}, {context.tempo:g} BPM, {context.bars}-bar loop"
    return intent, RoundPlan(1, context, members, [], [opening])


def plan_round(
    session: JamSession,
    directives: list[Directive],
    band: BandTable | None = None,
    unread: Sequence[str] = (),
) -> RoundPlan:
    """The next round: shared changes first, then each member's answer or own evolution.

    Every direction the band does not take (`unread` clauses, an octave asked of
    the kit, the key it is already in) is one sentence in the round's notes.
    """
    band = band or band_table()
    current = session.round
    number = current.number + 1
    context, context_changed, notes = _shared(session, directives)
    personas = {p.id: p for p in band.members}
    plans = []
    for member in current.members:
        persona = personas[member.id]
        mine = [d for d in directives if not d.shared and _for(d, member.id)]
        plans.append(
            _member_plan(
                member, persona, mine, context_changed, band, session.seed, number, context
            )
        )
    notes += _not_for_the_kit(current.members, directives)
    said = directive_table().not_taken
    notes += [said.unread.format(text=text) for text in unread]
    return RoundPlan(number, context, plans, directives, notes)


def _not_for_the_kit(members: Sequence[MemberState], directives: list[Directive]) -> list[str]:
    """A sentence for each pitched-only direction that reached only the kit."""
    table = directive_table()
    notes = []
    for directive in directives:
        action = table.action(directive.action)
        if action is None or not action.pitched_only or directive.shared:
            continue
        reached = [m for m in members if _for(directive, m.id)]
        if reached and all(m.track.is_drums for m in reached):
            names = " and ".join(m.name for m in reached)
            notes.append(table.not_taken.pitched_only.format(name=names, text=directive.text))
    return notes


def finish_round(plan: RoundPlan, parts: dict[str, Region | None]) -> JamRound:
    """The round as played: a member with no new part (failed, late) keeps their last one."""
    members = []
    for member_plan in plan.members:
        state = member_plan.state
        if member_plan.plays:
            part = parts.get(state.id)
            if part is None:
                state = state.model_copy(update={"change": "failed"})
            else:
                state = state.model_copy(update={"part": part})
        members.append(state)
    return JamRound(
        number=plan.number,
        context=plan.context,
        members=members,
        directives=plan.directives,
        notes=plan.notes,
    )


Player = Callable[[PipelineIntent, JamContext, MemberState, int, int, Region | None, Want], Region]


def failed_thought(plan: RoundPlan, member_id: str, band: BandTable | None = None) -> str:
    """What a member says when their part did not arrive in time."""
    band = band or band_table()
    persona = next(p for p in band.members if p.id == member_id)
    return _line(persona, "failed", 0, plan.number)


# --- shared context -----------------------------------------------------------------------


def _shared(
    session: JamSession, directives: list[Directive]
) -> tuple[JamContext, set[str], list[str]]:
    """The context after the shared directions, what changed in it, and notes for the producer."""
    context = session.round.context
    changed: set[str] = set()
    notes: list[str] = []
    said = directive_table().not_taken
    for directive in (d for d in directives if d.shared):
        if directive.action == "key" and directive.value:
            try:
                key = parse_key(_with_mode(directive.value, context.mode))
            except KeySyntaxError:
                notes.append(
                    f"I could not read the key in {directive.text!r}; try 'key of D minor'"
                )
                continue
            if (key.tonic, key.mode) != (context.key, context.mode):
                context = moved_to(context, session.intent, key, session.seed)
                changed.add("key")
                notes.append(f"Everyone to {key.tonic} {key.mode}.")
            else:
                value = f"{context.key} {context.mode}"
                notes.append(said.same_key.format(text=directive.text, value=value))
        elif directive.action in ("tempo", "faster", "slower"):
            tempo = _tempo(directive, context.tempo)
            if tempo != context.tempo:
                context = context.model_copy(update={"tempo": tempo})
                changed.add("tempo")
                notes.append(f"Tempo {tempo:g} BPM.")
            else:
                low, high = (f"{t:g}" for t in TEMPO_RANGE)
                value = f"{tempo:g}"
                notes.append(
                    said.same_tempo.format(text=directive.text, value=value, low=low, high=high)
                )
        elif directive.action in ("half_time", "full_time"):
            half = directive.action == "half_time"
            if half != context.half_time:
                context = context.model_copy(update={"half_time": half})
                changed.add("feel")
                notes.append("Half-time feel." if half else "Back to full time.")
            else:
                notes.append(said.same_feel.format(text=directive.text))
    return context, changed, notes


def _with_mode(value: str, mode: str) -> str:
    """ "D" keeps the jam's mode; "D minor" and "D major" say their own."""
    return value if " " in value else f"{value} {mode}"


def _tempo(directive: Directive, tempo: float) -> float:
    low, high = TEMPO_RANGE
    if directive.action == "tempo" and directive.value:
        wanted = float(directive.value)
    elif directive.action == "faster":
        wanted = tempo + TEMPO_STEP
    else:
        wanted = tempo - TEMPO_STEP
    return min(high, max(low, wanted))


def _for(directive: Directive, member_id: str) -> bool:
    return BAND in directive.targets or member_id in directive.targets


# --- one member ---------------------------------------------------------------------------


def _member_plan(
    member: MemberState,
    persona: Persona,
    directives: list[Directive],
    context_changed: set[str],
    band: BandTable,
    seed: int,
    number: int,
    context: JamContext,
) -> MemberPlan:
    state = member.model_copy(update={"change": "held"})
    replay = False
    want: Want = None
    lines: list[str] = []
    step = band.energy_step * (1 - persona.stubbornness / 2)
    low, high = persona.energy_range
    pitched = not member.track.is_drums
    for directive in directives:
        action = directive.action
        if action in ("busier", "simpler"):
            delta = step if action == "busier" else -step
            energy = min(high, max(low, state.energy + delta))
            state = state.model_copy(update={"energy": energy, "holding": False})
            want = "more" if action == "busier" else "fewer"
            lines.append(_line(persona, action, seed, number))
        elif action == "lock_to_kick" and pitched:
            state = state.model_copy(update={"locked_to_kick": True})
            lines.append(_line(persona, "lockToKick", seed, number))
        elif action == "loosen" and pitched:
            state = state.model_copy(update={"locked_to_kick": False})
            lines.append(_line(persona, "loosen", seed, number))
        elif action in ("higher", "lower") and pitched:
            octave = max(-1, min(1, state.octave + (1 if action == "higher" else -1)))
            state = state.model_copy(update={"octave": octave})
            lines.append(_line(persona, action, seed, number))
        elif action == "lay_out":
            state = state.model_copy(update={"laid_out": True})
            lines.append(_line(persona, "layOut", seed, number))
        elif action == "come_back":
            state = state.model_copy(update={"laid_out": False})
            lines.append(_line(persona, "comeBack", seed, number))
        elif action == "hold":
            state = state.model_copy(update={"holding": True})
            lines.append(_line(persona, "hold", seed, number))
            continue
        elif action == "evolve":
            state = state.model_copy(update={"variant": state.variant + 1, "holding": False})
            lines.append(_line(persona, "evolve", seed, number))
        else:
            continue
        replay = True
    if replay:
        if _pushes_back(persona, seed, number) and want is not None:
            lines.insert(0, _line(persona, "pushback", seed, number))
        state = state.model_copy(update={"change": "asked", "restlessness": 0.0})
    elif not state.holding and not state.laid_out:
        state, replay = _restless(state, persona, band, seed, number, lines)
    if _replays_for_context(state, context_changed):
        if not replay:
            state = state.model_copy(update={"change": "context"})
            if "key" in context_changed:
                lines.append(
                    _line(persona, "key", seed, number, key=f"{context.key} {context.mode}")
                )
            elif "feel" in context_changed:
                lines.append(
                    _line(persona, "halfTime" if context.half_time else "fullTime", seed, number)
                )
        replay = True
    thought = " ".join(line for line in lines if line)
    return MemberPlan(state.model_copy(update={"thought": thought}), plays=replay, want=want)


def _restless(
    state: MemberState,
    persona: Persona,
    band: BandTable,
    seed: int,
    number: int,
    lines: list[str],
) -> tuple[MemberState, bool]:
    """A member unasked: the loop wears on them; past the threshold they vary their part."""
    jitter = derive_rng(seed, "jam", "restless", state.id, number).uniform(*_JITTER)
    restlessness = state.restlessness + persona.restlessness * jitter
    if restlessness < band.creativity_threshold:
        return state.model_copy(update={"restlessness": restlessness}), False
    direction = derive_rng(seed, "jam", "drift", state.id, number).choice((-1, 1))
    low, high = persona.energy_range
    energy = min(high, max(low, state.energy + direction * band.energy_step / 2))
    lines.append(_line(persona, "evolve", seed, number))
    evolved = state.model_copy(
        update={
            "variant": state.variant + 1,
            "energy": energy,
            "restlessness": 0.0,
            "change": "evolved",
        }
    )
    return evolved, True


def _replays_for_context(state: MemberState, changed: set[str]) -> bool:
    """Who must replay when the band's context moves: pitched parts for a key, drums for a feel."""
    if state.laid_out:
        return False
    if "key" in changed and not state.track.is_drums:
        return True
    return "feel" in changed and state.track.is_drums


def _pushes_back(persona: Persona, seed: int, number: int) -> bool:
    return (
        derive_rng(seed, "jam", "pushback", persona.id, number).random() < persona.stubbornness / 2
    )


def _line(persona: Persona, kind: str, seed: int, number: int, **fill: str) -> str:
    lines = persona.lines.get(kind, [])
    if not lines:
        return ""
    line = derive_rng(seed, "jam", "line", persona.id, kind, number).choice(lines)
    return line.format(name=persona.name, **fill)


def _kick_locked(intent: PipelineIntent) -> bool:
    """Whether the genre's bass plays on the kick (trap's 808, house's pumping bass)."""
    table = rhythm_table()
    style = resolve_style(intent, table)
    rhythm = table.bass.get(style.bass_style)  # type: ignore[union-attr]
    return bool(rhythm is not None and rhythm.kick_locked)
