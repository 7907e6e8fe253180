"""Composing a session, resuming one, and opening one from disk.

The front ends build the `Orchestrator` (they own its gate, its event sink and
its playback) and hand it here; what a compose is given and what a resume
keeps of the run it continues are decided once.
"""

from __future__ import annotations

import contextlib
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from muse_tui.contracts import ComposerPipeline, PipelineConfig, SongState
    from muse_tui.engine.orchestrator import Orchestrator


def new_seed(seed: int | None = None) -> int:
    """The seed asked for, else a fresh one."""
    return seed if seed is not None else random.randrange(2**31)


def length_answers(default_bars: int, bars: int | None = None) -> dict[str, str]:
    """A length asked for settles the song; else the producer's default, which the prompt beats."""
    return {"bars": str(bars)} if bars else {"default_bars": str(default_bars)}


async def compose(
    engine: Orchestrator,
    prompt: str,
    *,
    seed: int,
    config: PipelineConfig,
    default_bars: int,
    bars: int | None = None,
    session_id: str | None = None,
) -> ComposerPipeline:
    """Compose a new session from the prompt.

    Raises OSError, before any stage runs, when the sessions folder cannot be made
    (a file where it should be, no permission): no run starts that could not be kept.
    """
    engine.sessions_root.mkdir(parents=True, exist_ok=True)
    answers = length_answers(default_bars, bars)
    return await engine.run(
        prompt, seed=seed, config=config, session_id=session_id, answers=answers
    )


async def resume(
    engine: Orchestrator, folder: Path, *, approval_gates: list[int] | None = None
) -> ComposerPipeline:
    """Continue a stopped run with its own settings; `approval_gates` replaces its gates."""
    from muse_tui.store.checkpoint import load_checkpoint

    config = load_checkpoint(folder).config
    if approval_gates is not None:
        config = config.model_copy(update={"approval_gates": approval_gates})
    return await engine.resume(folder, config=config)


def open_song(folder: Path) -> tuple[ComposerPipeline, SongState]:
    """A session's record and its song (the song file when newer than the checkpoint's copy).

    Raises `CheckpointError` when the record cannot be read.
    """
    from muse_tui.contracts import SongState
    from muse_tui.store.checkpoint import load_checkpoint, song_path

    pipeline = load_checkpoint(folder)
    song = pipeline.song_state  # the checkpoint holds the song; the song file may be newer
    with contextlib.suppress(OSError, ValueError):
        song = SongState.from_json(song_path(folder).read_bytes())
    return pipeline, song
