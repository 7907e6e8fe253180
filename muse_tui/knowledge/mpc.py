"""MPC drum pads: `skills/mpc/pads.json`, which note each pad answers to and which voice goes where.

A drum program on an MPC does not read General MIDI: its pads answer to the
notes of a layout (the legacy one since the MPC60, or Chromatic C1 since MPC
2.11). A session's drum patterns are written for one layout, with the kit's
voices placed on pads in the order producers lay a kit out.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.knowledge.loader import load_table
from muse_tui.knowledge.table import skill_table

PADS_FILE = "mpc/pads.json"
PADS_PER_BANK = 16
BANKS = "ABCD"


class PadMap(Contract):
    """One pad layout: the note each of the 64 pads (A01 to D16) answers to; None keeps the
    General MIDI notes (a program mapped to GM)."""

    label: str
    description: str
    source: str
    pad_notes: list[int] | None

    @field_validator("pad_notes")
    @classmethod
    def _notes(cls, value: list[int] | None) -> list[int] | None:
        if value is None:
            return None
        if len(value) != len(BANKS) * PADS_PER_BANK:
            raise ValueError(f"64 pads (A01 to D16), got {len(value)}")
        if any(not 0 <= n <= 127 for n in value) or len(set(value)) != len(value):
            raise ValueError("each pad needs its own MIDI note, 0–127")
        return value


class PadOrder(Contract):
    """The order kit voices (General MIDI drum notes) take the pads in, first pad first."""

    source: str
    gm_notes: list[int] = Field(min_length=1)

    @field_validator("gm_notes")
    @classmethod
    def _unique(cls, value: list[int]) -> list[int]:
        if len(set(value)) != len(value) or any(not 0 <= n <= 127 for n in value):
            raise ValueError("each General MIDI drum note once, 0–127")
        return value


class PadTable(Contract):
    """The pad layouts an MPC drum program may use, and how a kit is laid out on pads."""

    source: str
    default_map: str
    maps: dict[str, PadMap] = Field(min_length=1)
    pad_order: PadOrder

    @model_validator(mode="after")
    def _default_known(self) -> PadTable:
        if self.default_map not in self.maps:
            raise ValueError(f"default_map {self.default_map!r} is not one of {sorted(self.maps)}")
        return self

    def layout(self, gm_notes: Iterable[int]) -> list[tuple[str, int]]:
        """(pad name, GM note) for the voices a kit plays, in pad order; at most 64."""
        rank = {note: i for i, note in enumerate(self.pad_order.gm_notes)}
        ordered = sorted(set(gm_notes), key=lambda n: (rank.get(n, len(rank)), n))
        return [(pad_name(i), note) for i, note in enumerate(ordered[: len(BANKS) * 16])]

    def note_for_pad(self, pad: str, gm_note: int, map_name: str | None = None) -> int:
        """The note the drum `gm_note` on `pad` ("A01") is played with in a layout (the
        default one if none is named): the pad's own note, or `gm_note` for General MIDI."""
        notes = self.maps[map_name or self.default_map].pad_notes
        if notes is None:
            return gm_note
        return notes[BANKS.index(pad[0]) * PADS_PER_BANK + int(pad[1:]) - 1]


def pad_name(index: int) -> str:
    """ "A01" for the first pad, "B01" for the seventeenth."""
    bank, number = divmod(index, PADS_PER_BANK)
    return f"{BANKS[bank]}{number + 1:02d}"


@skill_table
def pad_table(root: Path) -> PadTable:
    """The MPC pad layouts of `root/mpc/pads.json`."""
    return load_table(PADS_FILE, PadTable, root)
