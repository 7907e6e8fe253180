"""`skill_table`: one loader shape for every table of `skills/`: read, check, cache, reload.

A table is a function of the skills folder. Decorated, it is called with no
argument for the folder in use (`MUSE_SKILLS_DIR`, else the bundled one) or
with another folder, each cached on its own; `reload()` forgets one table and
`reload_all_tables()` every table at once (hot reload after a file changes).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from muse_tui.knowledge.loader import skills_root

T = TypeVar("T")

_EVERY_TABLE: list[SkillTable[object]] = []


class SkillTable(Generic[T]):
    """A table built from a skills folder, cached per folder."""

    def __init__(self, build: Callable[[Path], T]) -> None:
        self._build = build
        self._cached: dict[Path, T] = {}
        self._lock = threading.RLock()
        self.__doc__ = build.__doc__
        self.__name__ = build.__name__
        self.__wrapped__ = build

    def __call__(self, root: Path | None = None) -> T:
        """The table under `root` (default: the skills folder in use)."""
        root = root or skills_root()
        try:
            return self._cached[root]
        except KeyError:
            pass
        with self._lock:  # parts load tables from several threads at once
            if root not in self._cached:
                self._cached[root] = self._build(root)
                _settle()
            return self._cached[root]

    def reload(self) -> None:
        """Forget the cached table so the next call reads the files again."""
        with self._lock:
            self._cached.clear()


def _settle() -> None:
    """Take what is alive now out of the cyclic collector's sight (`gc.freeze`).

    A table lives until its file changes, and tables are the bulk of what a
    composing process keeps: tens of thousands of objects that each full
    collection would scan again. A compose makes enough notes to trigger a full
    collection every few runs, and scanning the tables made it cost 20 ms.
    Frozen objects are still freed when nothing refers to them; only a cycle
    alive at this moment and dropped later is kept, once per table load.
    """
    gc.freeze()


def skill_table(build: Callable[[Path], T]) -> SkillTable[T]:
    """Make `build(root)` a cached table of the skills folder (see the module docstring)."""
    table = SkillTable(build)
    _EVERY_TABLE.append(table)  # type: ignore[arg-type]
    return table


def every_table() -> list[SkillTable[object]]:
    """Every table defined so far (each module's tables register as it is imported)."""
    return list(_EVERY_TABLE)


def reload_all_tables() -> None:
    """Forget every table at once: the next read of each loads its files again."""
    for table in _EVERY_TABLE:
        table.reload()


@dataclass(frozen=True)
class NamedEntries(Generic[T]):
    """The entries of a skill file by name, in the file's order."""

    path: Path
    entries: Mapping[str, T]
    #: What one entry is, for messages ("genre", "artist").
    kind: str

    def __contains__(self, name: object) -> bool:
        return name in self.entries

    def get(self, name: str) -> T:
        """The entry called `name`; a `KeyError` names it and the file when there is none."""
        try:
            return self.entries[name]
        except KeyError:
            raise KeyError(f"no {self.kind} called {name!r} in {self.path.name}") from None
