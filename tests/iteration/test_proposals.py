"""Changes proposed before they land: preview writes only the proposal, accept lands the very
bytes a direct change writes, discard leaves nothing, and a stale proposal is refused."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from muse_tui.compose.requests import ChangeRequest
from muse_tui.contracts.editing import ModifySongResult
from muse_tui.contracts.proposal import ProposalResult
from muse_tui.engine.editing import modify
from muse_tui.engine.proposals import ProposalStale, accept, discard, load_pending, preview
from muse_tui.engine.routing import route
from muse_tui.store.checkpoint import load_checkpoint
from muse_tui.store.lock import LOCK_FILE

from .conftest import Session, fixed_clock


def every_file(folder: Path) -> dict[str, str]:
    """Every file of the session, backups included (only the lock file is left out)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != LOCK_FILE
    }


def request(text: str) -> ChangeRequest:
    routed = route(text, session_open=True)
    assert routed.request.kind == "change", text
    return routed.request


def propose(session: Session, text: str) -> ProposalResult:
    pipeline = load_checkpoint(session.folder)
    made = asyncio.run(
        preview(pipeline, request(text), session_dir=session.folder, clock=fixed_clock)
    )
    assert isinstance(made, ProposalResult) and made.status == "proposed", made.summary
    return made


def song_files(folder: Path) -> dict[str, str]:
    return {k: v for k, v in every_file(folder).items() if not k.startswith("proposal/")}


@pytest.mark.parametrize("text", ["Bass too busy, simplify", "change the key to D minor"])
def test_accept_writes_exactly_what_a_direct_change_writes(
    session: Session, tmp_path: Path, text: str
) -> None:
    twin = tmp_path / "direct"
    shutil.copytree(session.folder, twin)
    direct = asyncio.run(modify(load_checkpoint(twin), text, session_dir=twin, clock=fixed_clock))
    assert direct.status == "applied"
    before = every_file(session.folder)

    made = propose(session, text)

    assert song_files(session.folder) == before  # the song and its files are untouched
    assert made.proposal is not None and made.proposal.changed_files == direct.updated_files
    assert load_checkpoint(session.folder).song_state.history == []
    accepted = accept(load_checkpoint(session.folder), session.folder)
    assert accepted.status == "applied"
    assert every_file(session.folder) == every_file(twin)  # byte for byte, every file
    assert not (session.folder / "proposal").exists()
    assert accepted.history_entry == direct.history_entry
    assert accepted.updated_files == direct.updated_files
    assert accepted.summary == direct.summary
    assert accepted.song_state == direct.song_state


def test_discard_leaves_the_session_as_it_was(session: Session) -> None:
    before = every_file(session.folder)
    propose(session, "Bass too busy, simplify")
    assert (session.folder / "proposal/proposal.json").is_file()

    gone = discard(load_checkpoint(session.folder), session.folder)

    assert gone.status == "discarded" and "Bass too busy" in gone.summary
    assert every_file(session.folder) == before
    assert load_checkpoint(session.folder).song_state.history == []
    again = discard(load_checkpoint(session.folder), session.folder)
    assert again.status == "nothing" and again.summary.startswith("There is no proposal")


def test_a_proposal_is_heard_as_the_song_it_would_make(session: Session) -> None:
    made = propose(session, "Bass too busy, simplify")
    pending = load_pending(session.folder)  # as a restarted studio reads it
    assert pending is not None
    current = load_checkpoint(session.folder).song_state
    proposed = pending.pipeline.song_state
    assert proposed == made.pipeline.song_state
    assert proposed.track("bass") != current.track("bass")
    assert proposed.track("drums") == current.track("drums")
    bass = sum(len(r.notes) for r in proposed.track("bass").regions)
    assert bass < sum(len(r.notes) for r in current.track("bass").regions)  # simpler: fewer notes


def test_a_new_proposal_replaces_the_pending_one(session: Session) -> None:
    propose(session, "Bass too busy, simplify")
    made = propose(session, "change the key to D minor")
    assert made.replaced == "Bass too busy, simplify"
    assert "replaces the proposal “Bass too busy, simplify”" in made.summary
    pending = load_pending(session.folder)
    assert pending is not None and pending.proposal.request == "change the key to D minor"
    assert pending.pipeline.song_state.key == "D"


