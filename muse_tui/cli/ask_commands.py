"""`muse-studio ask [SESSION] TEXT`: answers from the session and the theory core; changes nothing.

Exit codes (`common.ExitCode`): 0 answered, 1 the session cannot be read,
2 bad usage (not a session), 4 a question no topic covers (nothing understood).
"""

from __future__ import annotations

import json
import sys

import click

from muse_tui.compose.answers import answer
from muse_tui.store.checkpoint import CheckpointError, load_checkpoint

from .common import ExitCode, fail, find_session


@click.command("ask")
@click.argument("words", nargs=-1, required=True, metavar="[SESSION] TEXT")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def ask(words: tuple[str, ...], as_json: bool) -> None:
    """Ask about a session's song ("why Eb minor?", "what preset is the bass?") or theory
    ("notes in Cmaj9", "what is a ii-V in Eb"). Nothing is changed."""
    if len(words) > 2:
        fail(
            'Quote the question: muse-studio ask SESSION "what key is it in?".',
            code=ExitCode.USAGE,
            as_json=as_json,
        )
    session, text = (words[0], words[1]) if len(words) == 2 else (None, words[0])
    pipeline = folder = None
    if session is not None:
        folder = find_session(session, as_json=as_json)
        try:
            pipeline = load_checkpoint(folder)
        except CheckpointError as exc:
            fail(str(exc), as_json=as_json)
    said = answer(text, pipeline, folder)
    if as_json:
        click.echo(json.dumps(said.as_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(said.text)
    if said.topic == "unknown":
        sys.exit(ExitCode.NOT_UNDERSTOOD)
