"""What the studio is built from. The defaults are the real thing; tests swap in fakes.

Everything that would make a screen differ between two runs (time, seeds,
ids, ports, spinners, file watchers) comes through here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from muse_tui.store.settings import config_dir

from .auditioning import open_real_player

if TYPE_CHECKING:  # the engine loads when the first run starts
    from muse_tui.engine.protocols import EventSink
    from muse_tui.engine.stages import StageRegistry

    from .auditioning import OpenPlayer

#: Themes shipped beside the package (the repository's `themes/` folder).
BUNDLED_THEMES = Path(__file__).resolve().parents[2] / "themes"


def product_stages() -> StageRegistry:
    """The real stage registry, imported only when a run starts."""
    from muse_tui.engine.registry import product_stages as registry

    return registry()


def real_ports() -> list[str]:
    from muse_tui.audition import SCANNER, PortError

    try:
        return list(dict.fromkeys(p.name for p in SCANNER.ports(rescan=True)))
    except PortError:
        return []


def theme_folders() -> tuple[Path, ...]:
    """The shipped themes, then the producer's own (`themes/` in the config folder)."""
    return (BUNDLED_THEMES, config_dir() / "themes")


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class StudioConfig:
    """How to build a studio. `run_studio()` uses the defaults."""

    stages: Callable[[], StageRegistry] = product_stages
    sessions_root: Path | None = None  # None: MUSE_SESSIONS_DIR, the setting, ./sessions
    settings_path: Path | None = None  # None: settings.toml in the platform config folder
    clock: Callable[[], datetime] = utc_now
    monotonic: Callable[[], float] = time.monotonic
    seed: int | None = None  # None: a fresh seed for every run
    session_ids: Callable[[], str] | None = None  # None: the engine names sessions
    open_player: OpenPlayer = open_real_player
    list_ports: Callable[[], list[str]] = real_ports
    themes_dirs: tuple[Path, ...] = field(default_factory=theme_folders)
    skills_dir: Path | None = None  # None: the knowledge layer's skills folder
    watch: bool = True  # hot-reload themes/ and skills/
    animate: bool = True  # spinners, cursor blink
    sink_wrapper: Callable[[EventSink], EventSink] | None = None  # e.g. a recorder in tests
