"""The layer table of DESIGN.md and the lint rules hold for the whole tree."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    exe = BIN / tool
    if not exe.exists():
        pytest.fail(f"{tool} is not installed beside {sys.executable}: pip install -e '.[test]'")
    return subprocess.run([str(exe), *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_import_contracts_hold() -> None:
    done = _run("lint-imports", "--no-cache")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " broken" in done.stdout and "0 broken" in done.stdout


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "check", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout[-4000:]


# ── the engine holds no musical tables ─────────────────────────────────────
ENGINE = ROOT / "muse_tui" / "engine"
#: Module-level tables and numbers the engine may keep: bookkeeping, not music.
ENGINE_CONSTANTS = {
    ("alternatives", "MAX_ATTEMPTS"),  # retries before a near-duplicate is kept
    ("alternatives", "__all__"),
    ("commit", "_WHOLE_SESSION"),  # which history paths rewrite which files
    ("commit", "_ONE_TRACK"),
    ("gates", "MAX_QUESTIONS"),
    ("ledger", "DURABLE_STAGES"),  # which checkpoints are fsynced
    ("parts", "_POLL"),  # how often a waiting thread looks up
    ("planning", "TRIGGER_OF"),  # how the sensitivity map cascades
}
#: Float literals the engine's code may use: identities and a float tolerance.
ENGINE_FLOATS = {0.0, 1.0, 1e-6}
_TABLE_CALLS = {"frozenset", "set", "dict", "tuple", "list", "compile"}


def musical_constants(module: str, source: str) -> list[str]:
    """Module-level tables or numbers, and float literals in code, not allowed in the engine."""
    tree = ast.parse(source)
    found = []
    for node in tree.body:
        if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = node.value
        table = isinstance(
            value, ast.Dict | ast.List | ast.Set | ast.Tuple | ast.DictComp | ast.SetComp
        )
        number = isinstance(value, ast.Constant) and type(value.value) in (int, float)
        func = value.func if isinstance(value, ast.Call) else None
        called = isinstance(func, ast.Name | ast.Attribute) and (
            (func.id if isinstance(func, ast.Name) else func.attr) in _TABLE_CALLS
        )
        for target in targets:
            name = target.id if isinstance(target, ast.Name) else ast.unparse(target)
            if (table or number or called) and (module, name) not in ENGINE_CONSTANTS:
                found.append(f"{module}.{name} (line {node.lineno})")
    allowed_lines = {
        n.lineno
        for n in tree.body
        if isinstance(n, ast.Assign | ast.AnnAssign)
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name) and (module, t.id) in ENGINE_CONSTANTS
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and type(node.value) is float
            and node.value not in ENGINE_FLOATS
            and node.lineno not in allowed_lines
        ):
            found.append(f"{module}: the number {node.value!r} (line {node.lineno})")
    return found


def test_the_engine_holds_no_musical_tables_or_numbers() -> None:
    found = [
        hit
        for path in sorted(ENGINE.rglob("*.py"))
        for hit in musical_constants(path.stem, path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "musical decisions belong in compose/iteration (or skills/), not in the engine: "
        + ", ".join(found)
    )


def test_the_check_catches_a_pan_table_and_a_tempo_clamp() -> None:
    pans = 'PANS = {"left": 32, "right": 96}\n'
    clamp = "def tempo(bpm):\n    return max(40.0, min(220.0, bpm))\n"
    swing = "SWING_STEP = 6.0\n"
    assert musical_constants("edit_actions", pans) == ["edit_actions.PANS (line 1)"]
    assert len(musical_constants("edit_actions", clamp)) == 2
    assert musical_constants("edit_actions", swing)[0] == "edit_actions.SWING_STEP (line 1)"


# ── no import cycle outside the studio ─────────────────────────────────────
def import_graph(root: Path, package: str = "muse_tui") -> dict[str, set[str]]:
    """Module → the package's modules it imports anywhere: at the top, in a function, or under
    `TYPE_CHECKING` (a cycle held open by a deferred import is still a cycle)."""
    files = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        files[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph: dict[str, set[str]] = {}
    for module, (path, is_package) in files.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = module.split(".")[: None if is_package else -1]
                    here = here[: len(here) - node.level + 1]
                    base = ".".join([*here, base] if base else here)
                named = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names
                ]
            else:
                continue
            for name in named:
                while name and name not in files:  # `pkg.mod.Class` is an import of `pkg.mod`
                    name = name.rpartition(".")[0]
                if name and name != module:
                    targets.add(name)
        graph[module] = targets
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while (top := stack.pop()) != module:
                group.append(top)
            if group:
                found.append(sorted([module, *group]))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle_outside_the_studio() -> None:
    found = [
        group
        for group in import_cycles(import_graph(ROOT))
        if not all(m.startswith("muse_tui.tui.") for m in group)
    ]
    assert not found, "modules that import each other (move the shared piece down a layer): " + str(
        found
    )


def test_the_cycle_check_sees_function_level_and_type_checking_imports(tmp_path: Path) -> None:
    (tmp_path / "muse_tui" / "inner").mkdir(parents=True)
    (tmp_path / "muse_tui" / "__init__.py").write_text("")
    (tmp_path / "muse_tui" / "inner" / "__init__.py").write_text("")
    (tmp_path / "muse_tui" / "inner" / "a.py").write_text("def f():\n    from . import b\n")
    (tmp_path / "muse_tui" / "inner" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from muse_tui.inner.a import f\n"
    )
    (tmp_path / "muse_tui" / "c.py").write_text("from muse_tui.inner.a import f\n")
    assert import_cycles(import_graph(tmp_path)) == [["muse_tui.inner.a", "muse_tui.inner.b"]]
