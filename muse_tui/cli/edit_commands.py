"""Headless iteration: `modify`, `undo`, `redo` and `alternatives` on a session folder.

Exit codes (`common.ExitCode`): 0 done (or nothing to do), 1 failure or an expensive
change not confirmed, 2 bad usage (not a session, an unknown element), 4 a request of
which nothing was understood.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

import click
from rich.console import Console

from muse_tui.contracts import Ambiguity, ComposerPipeline, Decision, SongState
from muse_tui.contracts.editing import ModifySongResult, UndoResult
from muse_tui.contracts.proposal import ProposalResult
from muse_tui.engine.alternatives import AlternativesError, element_for
from muse_tui.engine.proposals import ProposalStale, load_pending
from muse_tui.engine.protocols import ApprovalGate, ApprovalRequest, AutoApprove
from muse_tui.engine.routing import route
from muse_tui.session import changes

from .common import ExitCode, fail, fail_on, failing, find_session
from .terminal import TerminalGate, TerminalProgress, interactive

ELEMENTS = "progression | track:ROLE | preset:ROLE | effects:ROLE | arrangement"


class _AskedWithoutTerminal:
    """No one to ask: refuse the expensive change and remember the question for the message."""

    def __init__(self) -> None:
        self.question: str | None = None

    async def review(self, request: ApprovalRequest) -> Decision:
        return "cancel"

    async def ask(self, question: Ambiguity) -> str | None:
        self.question = question.reason
        return None


@click.command("modify")
@click.argument("session")
@click.argument("text", required=False)
@click.option("--yes", "-y", is_flag=True, help="Go ahead with expensive changes without asking.")
@click.option(
    "--preview", is_flag=True, help="Only propose the change: say what it would do, write nothing."
)
@click.option("--accept", is_flag=True, help="Make the pending proposal the song.")
@click.option("--discard", is_flag=True, help="Drop the pending proposal; nothing changes.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def modify(
    session: str,
    text: str | None,
    yes: bool,
    preview: bool,
    accept: bool,
    discard: bool,
    as_json: bool,
) -> None:
    """Change a session's song: TEXT says what ("3rd chord darker", "bass simpler").

    With --preview the change is only proposed (kept in the session until
    --accept or --discard); a new proposal replaces the pending one.
    """
    if accept or discard:
        if text is not None or preview or (accept and discard):
            fail(
                "--accept and --discard take no request and go alone.",
                f"Run `muse-studio modify {session} --accept` (or --discard).",
                code=ExitCode.USAGE,
                as_json=as_json,
            )
        _decide(session, accept=accept, as_json=as_json)
        return
    if text is None:
        fail(
            "Say what to change.",
            f'Run `muse-studio modify {session} "bass simpler"` (add --preview to hear it first).',
            code=ExitCode.USAGE,
            as_json=as_json,
        )
    console = Console(stderr=as_json)
    refusal = _AskedWithoutTerminal()
    gate: ApprovalGate = AutoApprove()
    if not yes and not preview:
        gate = (
            TerminalGate(console, TerminalProgress(console, quiet=True))
            if interactive()
            else refusal
        )
    with _held(session, as_json) as (folder, pipeline):
        if preview:
            _preview(folder, pipeline, text, as_json)
            return
        pending = load_pending(folder)
        result = changes.change(pipeline, folder, text, gate=gate)
    if as_json:
        _echo_json(result)
    else:
        _print_change(result)
        if pending is not None and result.status in ("applied", "undone", "redone"):
            click.echo(f"The pending proposal “{pending.proposal.request}” was dropped.")
    if result.status == "declined" and refusal.question:
        click.echo(f"{refusal.question} Run again with --yes to go ahead.", err=True)
        sys.exit(ExitCode.FAILED)
    if result.status == "not_understood":
        sys.exit(ExitCode.NOT_UNDERSTOOD)


def _preview(folder: Path, pipeline: ComposerPipeline, text: str, as_json: bool) -> None:
    """Propose the change: only `SESSION/proposal/` is written."""
    routed = route(text, session_open=True)
    request = routed.request
    if request.kind != "change":
        fail(
            f"“{text}” is not a change to the song, so there is nothing to preview.",
            'Say what to change, e.g. "bass simpler" or "what would it sound like in D minor?".',
            code=ExitCode.USAGE,
            as_json=as_json,
        )
    made = changes.propose(pipeline, folder, request)
    if as_json:
        _echo_json(made)
    elif isinstance(made, ProposalResult):
        _print_proposal(folder, made)
    else:
        _print_change(made)
    if made.status == "not_understood":
        sys.exit(ExitCode.NOT_UNDERSTOOD)


def _decide(session: str, *, accept: bool, as_json: bool) -> None:
    """Accept or discard the session's pending proposal."""
    with _held(session, as_json) as (folder, pipeline):
        if not accept:
            gone = changes.discard(pipeline, folder)
        else:
            try:
                result = changes.accept(pipeline, folder)
            except ProposalStale as exc:
                fail_on(exc, f"Run `muse-studio modify {folder.name} --discard`.", as_json=as_json)
    if not accept:
        if as_json:
            _echo_json(gone)
        else:
            click.echo(gone.summary)
    elif as_json:
        _echo_json(result)
    else:
        _print_change(result)


