"""What every headless command shares: one way to fail, one way to find a session.

Exit codes and the sentence for each error come from `session.failures`, which the
studio reads too.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import click

from muse_tui.session.failures import ExitCode, failure_of
from muse_tui.store.checkpoint import PIPELINE_FILE
from muse_tui.store.sessions import (
    BadSessionReference,
    SessionNotFound,
    resolve_session,
    sessions_root,
)


def fail(
    sentence: str,
    next_step: str = "",
    *,
    code: ExitCode = ExitCode.FAILED,
    as_json: bool = False,
) -> NoReturn:
    """Say what went wrong and what to do next, then exit with `code`.

    With `as_json` the same words go to stdout as `{"error": {...}}`, so a script
    reading the command's JSON gets an object, never a traceback.
    """
    sentence = _sentence(sentence)
    next_step = _sentence(next_step) if next_step else ""
    if as_json:
        error = {"message": sentence, "next": next_step, "exitCode": int(code)}
        click.echo(json.dumps({"error": error}, indent=2))
    else:
        click.echo(f"{sentence} {next_step}".rstrip(), err=True)
    sys.exit(code)


def fail_on(
    error: BaseException, next_step: str | None = None, *, as_json: bool = False
) -> NoReturn:
    """`fail` as the session layer's table says for `error`; an error it does not know is raised.

    `next_step` replaces the table's when the command knows a better one.
    """
    failure = failure_of(error)
    if failure is None:
        raise error
    step = failure.next_step if next_step is None else next_step
    fail(failure.sentence, step, code=failure.exit_code, as_json=as_json)


@contextlib.contextmanager
def failing(*, as_json: bool = False) -> Iterator[None]:
    """Inside the block, an error a producer can cause leaves through `fail_on`."""
    try:
        yield
    except Exception as exc:  # the table knows the producer's errors; anything else is raised
        fail_on(exc, as_json=as_json)


def find_session(ref: str, *, as_json: bool = False, checkpoint_ok: bool = False) -> Path:
    """The session folder `ref` names (an id or a folder path), or `fail` in one sentence.

    A well-formed id with no folder fails (1); anything that cannot name a
    session is bad usage (2). With `checkpoint_ok` a path to a session's
    `pipeline-state.json` also names its session (what `resume` accepts).
    """
    root = sessions_root()
    try:
        candidate = Path(ref).expanduser()
        if checkpoint_ok and candidate.name == PIPELINE_FILE and candidate.is_file():
            return candidate.parent.parent
        return resolve_session(ref, root)
    except BadSessionReference as exc:
        fail(str(exc), code=ExitCode.USAGE, as_json=as_json)
    except SessionNotFound as exc:
        fail(str(exc), as_json=as_json)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?`" else f"{text}."


def _short(ref: str, limit: int = 80) -> str:
    return ref if len(ref) <= limit else f"{ref[: limit - 1]}…"
