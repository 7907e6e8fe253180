"""Reads a file of `skills/` into a validated, typed table.

Every failure becomes a `SkillFileError` that names the file and the field,
so a producer who edited a skill file by hand is told exactly what to fix.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from muse_tui.contracts.song import TRACK_ROLES

T = TypeVar("T")

#: The repository's own knowledge, shipped beside the package.
BUNDLED_SKILLS = Path(__file__).resolve().parents[2] / "skills"


class SkillFileError(Exception):
    """A skill file is missing, is not JSON, or does not fit its schema."""

    def __init__(self, path: Path, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{_display(path)}: {problem}")


def skills_root() -> Path:
    """The folder knowledge is read from: `MUSE_SKILLS_DIR` if set, else the bundled one."""
    override = os.environ.get("MUSE_SKILLS_DIR")
    return Path(override) if override else BUNDLED_SKILLS


def load_table(relative_path: str, shape: type[T] | Any, root: Path | None = None) -> T:
    """Load `root/relative_path` and validate it as `shape` (a model or any type pydantic knows)."""
    path = (root or skills_root()) / relative_path
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SkillFileError(path, "the file is missing") from None
    except json.JSONDecodeError as exc:
        raise SkillFileError(path, f"not valid JSON at line {exc.lineno}: {exc.msg}") from None
    except UnicodeDecodeError:
        raise SkillFileError(path, "not UTF-8 text") from None
    except RecursionError:
        raise SkillFileError(path, "nested too deep") from None
    except ValueError:  # past Python's limit on the digits of an integer
        raise SkillFileError(path, "a number too long to read") from None
    except OSError as exc:
        raise SkillFileError(path, f"cannot be read ({exc.strerror})") from None
    try:
        return TypeAdapter(shape).validate_python(raw, by_alias=True, by_name=True)
    except ValidationError as exc:
        raise SkillFileError(path, describe_validation_error(exc)) from None


def normalise_word(word: str) -> str:
    """Genre, mood, tag and template words as keys: lowercase, underscores ('Lo-Fi' → 'lo_fi')."""
    return "_".join(word.strip().lower().replace("-", " ").replace("_", " ").split())


def normalised(words: Iterable[str], what: str = "these", *, keep: str = "") -> None:
    """A ValueError unless every word (but `keep`) is written as `normalise_word` writes it."""
    wrong = [w for w in words if w != keep and w != normalise_word(w)]
    if wrong:
        raise ValueError(f"write {what} lowercase with underscores: {', '.join(wrong)}")


def unique(names: list[str], message: str) -> None:
    """A ValueError, `message` and the names written twice, unless every name is written once."""
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"{message}: {', '.join(repeated)}")


def within(value: Mapping[str, float], low: float, high: float, message: str) -> None:
    """A ValueError, `message` and the keys outside `low`..`high`, unless every value is inside."""
    wrong = [k for k, v in value.items() if not low <= v <= high]
    if wrong:
        raise ValueError(f"{message}: {', '.join(wrong)}")


def expressions(patterns: list[str]) -> list[str]:
    """`patterns` when every one is a regular expression; else a ValueError naming the first not."""
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"{pattern!r} is not a regular expression: {exc}") from None
    return patterns


def with_every_role(value: Mapping[str, T]) -> Mapping[str, T]:
    """`value` when it has an entry for every track role; else a ValueError naming the missing."""
    missing = [r for r in TRACK_ROLES if r not in value]
    if missing:
        raise ValueError(f"missing roles: {', '.join(missing)}")
    return value


def describe_validation_error(exc: ValidationError) -> str:
    """The first problem of a validation error as 'field.path: message' (+ how many more)."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top level)"
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(BUNDLED_SKILLS.parent))
    except ValueError:
        return str(path)