def _print_proposal(folder: Path, made: ProposalResult) -> None:
    click.echo(made.summary)
    proposal = made.proposal
    if proposal is None:
        return
    click.echo(f"Cost: {proposal.cost}.")
    for name in proposal.changed_files:
        click.echo(f"  would update {name}")
    for name in proposal.removed_files:
        click.echo(f"  would remove {name}")
    click.echo(
        f"Nothing in the song changed yet: `muse-studio modify {folder.name} --accept` makes it, "
        "`--discard` drops it."
    )


def _replay_command(name: str, doc: str, *, undoing: bool) -> click.Command:
    """The `undo` or `redo` command: the same arguments, replaying history one way."""

    @click.command(name, help=doc)
    @click.argument("session")
    @click.option(
        "--steps",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help=f"Changes to {name}.",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
    def command(session: str, steps: int, as_json: bool) -> None:
        with _held(session, as_json) as (folder, pipeline):
            done = changes.replay(pipeline, folder, steps, undoing=undoing)
        _print_replay(done, as_json)

    return command


undo = _replay_command(
    "undo",
    "Undo the last change(s) to a session's song; they stay in the history, marked undone.",
    undoing=True,
)
redo = _replay_command(
    "redo", "Redo changes that were undone (until a new change replaces them).", undoing=False
)


@click.command("alternatives")
@click.argument("session")
@click.option(
    "--element", "spec", required=True, metavar="ELEMENT", help=f"What to vary: {ELEMENTS}."
)
@click.option("--count", type=click.IntRange(2, 5), default=3, show_default=True, help="Variants.")
@click.option(
    "--select", "pick", metavar="K", help="Use variant K (its letter, or its number from 1)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the set as JSON.")
def alternatives(session: str, spec: str, count: int, pick: str | None, as_json: bool) -> None:
    """Generate, compare and pick A/B alternatives for one element of the song."""
    with _held(session, as_json) as (folder, pipeline):
        try:
            element = element_for(pipeline, _named_track(pipeline.song_state, spec))
        except AlternativesError as exc:
            fail_on(exc, f"Elements: {ELEMENTS}.", as_json=as_json)
        made = changes.alternatives(pipeline, folder, element, count)
        alt_set = made.alternative_set
        if as_json and pick is None:
            click.echo(
                alt_set.model_dump_json(
                    by_alias=True, indent=2, exclude={"variants": {"__all__": {"data"}}}
                )
            )
            return
        if not as_json:
            cached = " (cached)" if made.reused else ""
            click.echo(f"Alternatives for {spec}{cached}:\n{made.comparison_text}")
        if pick is None:
            return
        index = _variant_index(pick, [v.label for v in alt_set.variants], as_json)
        result = changes.choose(made.pipeline, folder, alt_set.id, index)
    if as_json:
        _echo_json(result)
    else:
        _print_change(result)


def _named_track(song: SongState | None, spec: str) -> str:
    """`KIND:ROLE` with ROLE as the song calls it: `track:bass` finds a trap song's 808.

    A role the song has is taken as typed; otherwise the one track whose role
    or name contains the word ("bass" in sub_bass, "808", "piano") answers.
    """
    kind, colon, word = spec.partition(":")
    typed = word.strip().lower().replace(" ", "_")
    if not colon or song is None or not typed or song.track(typed) is not None:
        return spec
    found = [
        t.role for t in song.tracks if typed in t.role or typed in t.name.lower().replace(" ", "_")
    ]
    return f"{kind}:{found[0]}" if len(set(found)) == 1 else spec


@contextlib.contextmanager
def _held(ref: str, as_json: bool) -> Iterator[tuple[Path, ComposerPipeline]]:
    """The session read and changed as its one writer (`session.changes.writing`).

    Every error a producer can cause inside the block leaves as one sentence.
    """
    folder = find_session(ref, as_json=as_json)
    with failing(as_json=as_json), changes.writing(folder) as pipeline:
        yield folder, pipeline


def _variant_index(pick: str, labels: list[str], as_json: bool) -> int:
    if pick.upper() in labels:
        return labels.index(pick.upper())
    if pick.isdigit() and 1 <= int(pick) <= len(labels):
        return int(pick) - 1
    fail(
        f"--select {pick} is not one of the variants.",
        f"Choose one of {', '.join(labels)} (or 1-{len(labels)}).",
        code=ExitCode.USAGE,
        as_json=as_json,
    )


def _echo_json(result: ModifySongResult | UndoResult | ProposalResult) -> None:
    """A result as JSON, without the whole song: the session's files hold it."""
    click.echo(result.model_dump_json(by_alias=True, indent=2, exclude={"pipeline", "song_state"}))


def _print_change(result: ModifySongResult) -> None:
    click.echo(result.summary)
    if result.status == "applied":
        click.echo(f"Cost: {result.cost}.")
        if result.preserved_components:
            click.echo(f"Kept: {', '.join(result.preserved_components)}.")
        for name in result.updated_files:
            click.echo(f"  updated {name}")


def _print_replay(result: UndoResult, as_json: bool) -> None:
    if as_json:
        _echo_json(result)
        return
    click.echo(result.summary)
    for name in result.updated_files:
        click.echo(f"  updated {name}")
