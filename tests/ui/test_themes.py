"""Themes stay readable where the terminal has fewer colours than the theme."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.color import ColorSystem
from textual.color import Color

from tests.ui.harness import make_studio


def in_256_colours(colour: str | Color) -> int | None:
    """The palette entry a 256-colour terminal shows for `colour`."""
    return Color.parse(colour).rich_color.downgrade(ColorSystem.EIGHT_BIT).number


@pytest.mark.parametrize("theme", ["muse-dark", "muse-light", "muse-contrast"])
async def test_pane_borders_stay_visible_in_256_colours(tmp_path: Path, theme: str) -> None:
    """Before, muse-light drew the pane borders white on white in a 256-colour terminal."""
    app = make_studio(tmp_path, settings=f'theme = "{theme}"\n')
    async with app.run_test() as pilot:
        await pilot.pause()
        variables = app.theme_variables
        _, drawn = app.studio.query_one("#arrangement").styles.border_top
        border = in_256_colours(drawn)
        for ground in ("surface", "background"):
            assert border != in_256_colours(variables[ground]), ground
