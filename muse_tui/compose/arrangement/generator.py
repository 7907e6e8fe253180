"""S3: turn a genre's song form into the arrangement of this song."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from muse_tui.compose.arrangement.activation import plan_activation
from muse_tui.compose.arrangement.asked import asked_plans, key_change_from, read_asked_form
from muse_tui.compose.arrangement.choruses import has_choruses, sized_to_form
from muse_tui.compose.arrangement.energy import energy_arc
from muse_tui.compose.arrangement.form import (
    PEAK_KINDS,
    apply_hints,
    fit_song,
    parse_structure_hints,
    target_bars,
)
from muse_tui.compose.arrangement.plan import SectionPlan
from muse_tui.contracts.intent import DurationRange, PipelineIntent
from muse_tui.contracts.meter import COMMON_TIME
from muse_tui.contracts.song import (
    Arrangement,
    EnrichedProgression,
    Section,
    TrackRole,
    Transition,
)
from muse_tui.knowledge.arrangement import (
    ArrangementTable,
    SectionTemplate,
    TransitionStyle,
    arrangement_table,
)
from muse_tui.knowledge.loader import normalise_word

#: How far moods may push the whole song's energy down or up.
MOOD_BIAS_RANGE = (-0.15, 0.1)
_QUIETEST, _LOUDEST = 0.05, 1.0


def loop_form(
    loop: Sequence[SectionTemplate], genre_form: Sequence[SectionTemplate]
) -> list[SectionTemplate]:
    """The loop form, coming in and going out as the genre's own form does.

    A house or techno loop starts and ends on the drums a DJ mixes over; a lo-fi
    loop on its keys: the loop form's intro and outro take the players of the
    genre's first intro and last outro, where it has them.
    """
    intro = next((s for s in genre_form if s.kind == "intro"), None)
    outro = next((s for s in reversed(genre_form) if s.kind == "outro"), None)
    own = {"intro": intro, "outro": outro}
    return [
        s.model_copy(update={"play": list(own[s.kind].play)}) if own.get(s.kind) else s
        for s in loop
    ]


def arrange(
    template_name: str,
    roles: Sequence[TrackRole],
    *,
    rng: random.Random,
    bars: int | None = None,
    duration: DurationRange | None = None,
    structure_hints: Iterable[str] = (),
    energy_bias: float = 0.0,
    progression: EnrichedProgression | None = None,
    beats_per_bar: float = 4.0,
    table: ArrangementTable | None = None,
) -> Arrangement:
    """Lay out the song: sections, bars, energy per bar, who plays, how sections hand over.

    `template_name` may be a template or a genre word it lists as an alias; anything
    else gets the generic ABAB form with `is_fallback` set. `bars` is met exactly;
    otherwise a `duration` range is met with a phrase-friendly length; otherwise the
    form keeps its natural length. A `progression` of eight bars keeps stretched
    sections in whole eight-bar passes where the length allows; a form's choruses
    (`wholeForm`) play the whole progression once, a head or a blues chorus.
    """
    table = table or arrangement_table()
    name, template = table.template(template_name)
    players = list(dict.fromkeys(roles))
    if not players:
        raise ValueError("an arrangement needs at least one track role")

    hints = parse_structure_hints(structure_hints)
    form = loop_form(table.loop_form, template.sections) if hints.loop_based else template.sections
    phrase_bars = _phrase_bars(progression, beats_per_bar)
    plans = sized_to_form([SectionPlan.from_template(s, rng) for s in form], phrase_bars)
    plans = apply_hints(plans, hints, table)
    asked = read_asked_form(structure_hints, table.asked_form).for_choruses(has_choruses(plans))
    plans = asked_plans(plans, asked, table.asked_form)
    # A form written out section by section is as long as its sections (a length in bars
    # still stretches it); a duration would only stretch a 4-bar intro to 16.
    target = target_bars(plans, bars, None if asked.sequence else duration)
    plans = fit_song(plans, target, hints, phrase_bars, grow=not asked.reshapes)
    modulation = key_change_from(plans, asked)

    energies = [_energy(plan, table, energy_bias) for plan in plans]
    active = plan_activation(
        [p.kind for p in plans],
        [p.play for p in plans],
        energies,
        players,
        table.role_groups,
    )
    transitions = _transitions(plans, template.transitions, rng)

    sections: list[Section] = []
    start = 0
    for index, (plan, energy, roles_on, transition) in enumerate(
        zip(plans, energies, active, transitions, strict=True)
    ):
        sections.append(
            Section(
                name=plan.name,
                kind=plan.kind,
                start_bar=start,
                bars=plan.bars,
                energy=energy,
                active_roles=roles_on,
                transition=transition,
                chord_plan=plan.chord_plan or table.chord_plans[plan.kind],
                harmony_of=plan.harmony_of,
                key_shift=asked.key_shift if modulation is not None and index >= modulation else 0,
            )
        )
        start += plan.bars
    return Arrangement(
        template=name,
        sections=sections,
        energy_arc=energy_arc(sections),
        is_fallback=template.fallback,
    )


def arrange_for_intent(
    intent: PipelineIntent,
    roles: Sequence[TrackRole],
    rng: random.Random,
    *,
    bars: int | None = None,
    progression: EnrichedProgression | None = None,
    beats_per_bar: float = 4.0,
    table: ArrangementTable | None = None,
) -> Arrangement:
    """The arrangement S1's intent asks for: its genre's form, length, structure hints and moods.

    Without genre DNA the first genre word picks the form. The generic fallback form
    takes its energy from the genre DNA, which the genre-specific forms already encode.
    """
    table = table or arrangement_table()
    dna = intent.genre_dna
    wanted = dna.arrangement_template if dna else intent.genre[0]
    template_name, template = table.template(wanted)
    bias = mood_energy_bias(intent.mood, table)
    if template.fallback and dna is not None:
        bias = _clamped(bias + (dna.energy - 0.6) * 0.25, *MOOD_BIAS_RANGE)
    players = list(roles) or list(intent.roles) or (list(dna.roles) if dna else [])
    arrangement = arrange(
        template_name,
        players,
        rng=rng,
        bars=bars,
        duration=intent.duration,
        structure_hints=intent.structure_hints,
        energy_bias=bias,
        progression=progression,
        beats_per_bar=beats_per_bar,
        table=table,
    )
    return with_section_meters(arrangement, intent)


def with_section_meters(arrangement: Arrangement, intent: PipelineIntent) -> Arrangement:
    """Sections the prompt gave a meter of their own ("a 6/8 bridge") take it."""
    song_meter = intent.meter or COMMON_TIME
    if not intent.section_meters:
        return arrangement
    sections = [
        s.model_copy(update={"meter": meter})
        if (meter := intent.section_meters.get(s.kind)) is not None and meter != song_meter
        else s
        for s in arrangement.sections
    ]
    return arrangement.model_copy(update={"sections": sections})


def mood_energy_bias(moods: Iterable[str], table: ArrangementTable | None = None) -> float:
    """How much the moods lift or lower the whole song ("chill" −0.1, "hype" +0.1), bounded."""
    nudges = (table or arrangement_table()).mood_energy
    total = sum(nudges.get(normalise_word(mood), 0.0) for mood in moods)
    return round(_clamped(total, *MOOD_BIAS_RANGE), 3)


def describe_arrangement(arrangement: Arrangement) -> str:
    """One line for the producer: form, length and the sections in order."""
    form = arrangement.template + (" (generic fallback)" if arrangement.is_fallback else "")
    sections = " → ".join(f"{s.name} {s.bars}" for s in arrangement.sections)
    return f"{form}, {arrangement.total_bars} bars: {sections}"


def _energy(plan: SectionPlan, table: ArrangementTable, bias: float) -> float:
    nominal = plan.energy if plan.energy is not None else table.section_energy[plan.kind]
    return round(_clamped(nominal + bias, _QUIETEST, _LOUDEST), 3)


def _transitions(
    plans: Sequence[SectionPlan], style: TransitionStyle, rng: random.Random
) -> list[Transition]:
    """How each section hands over to the next; one choice per kind of move, per song."""
    into_peak = rng.choice(style.into_peak)
    out_of_peak = rng.choice(style.out_of_peak)
    between = rng.choice(style.between)
    chosen: list[Transition] = []
    for index, plan in enumerate(plans):
        following = plans[index + 1] if index + 1 < len(plans) else None
        if plan.transition is not None:
            chosen.append(plan.transition)
        elif following is None:
            chosen.append(style.ending)
        elif following.kind in PEAK_KINDS:
            chosen.append(into_peak)
        elif plan.kind in PEAK_KINDS:
            chosen.append(out_of_peak)
        else:
            chosen.append(between)
    return chosen


def _phrase_bars(progression: EnrichedProgression | None, beats_per_bar: float) -> int | None:
    if progression is None:
        return None
    bars = progression.total_beats / beats_per_bar
    return round(bars) if abs(bars - round(bars)) < 1e-9 else None


def _clamped(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)
