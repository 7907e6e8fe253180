"""Headless composing: `compose`, `resume` and `intent`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console

from muse_tui.compose.intent import SONG_BARS, decompose
from muse_tui.compose.intent.structured import StructuredPromptError, parse_structured
from muse_tui.contracts import ComposerPipeline, PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.protocols import ApprovalGate, AutoApprove
from muse_tui.engine.registry import product_stages
from muse_tui.knowledge import SkillFileError
from muse_tui.session.composing import compose as composed
from muse_tui.session.composing import new_seed
from muse_tui.session.composing import resume as resumed
from muse_tui.store.atomic import WriteFailed, write_advice
from muse_tui.store.checkpoint import CheckpointError
from muse_tui.store.manifest import read_manifest
from muse_tui.store.sessions import sessions_root
from muse_tui.store.settings import DRUM_MAPS, load_settings

from .common import ExitCode, fail, fail_on, find_session
from .terminal import TerminalGate, TerminalProgress, interactive

if TYPE_CHECKING:
    from .playback import TerminalPlayback

EXIT = {
    "completed": ExitCode.DONE,
    "completed_partial": ExitCode.PARTIAL,
    "failed": ExitCode.FAILED,
    "cancelled": ExitCode.FAILED,
}


def _stage_list(text: str | None, option: str) -> list[int]:
    if not text:
        return []
    try:
        stages = sorted({int(part) for part in text.replace(" ", "").split(",") if part})
    except ValueError:
        raise click.BadParameter("give stage numbers like 2,4", param_hint=option) from None
    if any(not 1 <= s <= 8 for s in stages):
        raise click.BadParameter("stages are numbered 1 to 8", param_hint=option)
    return stages


@click.command()
@click.argument("prompt")
@click.option("--seed", type=int, help="Same prompt and seed give the same song.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Sessions folder for this run (the session is created inside).",
)
@click.option("--bars", type=click.IntRange(*SONG_BARS), help="Length of the song in bars.")
@click.option("--gates", help="Stages to stop at for approval, e.g. 2,4 (default from settings).")
@click.option("--yes", "-y", is_flag=True, help="Approve every gate without asking.")
@click.option("--skip", help="Stages to skip, e.g. 7,8.")
@click.option("--play", is_flag=True, help="Audition the song when it is written.")
@click.option("--quality-gate", is_flag=True, help="Score the song and regenerate weak stages.")
@click.option(
    "--drum-map",
    type=click.Choice(DRUM_MAPS),
    help="Pad layout of the MPC drum patterns: mpc (factory kits), chromatic (C1 up), gm "
    "(default from settings).",
)
@click.option("--json", "as_json", is_flag=True, help="Print only the manifest JSON.")
def compose(
    prompt: str,
    seed: int | None,
    out_dir: Path | None,
    bars: int | None,
    gates: str | None,
    yes: bool,
    skip: str | None,
    play: bool,
    quality_gate: bool,
    drum_map: str | None,
    as_json: bool,
) -> None:
    """Compose a song from PROMPT and write its session folder ("-" reads it from stdin)."""
    prompt = _read_prompt(prompt, as_json)
    if not prompt.strip():
        raise click.BadParameter(
            'say what you want, e.g. "dark trap, 140, key of Am"', param_hint="PROMPT"
        )
    settings, notices = load_settings()
    console = Console(stderr=as_json)
    for notice in notices:
        console.print(f"[yellow]{notice}[/]")
    approval = _stage_list(gates, "--gates") if gates is not None else list(settings.approval_gates)
    config = PipelineConfig(
        approval_gates=[] if yes else approval,
        skip_stages=_stage_list(skip, "--skip"),
        enable_playback=play,
        enable_quality_gate=quality_gate,
        drum_map=drum_map or settings.drum_map,
    )
    progress = TerminalProgress(console, quiet=as_json)
    gate: ApprovalGate = AutoApprove()
    if config.approval_gates and not interactive():
        console.print("No terminal to ask at the approval gates: approving them automatically.")
    elif config.approval_gates:
        gate = TerminalGate(console, progress)
    root = out_dir or sessions_root(settings.sessions_dir)
    playback = _playback(play, console)
    engine = Orchestrator(product_stages(), root, gate=gate, sink=progress, playback=playback)
    composing = composed(
        engine,
        prompt,
        seed=new_seed(seed),
        config=config,
        default_bars=settings.default_bars,
        bars=bars,
    )
    pipeline = _run(composing, progress, as_json)
    if playback is not None:
        playback.wait()
    _report(pipeline, root, as_json)


def _read_prompt(prompt: str, as_json: bool) -> str:
    """The prompt as typed, or stdin verbatim for "-"; a structured prompt must read as YAML.

    A header block YAML cannot read is a usage error named by its line, before
    any session folder is made.
    """
    if prompt == "-":
        prompt = sys.stdin.read()
    try:
        parse_structured(prompt)
    except StructuredPromptError as exc:
        fail(str(exc), code=ExitCode.USAGE, as_json=as_json)
    return prompt


@click.command()
@click.argument("session")
@click.option("--yes", "-y", is_flag=True, help="Approve every remaining gate without asking.")
@click.option("--json", "as_json", is_flag=True, help="Print only the manifest JSON.")
def resume(session: str, yes: bool, as_json: bool) -> None:
    """Resume a pipeline: SESSION is a session id, a session folder or a pipeline-state.json."""
    console = Console(stderr=as_json)
    session_dir = find_session(session, as_json=as_json, checkpoint_ok=True)
    progress = TerminalProgress(console, quiet=as_json)
    gate: ApprovalGate = (
        TerminalGate(console, progress) if interactive() and not yes else AutoApprove()
    )
    engine = Orchestrator(product_stages(), session_dir.parent, gate=gate, sink=progress)
    resuming = resumed(engine, session_dir, approval_gates=[] if yes else None)
    pipeline = _run(resuming, progress, as_json)
    _report(pipeline, session_dir.parent, as_json)


@click.command()
@click.argument("prompt")
@click.option("--json", "as_json", is_flag=True, help="Print the decomposition as JSON.")
def intent(prompt: str, as_json: bool) -> None:
    """Show how PROMPT is understood: genre, tempo, key, moods, and what was guessed."""
    try:
        result = decompose(prompt)
    except SkillFileError as exc:
        fail_on(exc, as_json=as_json)
    if as_json:
        click.echo(result.to_json())
        return
    i = result.intent
    tempo = i.tempo_analysis
    click.echo(result.summary)
    click.echo(f"  genre     {' + '.join(i.genre)}")
    if tempo:
        feel = f" (feels like {tempo.perceived_bpm:g})" if tempo.half_time else ""
        click.echo(f"  tempo     {tempo.bpm:g} BPM{feel} — {tempo.reasoning}")
    click.echo(f"  key       {i.key} {i.mode}")
    if i.mood:
        click.echo(f"  mood      {', '.join(i.mood)}")
    if i.influences:
        click.echo(f"  influence {', '.join(i.influences)}")
    if result.inferred_fields:
        click.echo(f"  guessed   {', '.join(result.inferred_fields)}")
    for a in i.ambiguities:
        click.echo(f"  ? {a.reason}" + (f" ({', '.join(a.options)})" if a.options else ""))


def _no_write(advice: str) -> str:
    """What to do after the disk refused the session: `advice` (a clause), then compose again."""
    return (
        f"{advice[0].upper()}{advice[1:]} (or choose another folder with --out), then compose "
        "again (`muse-studio sessions clean --incomplete` removes the unfinished session)."
    )


def _run(coro: object, progress: TerminalProgress, as_json: bool) -> ComposerPipeline:
    try:
        pipeline: ComposerPipeline = run_blocking(coro)  # type: ignore[arg-type]
    except CheckpointError as exc:
        fail(str(exc), as_json=as_json)
    except WriteFailed as exc:  # a full disk, a read-only folder: says which file and why
        fail(str(exc), _no_write(write_advice(exc)), as_json=as_json)
    except OSError as exc:  # the sessions folder itself cannot be made or written
        where = f" {exc.filename}" if exc.filename else ""
        fail(
            f"Cannot write the session{where} ({exc.strerror or exc}).",
            "Choose a folder you can write to with --out or MUSE_SESSIONS_DIR, then compose again.",
            as_json=as_json,
        )
    except KeyboardInterrupt:
        fail("Cancelled.", as_json=as_json)
    error = progress.finish_error
    if pipeline.status == "failed" and error is not None and error.code == "FILE_WRITE_FAILED":
        # The engine ended the run on a write the disk refused; its hint says why.
        advice = (error.recovery_hint or "").split(", then ")[0] or "check the folder"
        fail(error.message, _no_write(advice), as_json=as_json)
    return pipeline


def _playback(play: bool, console: Console) -> TerminalPlayback | None:
    if not play:
        return None
    from muse_tui.cli.playback import open_playback  # loads the MIDI backend only when asked

    return open_playback(console)


def _report(pipeline: ComposerPipeline, root: Path, as_json: bool) -> None:
    session_dir = root / pipeline.session_id
    if as_json:
        try:
            click.echo(read_manifest(session_dir).to_json())
        except OSError:
            click.echo(json.dumps({"sessionId": pipeline.session_id, "status": pipeline.status}))
    sys.exit(EXIT[pipeline.status])
