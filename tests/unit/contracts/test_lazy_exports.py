"""The contracts package exports every name lazily, and the type checker sees the same names."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import muse_tui.contracts as contracts

INIT = Path(contracts.__file__)


def _type_checker_imports() -> dict[str, str]:
    """Name → module, as written under `if TYPE_CHECKING:` in the package's __init__."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If))
    return {
        alias.name: node.module.rsplit(".", 1)[1]
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }


def test_the_runtime_homes_and_the_type_checker_imports_agree() -> None:
    assert _type_checker_imports() == contracts._HOMES


def test_every_exported_name_resolves_to_its_modules_object() -> None:
    for name, module in contracts._HOMES.items():
        value = getattr(contracts, name)
        assert value is getattr(sys.modules[f"muse_tui.contracts.{module}"], name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        contracts.NoSuchContract  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchContract" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")


def test_the_vocabulary_builds_no_model() -> None:
    probe = (
        "import sys; from muse_tui.contracts.vocabulary import STAGE_NAMES, TrackRole; "
        "import muse_tui.store.settings; "
        "print(sorted(m for m in sys.modules if m.startswith('muse_tui.contracts.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=INIT.parents[2],
    )
    assert done.stdout.strip() == "['muse_tui.contracts.vocabulary']"
