"""`muse-studio sessions list | show | clean`: the session folders on disk.

Exit codes (`common.ExitCode`): 0 ok, 1 failure (a missing session, a file that cannot
be read or removed), 2 bad usage (not a session id, a clean that needs confirming).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from muse_tui.store.atomic import WriteFailed
from muse_tui.store.checkpoint import CheckpointError, load_checkpoint
from muse_tui.store.manifest import MANIFEST_FILE, read_manifest
from muse_tui.store.sessions import (
    CleanReport,
    SessionSummary,
    clean_sessions,
    list_sessions,
    read_summary,
    sessions_root,
)

from .common import ExitCode, fail, find_session


@click.group("sessions")
def sessions() -> None:
    """List, inspect and clean up session folders."""


@sessions.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def list_command(as_json: bool) -> None:
    """Every session, newest first: id, date, genre, key, tempo, status."""
    root = sessions_root()
    try:
        found = list_sessions(root)
    except OSError as exc:
        fail(
            f"Cannot read the sessions folder {root} ({exc.strerror or exc}).",
            "Check it exists and is readable, or set MUSE_SESSIONS_DIR.",
        )
    if as_json:
        click.echo(json.dumps([s.to_dict() for s in found], indent=2))
        return
    if not found:
        click.echo(f"No sessions in {root} yet.")
        return
    rows = [["SESSION", "DATE", "GENRE", "KEY", "TEMPO", "STATUS"]]
    rows += [
        [s.session_id, s.date_text, s.genre or "-", s.key or "-", _tempo(s.tempo), _status(s)]
        for s in found
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


@sessions.command("show")
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def show_command(session: str, as_json: bool) -> None:
    """Details of one session: SESSION is an id or a path to a session folder."""
    folder = find_session(session, as_json=as_json)
    summary = read_summary(folder)
    if summary.complete:
        _show_complete(folder, summary, as_json)
    else:
        _show_incomplete(folder, summary, as_json)


@sessions.command("clean")
@click.option("--older-than", "older_than", type=click.FloatRange(min=0), metavar="DAYS",
              help="Delete sessions created more than DAYS days ago.")  # fmt: skip
@click.option("--incomplete", is_flag=True, help="Delete sessions that never finished.")
@click.option("--yes", is_flag=True, help="Do not ask before deleting.")
def clean_command(older_than: float | None, incomplete: bool, yes: bool) -> None:
    """Remove leftover temp files, and sessions when asked (a complete one only by age)."""
    root = sessions_root()
    try:
        plan = clean_sessions(root, older_than, incomplete, dry_run=True)
    except OSError as exc:
        fail(
            f"Cannot read the sessions folder {root} ({exc.strerror or exc}).",
            "Check it exists and is readable, or set MUSE_SESSIONS_DIR.",
        )
    for spared in plan.busy:
        click.echo(f"Leaving {spared.session_id}: it was written in the last minute.")
    if plan.is_empty:
        click.echo("Nothing to clean.")
        return
    click.echo(_plan_text(plan))
    if not yes:
        if not _stdin_is_terminal():
            fail(
                "Refusing to delete without confirmation.",
                "Run it in a terminal or add --yes.",
                code=ExitCode.USAGE,
            )
        if not click.confirm("Delete them?", default=False):
            click.echo("Nothing deleted.")
            return
    try:
        done = clean_sessions(root, older_than, incomplete)
    except OSError as exc:  # WriteFailed already says which file and why
        fail(
            str(exc) if isinstance(exc, WriteFailed) else f"cleaning failed: {exc}",
            "Check the folder's permissions and run clean again.",
        )
    click.echo(
        f"Removed {_count(len(done.sessions), 'session')} and "
        f"{_count(len(done.temp_files), 'leftover temp file')}."
    )


def _show_complete(folder: Path, summary: SessionSummary, as_json: bool) -> None:
    try:
        manifest = read_manifest(folder)
    except (OSError, ValueError):
        fail(
            f"{folder / MANIFEST_FILE} cannot be read; the session's other files are intact.",
            f"`muse-studio resume {folder.name}` writes it again.",
            as_json=as_json,
        )
    if as_json:
        click.echo(manifest.to_json())
        return
    _echo_fields(
        [
            ("Session", manifest.session_id),
            ("Folder", str(folder)),
            ("Created", summary.date_text),
            ("Status", manifest.status),
            ("Prompt", manifest.prompt),
            ("Genre", manifest.genre),
            ("Key", manifest.key),
            ("Tempo", f"{manifest.tempo:g} BPM"),
            ("Bars", str(manifest.total_bars)),
            ("Tracks", str(manifest.track_count)),
        ]
    )
    quality = manifest.quality_score_summary
    if quality is not None:
        verdict = "passed" if quality.passed else "below the bar"
        click.echo(f"Quality:  {quality.composite:.2f} ({verdict})")
    click.echo("\nFiles:")
    for file in manifest.files:
        click.echo(f"  {file.path:<34} {file.size_bytes:>9,} B  {file.description}")
    ran = [t for t in manifest.stage_timings if t.duration_ms > 0]
    if ran:
        click.echo("\nStages:")
        for timing in ran:
            retries = f", {timing.retry_count} retries" if timing.retry_count else ""
            click.echo(
                f"  {timing.stage}. {timing.name:<12} {timing.duration_ms:>9.0f} ms{retries}"
            )


def _show_incomplete(folder: Path, summary: SessionSummary, as_json: bool) -> None:
    try:
        pipeline = load_checkpoint(folder)
    except CheckpointError as exc:
        if as_json:
            click.echo(json.dumps({**summary.to_dict(), "error": str(exc)}, indent=2))
            return
        fail(f"{summary.session_id} is incomplete and {exc}")
    stages = {
        str(n): {"name": r.name, "status": r.status, "durationMs": r.duration_ms}
        for n, r in sorted(pipeline.stages.items())
    }
    if as_json:
        details: dict[str, Any] = {
            **summary.to_dict(),
            "lastSuccessfulStage": pipeline.recovery.last_successful_stage,
            "stages": stages,
        }
        click.echo(json.dumps(details, indent=2))
        return
    _echo_fields(
        [
            ("Session", summary.session_id),
            ("Folder", str(folder)),
            ("Created", summary.date_text),
            ("Status", f"{pipeline.status} (incomplete: no manifest)"),
            ("Prompt", pipeline.raw_prompt),
            ("Last good stage", str(pipeline.recovery.last_successful_stage)),
        ]
    )
    for number, record in sorted(pipeline.stages.items()):
        click.echo(f"  {number}. {record.name:<12} {record.status}")
    click.echo(f"Resume it with `muse-studio resume {summary.session_id}`.")


def _plan_text(plan: CleanReport) -> str:
    lines = [
        f"Will remove {_count(len(plan.sessions), 'session')} and "
        f"{_count(len(plan.temp_files), 'leftover temp file')}:"
    ]
    lines += [
        f"  {s.session_id}  {s.date_text}  {'complete' if s.complete else 'incomplete'}  {s.status}"
        for s in plan.sessions
    ]
    lines += [f"  {p}" for p in plan.temp_files]
    return "\n".join(lines)


def _echo_fields(fields: list[tuple[str, str]]) -> None:
    width = max(len(label) for label, _ in fields) + 1
    for label, value in fields:
        click.echo(f"{label + ':':<{width}} {' '.join(value.split()) or '-'}")


def _stdin_is_terminal() -> bool:
    return sys.stdin.isatty()


def _tempo(tempo: float | None) -> str:
    return f"{tempo:g}" if tempo is not None else "-"


def _status(summary: SessionSummary) -> str:
    return summary.status if summary.complete else f"{summary.status} (incomplete)"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
