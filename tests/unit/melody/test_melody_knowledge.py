"""The melody tables of `skills/melody/`: every genre finds a style, and mistakes name the file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from muse_tui.compose.melody.motif import cell_rhythm, make_motif
from muse_tui.knowledge import SkillFileError
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.melody import STYLES_FILE, melody_table


def test_every_genre_finds_a_style_and_every_instrument_a_register() -> None:
    table = melody_table()
    for genre, dna in genre_table().genres.items():
        assert genre in table.genres or dna.drum_family in table.families, genre
    assert table.register_for(9)[0] > table.register_for(66)[0]  # bells sit above a tenor sax
    assert table.register_for(None) == table.fallback_register


def test_a_style_naming_a_missing_form_is_reported_with_its_field(skills_copy: Path) -> None:
    path = skills_copy / STYLES_FILE
    data = json.loads(path.read_text())
    data["styles"]["ballad"]["hookForms"] = ["rondo"]
    path.write_text(json.dumps(data))
    with pytest.raises(SkillFileError, match=r"styles\.ballad\.hookForms: .*rondo"):
        melody_table(skills_copy)


def test_a_cell_reads_as_onsets_and_lengths_and_holds_run_on() -> None:
    assert cell_rhythm(["x-.x----x-------"], 4) == [(0.0, 0.5), (0.75, 1.25), (2.0, 2.0)]
    assert cell_rhythm(["x-------x-------"], 3) == [(0.0, 2.0), (2.0, 1.0)]  # 3/4 cuts the bar


@pytest.mark.parametrize("style", sorted(melody_table().styles))
def test_a_motif_keeps_its_cells_rhythm_and_starts_on_its_anchor(style: str) -> None:
    table = melody_table()
    lead = table.styles[style]
    motif = make_motif(lead, table.contours["arch"], 2, 4, random.Random(7))
    assert motif.notes[0].steps == 0
    assert all(0 <= n.start < 8 for n in motif.notes)
    assert motif.bar(0) and motif.bar(1), "a two-bar motif plays in both bars"
    assert motif.highest - motif.lowest <= 7
