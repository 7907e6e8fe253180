"""One table from an error a producer can cause to one sentence, what to do next, and an exit code.

The command line prints a `Failure` and exits with its code; the studio shows
it in a notice. An error the table does not know is a bug: the command line
lets it through, the studio shows `error_sentence`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    """What `muse-studio COMMAND` exits with; the README lists the same five."""

    DONE = 0
    FAILED = 1  # failed or cancelled
    USAGE = 2  # what was typed cannot work: fix the command line
    PARTIAL = 3  # done, with a degraded stage (e.g. no MIDI port for --play)
    NOT_UNDERSTOOD = 4  # the command was right, but nothing in the request was understood


@dataclass(frozen=True)
class Failure:
    """What went wrong, what to do next, and how a command exits.

    `kept`: the change was refused before it touched anything, so the song is as it was.
    """

    sentence: str
    next_step: str = ""
    exit_code: ExitCode = ExitCode.FAILED
    kept: bool = False


class NotComposed(Exception):
    """The session stopped before its song was made: there is nothing to change yet."""

    def __init__(self, folder: Path) -> None:
        super().__init__(f"{folder.name} was never composed past its prompt")
        self.folder = folder


def failure_of(error: BaseException | None) -> Failure | None:
    """The sentence, next step and exit code for an error a producer can cause; None for a bug."""
    for kind, described in _table():
        if isinstance(error, kind):
            return described(error)
    return None


def error_sentence(error: BaseException | None) -> str:
    """A failed run or change as one sentence, with what to do next, whatever the error."""
    from muse_tui.store.checkpoint import CheckpointError

    if isinstance(error, CheckpointError):
        return str(error)
    if isinstance(error, ImportError):
        return "The composing engine is not installed completely; reinstall muse-studio."
    if isinstance(error, OSError):
        return f"A file could not be written ({error}); check the sessions folder and free space."
    text = str(error) if error else "unknown error"
    return f"{text.rstrip('.')}. Try again; if it keeps happening, report it with this message."


_Rule = tuple[type[BaseException], Callable[[BaseException], Failure]]


@functools.cache
def _table() -> tuple[_Rule, ...]:
    """The table, first match wins (a `SessionBusy` is a `WriteFailed`, so it comes first).

    Built on the first failure: `muse-studio --help` and the studio's first frame
    load neither the engine nor the store.
    """
    from muse_tui.engine.alternatives import AlternativesError
    from muse_tui.engine.proposals import ProposalStale
    from muse_tui.knowledge import SkillFileError
    from muse_tui.store.atomic import WriteFailed, advice_sentence
    from muse_tui.store.checkpoint import CheckpointError
    from muse_tui.store.lock import SessionBusy
    from muse_tui.store.transaction import SessionChanged

    def resume_first(error: BaseException) -> Failure:
        name = error.folder.name  # type: ignore[attr-defined]
        return Failure(f"{error}.", f"Resume it first: `muse-studio resume {name}`.")

    return (
        # a rival writer: its sentence says what to do
        (SessionBusy, lambda e: Failure(str(e), kept=True)),
        (SessionChanged, lambda e: Failure(str(e), kept=True)),
        (WriteFailed, lambda e: Failure(str(e), advice_sentence(e), kept=True)),  # type: ignore[arg-type]
        (ProposalStale, lambda e: Failure(str(e))),
        (AlternativesError, lambda e: Failure(str(e), exit_code=ExitCode.USAGE)),
        # the words a change is read with, or another table
        (
            SkillFileError,
            lambda e: Failure(
                f"A skill file is broken: {e}.", "Fix the file or restore it from the repository."
            ),
        ),
        (CheckpointError, lambda e: Failure(str(e))),
        (NotComposed, resume_first),
    )
