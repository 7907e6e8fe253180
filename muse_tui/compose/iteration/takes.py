"""What the producer asked of a part that must outlive its regeneration: standing edits and takes.

Both live in the intent (`standing_edits`, `takes`). When a part is written
again (a chord changed under it), its take picks the generator's settings and
its standing edits are applied on top, so "simpler" stays simpler.
"""

from __future__ import annotations

from muse_tui.compose.dials import lifted
from muse_tui.compose.intent import blend_genres
from muse_tui.contracts import PipelineIntent, StandingEdit, Take

#: The order standing edits are applied in: the feel first, then what fills it, resting last.
STANDING_KINDS = (
    "feel", "density", "ghost_notes", "swing", "accent", "hat_rolls", "fills", "build",
    "slides", "tacet", "octave", "level", "rest",
)  # fmt: skip
#: Kinds whose steps add up ("busier" twice is two steps); the others are on or off.
ADDITIVE = ("density", "swing", "accent", "fills", "octave")
#: Kinds whose values multiply (a velocity factor twice is its square).
MULTIPLIED = ("level",)
ALL_PARTS = "all"
#: The genre-DNA choice a role's structural variant swaps (pads and leads vary by density).
STYLE_FIELD = {
    "drums": "drum_family", "percussion": "drum_family", "bass": "bass_style",
    "sub_bass": "bass_style", "chords": "chord_rhythm", "keys": "chord_rhythm",
    "arp": "chord_rhythm",
}  # fmt: skip


def standing_edits(intent: PipelineIntent, role: str | None = None) -> list[StandingEdit]:
    """The intent's standing edits (those for one role, if given), in `STANDING_KINDS` order."""
    found = [e for e in intent.standing_edits if role is None or e.role in (role, ALL_PARTS)]
    return sorted(found, key=lambda e: STANDING_KINDS.index(e.kind))


def with_standing_edit(intent: PipelineIntent, edit: StandingEdit) -> PipelineIntent:
    """The intent with `edit` folded in: the same direction adds up, the opposite replaces."""
    kept, value = [], edit.value
    for old in intent.standing_edits:
        if _where(old) == _where(edit):
            same_way = old.value * edit.value > 0 and edit.kind in ADDITIVE
            value = old.value + edit.value if same_way else edit.value
            if edit.kind in MULTIPLIED:
                value = old.value * edit.value
            continue
        kept.append(old)
    if edit.kind in MULTIPLIED and abs(value - 1) < 1e-9:
        value = 0.0  # back to where it was: no edit left
    if abs(value) > 1e-9:
        kept.append(edit.model_copy(update={"value": value}))
    return intent.model_copy(update={"standing_edits": kept})


def _where(edit: StandingEdit) -> tuple[object, ...]:
    return (edit.role, edit.kind, edit.section, edit.bars, edit.voice)


def take_of(intent: PipelineIntent, role: str) -> Take:
    """The take a role plays (the default one when none was picked)."""
    return next((t for t in intent.takes if t.role == role), Take(role=role))


def with_take(intent: PipelineIntent, take: Take) -> PipelineIntent:
    """The intent with the role's take replaced (the default take leaves no trace)."""
    kept = [t for t in intent.takes if t.role != take.role]
    return intent.model_copy(update={"takes": kept if take.is_default else [*kept, take]})


def intent_for_take(intent: PipelineIntent, take: Take) -> PipelineIntent:
    """The intent a part is written from: dials lifted, its style swapped, an influence blended."""
    if take.is_default:
        return intent
    dna = intent.genre_dna
    dials = lifted(intent, take.dials)
    if dna is not None and take.genre:
        blend = blend_genres([dna.genre.split("+")[0], take.genre], [0.5, 0.5])
        dna = blend.model_copy(update={"genre": dna.genre, "display_name": dna.display_name})
    if dna is not None and take.style and take.role in STYLE_FIELD:
        dna = dna.model_copy(update={STYLE_FIELD[take.role]: take.style})
    return intent.model_copy(update={"creativity_dials": dials, "genre_dna": dna})
