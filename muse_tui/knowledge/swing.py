"""How much swing "more swing" means, from `skills/rhythm/swing.json` (MPC swing percent).

A step of swing on a part that already swings adds `step`; a straight part
(below `felt`, where swing is not yet heard as swing) goes to `fromStraight`.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.knowledge.loader import load_table
from muse_tui.knowledge.table import skill_table

SWING_FILE = "rhythm/swing.json"


class SwingTable(Contract):
    source: str = Field(min_length=1)
    step: float = Field(gt=0, le=25)
    limits: tuple[float, float]
    felt: float
    from_straight: float = Field(alias="fromStraight")

    @model_validator(mode="after")
    def _inside_limits(self) -> SwingTable:
        low, high = self.limits
        if not 50 <= low < self.felt <= self.from_straight <= high <= 75:
            raise ValueError("limits, felt and fromStraight must rise within 50-75%")
        return self


swing_table = skill_table(lambda root: load_table(SWING_FILE, SwingTable, root))


def swung(swing: float, change: float, root: Path | None = None) -> float:
    """The swing percent a part plays after `change` (a signed sum of steps) from `swing`."""
    table = swing_table(root) if root else swing_table()
    low, high = table.limits
    target = swing + change
    if change > 0 and swing < table.felt:
        target = max(target, table.from_straight)
    return max(low, min(high, target))
