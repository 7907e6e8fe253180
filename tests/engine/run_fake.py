"""A separate process that runs the fake pipeline, so a test can SIGKILL it mid-run.

Usage: python -m tests.engine.run_fake SESSIONS_ROOT SESSION_ID SEED STALL_STAGE_4_SECONDS
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from muse_tui.contracts import PipelineConfig
from tests.engine.fakes import Knobs, orchestrator


def main() -> None:
    root, session, seed, stall = sys.argv[1:5]
    engine, _ = orchestrator(Path(root), Knobs(stall={4: float(stall)}))
    config = PipelineConfig(approval_gates=[])
    asyncio.run(engine.run("kill me", seed=int(seed), config=config, session_id=session))


if __name__ == "__main__":
    main()
