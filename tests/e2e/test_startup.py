"""`muse-studio --help` lists every command without importing any of them."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from muse_tui.cli import main
from muse_tui.cli.main import COMMANDS, SHORT_HELP

#: Loaded by `--help` in a fresh interpreter, these would cost most of a second.
HEAVY = ("pydantic", "muse_tui.contracts", "muse_tui.engine", "textual", "rich", "mido")


def _modules_after(*args: str) -> set[str]:
    script = (
        "import json, sys\n"
        f"sys.argv = ['muse-studio', *{list(args)!r}]\n"
        "from muse_tui.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert run.stdout, "the command printed nothing"
    return set(json.loads(run.stderr.splitlines()[-1]))


def test_help_imports_no_command_module_and_no_contracts() -> None:
    loaded = _modules_after("--help")
    command_modules = {target.split(":")[0] for target in COMMANDS.values()}
    assert not loaded & command_modules
    assert not [m for m in loaded if m.startswith(HEAVY)]


def test_version_imports_nothing_heavy_either() -> None:
    loaded = _modules_after("--version")
    assert not [m for m in loaded if m.startswith(HEAVY)]


def test_a_command_s_own_help_may_load_it() -> None:
    assert "muse_tui.cli.compose_commands" in _modules_after("compose", "--help")


def test_every_lazy_command_has_its_line_and_its_own_help() -> None:
    assert set(SHORT_HELP) == set(COMMANDS)
    listed = CliRunner().invoke(main, ["--help"]).output
    for name, line in SHORT_HELP.items():
        assert f"{name}  " in listed and line in " ".join(listed.split()), name
        own = CliRunner().invoke(main, [name, "--help"])
        assert own.exit_code == 0 and f"Usage: main {name}" in own.output, name


def test_version_names_the_installed_package() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith("muse-studio, version ")
    assert result.output.split()[-1][0].isdigit()


def test_ctrl_c_while_a_command_loads_exits_130_without_a_traceback() -> None:
    """Issue 34: Ctrl-C in a command's first seconds printed a traceback. pydantic builds
    its schemas in Rust, which hands a KeyboardInterrupt back wrapped in its own error
    (seen in a signal trial: `SchemaError: … KeyboardInterrupt`), so catching
    KeyboardInterrupt alone missed it."""
    script = (
        "import signal, sys\n"
        "sys.argv = ['muse-studio', 'sessions', 'list']\n"
        "import muse_tui.launch as launch\n"
        "def start():\n"
        "    try:\n"
        "        signal.raise_signal(signal.SIGINT)  # Ctrl-C while a command's modules load\n"
        "    except KeyboardInterrupt:\n"
        "        raise RuntimeError('Error building serializer: KeyboardInterrupt') from None\n"
        "launch._start = start\n"
        "launch.main()\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 130