def test_a_proposal_made_on_an_older_song_is_refused(session: Session, tmp_path: Path) -> None:
    propose(session, "change the key to D minor")
    # Another muse-studio changes the song meanwhile (it had not seen the proposal).
    other = tmp_path / "elsewhere"
    shutil.copytree(session.folder, other, ignore=shutil.ignore_patterns("proposal"))
    asyncio.run(modify(load_checkpoint(other), "louder bass", session_dir=other, clock=fixed_clock))
    for name in ("state/pipeline-state.json", "state/song-state.json"):
        shutil.copy(other / name, session.folder / name)
    before = every_file(session.folder)

    with pytest.raises(ProposalStale, match="older version of the song"):
        accept(load_checkpoint(session.folder), session.folder)
    assert every_file(session.folder) == before


def test_a_direct_change_drops_a_pending_proposal(session: Session) -> None:
    propose(session, "change the key to D minor")
    done = asyncio.run(
        modify(
            load_checkpoint(session.folder),
            "louder bass",
            session_dir=session.folder,
            clock=fixed_clock,
        )
    )
    assert done.status == "applied" and not any(
        f.startswith("proposal") for f in done.updated_files
    )
    assert load_pending(session.folder) is None
    assert not (session.folder / "proposal").exists()


def test_a_cheap_change_below_the_floor_is_made_at_once(session: Session, tmp_path: Path) -> None:
    twin = tmp_path / "direct"
    shutil.copytree(session.folder, twin)
    asyncio.run(modify(load_checkpoint(twin), "louder bass", session_dir=twin, clock=fixed_clock))
    made = asyncio.run(
        preview(
            load_checkpoint(session.folder),
            request("louder bass"),
            session_dir=session.folder,
            clock=fixed_clock,
            floor="moderate",
        )
    )
    assert isinstance(made, ModifySongResult) and made.status == "applied"
    assert every_file(session.folder) == every_file(twin)


KILLED_AFTER_THE_COMMIT_POINT = """
real = transaction._roll_forward
def killed(session_dir, entries, removes):
    target = session_dir / entries[0]["target"]
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(session_dir / ".muse-change" / entries[0]["temp"], target)
    os.kill(os.getpid(), signal.SIGKILL)  # one file renamed, the rest not
transaction._roll_forward = killed
"""
KILLED_BEFORE_THE_COMMIT_POINT = """
real = transaction._write_synced
def killed(path, data):
    if path.name == transaction.JOURNAL:
        os.kill(os.getpid(), signal.SIGKILL)  # the files staged, the journal never written
    real(path, data)
transaction._write_synced = killed
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kill", "whole"),
    [(KILLED_AFTER_THE_COMMIT_POINT, True), (KILLED_BEFORE_THE_COMMIT_POINT, False)],
    ids=["after-commit-point", "before-commit-point"],
)
def test_a_killed_proposal_writer_leaves_none_or_a_whole_one(
    session: Session, kill: str, whole: bool
) -> None:
    """kill -9 while the proposal is written: reopening finds a whole proposal, or none."""
    script = (
        "import asyncio, os, signal\n"
        "from pathlib import Path\n"
        "import muse_tui.store.transaction as transaction\n"
        "from muse_tui.engine.proposals import preview\n"
        "from muse_tui.engine.routing import route\n"
        "from muse_tui.store.checkpoint import load_checkpoint\n"
        f"folder = Path({str(session.folder)!r})\n"
        + kill
        + "request = route('Bass too busy, simplify', session_open=True).request\n"
        "asyncio.run(preview(load_checkpoint(folder), request, session_dir=folder))\n"
    )
    before = song_files(session.folder)
    done = subprocess.run([sys.executable, "-c", script], check=False)
    assert done.returncode == -9
    pending = load_pending(session.folder)  # recovers first, as opening the session does
    assert song_files(session.folder) == before
    if not whole:
        assert pending is None and not (session.folder / "proposal/proposal.json").exists()
        return
    assert pending is not None and pending.pipeline.song_state.history[-1].user_text
    for name in pending.proposal.changed_files:
        assert (session.folder / "proposal/files" / name).is_file()
