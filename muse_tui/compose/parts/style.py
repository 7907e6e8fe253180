"""What the genre hands the part writers: drum family, bass style, comping, swing, dials."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from muse_tui.contracts import CreativityDials, Meter, PipelineIntent, Section, TrackRole
from muse_tui.knowledge.rhythm import Density, FamilyRhythm, Groove, RhythmTable
from muse_tui.knowledge.tracks import TRACKS_FILE, TrackLook

from ..dials import creativity_of
from ..humanize import Feel

#: The neutral backbeat used when neither genre DNA nor a genre word names a family.
DEFAULT_FAMILY = "rock"


@dataclass(frozen=True)
class Style:
    """The genre's choices for this song's parts."""

    family: str
    bass_style: str
    chord_rhythm: str
    voicing_style: str
    swing: float
    dials: CreativityDials

    @property
    def harmonic(self) -> float:
        return self.dials.harmonic

    @property
    def rhythmic(self) -> float:
        return self.dials.rhythmic


def resolve_style(intent: PipelineIntent, table: RhythmTable) -> Style:
    """The style from the genre DNA, or from genre words and the family's usual partners."""
    dna = intent.genre_dna
    dials = creativity_of(intent)
    if dna is not None:
        return Style(
            dna.drum_family, dna.bass_style, dna.chord_rhythm, dna.voicing_style, dna.swing, dials
        )
    name = _family_for_words([*intent.genre, *intent.sub_genre], table)
    family = table.drums.families[name]  # type: ignore[index]
    return Style(name, family.bass_style, family.chord_rhythm, "close", family.swing, dials)


def _family_for_words(words: list[str], table: RhythmTable) -> str:
    for word in words:
        key = word.strip().lower().replace("_", " ")
        for name, family in table.drums.families.items():
            if key == name.replace("_", " ") or key in family.aliases:
                return name
    return DEFAULT_FAMILY


def family_of(style: Style, table: RhythmTable) -> FamilyRhythm:
    """The drum family whose groove and swing the whole song shares (a neutral one for `none`)."""
    found = table.drums.families.get(style.family)  # type: ignore[call-overload]
    return found or table.drums.families[DEFAULT_FAMILY]  # type: ignore[index]


def feel_for(style: Style, table: RhythmTable, tempo: float, meter: Meter | None = None) -> Feel:
    """The song's shared feel: the family's groove template at the genre's swing, fitted to
    the meter's bar (see `groove_in_meter`)."""
    family = family_of(style, table)
    groove = table.grooves[family.groove]
    swing = style.swing
    if meter is not None and not meter.is_common:
        groove = groove_in_meter(groove, meter)
        if meter.is_compound or (meter.denominator >= 8 and family.swing_unit == "8th"):
            # 6/8, 9/8 and 12/8 are triplets already, and 7/8 is counted in its 8ths:
            # swinging those 8ths drags every group's second pulse late (a limp).
            swing = 50.0
    return Feel(
        groove_name=family.groove,
        groove=groove,
        swing=swing,
        swing_unit=family.swing_unit,
        tempo=tempo,
        timing_ms=groove.timing_ms,
        velocity_range=groove.velocity_range,
    )


def groove_in_meter(groove: Groove, meter: Meter) -> Groove:
    """A 4/4 groove template laid over another meter's bar, one value per 16th step.

    Every felt beat (the bar's downbeat, a 6/8 bar's 4, each group of a 7/8 bar) takes
    beat 1's accent, the other pulses the template's lightest beat, so the grouping is
    what is heard; off the pulse, every beat keeps the template's own push and lilt.
    A 4/4 template that lifts 2 and 4 (jazz) would otherwise lift the wrong beats.
    """
    bar = round(meter.beats_per_bar * 4)
    groups = {round(start * 4) for start in meter.group_starts}
    pulse = max(1, round(meter.pulse * 4))
    light = min(groove.accents[4], groove.accents[8], groove.accents[12])
    timing, accents = [], []
    for step in range(bar):
        inside = step % 4
        timing.append(groove.timing[inside])
        if step in groups:
            accents.append(groove.accents[0])
        elif step % pulse == 0:
            accents.append(light)
        else:
            accents.append(groove.accents[4 + inside])
    return groove.model_copy(update={"timing": timing, "accents": accents})


def density_for(section: Section) -> Density:
    """How busy a section's parts are, from its energy."""
    if section.energy < 0.4:
        return "sparse"
    if section.energy < 0.72:
        return "base"
    return "busy"


def loudness(energy: float) -> float:
    """Velocity multiplier for a section's energy: about 0.7 at 0.2, 1.0 at 0.85."""
    return 0.62 + 0.45 * energy


def track_look(role: TrackRole, style: Style, table: RhythmTable) -> TrackLook:
    """A role's name, GM program, colour and register for this style (later overrides win)."""
    look = table.tracks.roles[role]
    for _, rule in _overrides(role, style, table):
        changes = {
            k: v
            for k, v in (
                ("instrument", rule.instrument),
                ("name", rule.name),
                ("program", rule.program),
                ("pitch_range", rule.pitch_range),
            )
            if v is not None
        }
        look = look.model_copy(update=changes)
    return look


def _overrides(role: TrackRole, style: Style, table: RhythmTable) -> Iterator[tuple[int, Any]]:
    """The `overrides` of tracks.json that apply to the role in this style, with their index."""
    for index, rule in enumerate(table.tracks.overrides):
        if rule.role != role:
            continue
        if rule.drum_family is not None and rule.drum_family != style.family:
            continue
        if rule.bass_style is not None and rule.bass_style != style.bass_style:
            continue
        if rule.chord_rhythm is not None and rule.chord_rhythm != style.chord_rhythm:
            continue
        yield index, rule


def register_rule(role: TrackRole, style: Style, table: RhythmTable) -> str:
    """Where the role's register in this style comes from: tracks.json's field that set it."""
    where = f"skills/{TRACKS_FILE}"
    ranged = [(i, r) for i, r in _overrides(role, style, table) if r.pitch_range is not None]
    if not ranged:
        return f"{where}: roles.{role}.pitchRange"
    index, rule = ranged[-1]
    said = ", ".join(
        f"{name} {value}"
        for name, value in (
            ("drumFamily", rule.drum_family),
            ("bassStyle", rule.bass_style),
            ("chordRhythm", rule.chord_rhythm),
        )
        if value is not None
    )
    return f"{where}: overrides[{index}] ({role} with {said}).pitchRange"
