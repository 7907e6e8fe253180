"""What the producer asked of a part that must outlive its regeneration: standing edits and takes.

Both live in the intent's constraints as short phrases the generators ignore:
"edit bass density -1", "edit drums ghost_notes +1 in chorus", "take bass
variant=3 dials=+0.15 style=walking". When a part is written again (a chord
changed under it), its take picks the generator's settings and its standing
edits are applied on top, so "simpler" stays simpler.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from muse_tui.compose.intent import blend_genres
from muse_tui.contracts import CreativityDials, PipelineIntent

# ── standing edits ──────────────────────────────────────────────────────────
_STANDING = re.compile(
    r"^edit (?P<role>[a-z_]+) (?P<kind>[a-z_]+) (?P<value>\S+)(?: in (?P<section>[a-z_]+))?$"
)
STANDING_KINDS = ("density", "ghost_notes", "swing")
ALL_PARTS = "all"


@dataclass(frozen=True)
class StandingEdit:
    """A part edit that outlives regeneration: density steps, ghost notes ±1, swing delta (%).

    `role` is a track role or "all"; `section` a section kind, or None for the whole song.
    """

    role: str
    kind: str
    value: float
    section: str | None = None

    @property
    def phrase(self) -> str:
        where = f" in {self.section}" if self.section else ""
        return f"edit {self.role} {self.kind} {self.value:+g}{where}"


def standing_edits(constraints: Sequence[str], role: str | None = None) -> list[StandingEdit]:
    """The standing edits among the constraints (those for one role, if given), density first."""
    found = []
    for text in constraints:
        m = _STANDING.match(text)
        if m and m["kind"] in STANDING_KINDS and (role is None or m["role"] in (role, ALL_PARTS)):
            found.append(StandingEdit(m["role"], m["kind"], float(m["value"]), m["section"]))
    return sorted(found, key=lambda e: STANDING_KINDS.index(e.kind))


def with_standing_edit(constraints: Sequence[str], edit: StandingEdit) -> list[str]:
    """The constraints with `edit` folded in: the same direction adds up, the opposite replaces."""
    kept, value = [], edit.value
    for text in constraints:
        m = _STANDING.match(text)
        if m and (m["role"], m["kind"], m["section"]) == (edit.role, edit.kind, edit.section):
            old = float(m["value"])
            same_way = old * edit.value > 0 and edit.kind != "ghost_notes"
            value = old + edit.value if same_way else edit.value
            continue
        kept.append(text)
    if abs(value) > 1e-9:
        kept.append(StandingEdit(edit.role, edit.kind, value, edit.section).phrase)
    return kept


# ── takes: which version of a part the producer picked ─────────────────────
_TAKE = re.compile(r"^take (?P<role>[a-z_]+)(?P<settings>(?: [a-z_]+=\S+)*)$")
#: The genre-DNA choice a role's structural variant swaps (pads and leads vary by density).
STYLE_FIELD = {
    "drums": "drum_family", "percussion": "drum_family", "bass": "bass_style",
    "sub_bass": "bass_style", "chords": "chord_rhythm", "keys": "chord_rhythm",
    "arp": "chord_rhythm",
}  # fmt: skip


@dataclass(frozen=True)
class Take:
    """A part's own generator settings: variant, dial lift, style, borrowed genre, density steps."""

    role: str
    variant: int = 0
    dials: float = 0.0
    style: str | None = None
    genre: str | None = None
    density: int = 0

    @property
    def phrase(self) -> str:
        words = [f"take {self.role} variant={self.variant} dials={self.dials:+g}"]
        words += [f"style={self.style}"] if self.style else []
        words += [f"genre={self.genre}"] if self.genre else []
        words += [f"density={self.density:+d}"] if self.density else []
        return " ".join(words)

    @property
    def is_default(self) -> bool:
        return self == Take(self.role)


def take_of(constraints: Sequence[str], role: str) -> Take:
    """The take a role plays (the default one when none was picked)."""
    for text in constraints:
        if (m := _TAKE.match(text)) and m["role"] == role:
            settings = dict(w.split("=", 1) for w in m["settings"].split())
            return Take(
                role,
                int(settings.get("variant", 0)),
                float(settings.get("dials", 0)),
                settings.get("style"),
                settings.get("genre"),
                int(settings.get("density", 0)),
            )
    return Take(role)


def with_take(constraints: Sequence[str], take: Take) -> list[str]:
    """The constraints with the role's take replaced (the default take leaves no trace)."""
    kept = [t for t in constraints if not ((m := _TAKE.match(t)) and m["role"] == take.role)]
    return kept if take.is_default else [*kept, take.phrase]


def intent_for_take(intent: PipelineIntent, take: Take) -> PipelineIntent:
    """The intent a part is written from: dials lifted, its style swapped, an influence blended."""
    if take.is_default:
        return intent
    dna = intent.genre_dna
    dials = intent.creativity_dials or (dna.creativity if dna else None) or CreativityDials()
    lifted = CreativityDials(
        harmonic=min(1.0, max(0.0, dials.harmonic + take.dials)),
        rhythmic=min(1.0, max(0.0, dials.rhythmic + take.dials)),
    )
    if dna is not None and take.genre:
        blend = blend_genres([dna.genre.split("+")[0], take.genre], [0.5, 0.5])
        dna = blend.model_copy(update={"genre": dna.genre, "display_name": dna.display_name})
    if dna is not None and take.style and take.role in STYLE_FIELD:
        dna = dna.model_copy(update={STYLE_FIELD[take.role]: take.style})
    return intent.model_copy(update={"creativity_dials": lifted, "genre_dna": dna})
