"""Issue 31: a scoped edit stands: a later request that writes the part again keeps it.

Each case runs the scoped edit, then a request that regenerates the part (for
another reason), and compares with that second request alone on the same song:
inside the scope the part is the control's notes with the scoped edit on them,
outside it the control's notes exactly.
"""

from __future__ import annotations

import asyncio
import shutil
from collections import Counter
from pathlib import Path

import pytest

from muse_tui.engine.editing import modify
from muse_tui.engine.protocols import AutoApprove
from muse_tui.store.checkpoint import load_checkpoint

from .harness import EARLY, Song, _clock, compose_songs, stems, table

pytestmark = pytest.mark.slow

CASES = [
    # song, scoped edit, then, part, (first bar, last bar) or section kind, octave step
    ("pop", "bass up an octave in the chorus", "darker chords", "bass", "chorus", 12),
    ("trap", "take the drums out of the first 8 bars", "more swing", "drums", (1, 8), None),
    ("pop", "bass down an octave in bars 9-16", "make it jazzier", "bass", (9, 16), -12),
    ("trap", "no kick in the first hook", "busier drums", "drums", "Hook 1", None),
]


@pytest.fixture(scope="module")
def songs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Song]:
    specs = {name: table()["songs"][name] for name in ("pop", "trap")}
    return compose_songs(tmp_path_factory.mktemp("standing"), specs)


def _run(song: Song, lines: list[str], folder: Path) -> dict:
    shutil.copytree(song.folder, folder)
    for line in lines:
        result = asyncio.run(
            modify(load_checkpoint(folder), line, session_dir=folder, gate=AutoApprove(),
                   clock=_clock)
        )  # fmt: skip
        assert result.status == "applied", (line, result.summary)
    return stems(folder)


@pytest.mark.parametrize(("name", "scoped", "then", "part", "where", "step"), CASES)
def test_a_scoped_edit_outlives_a_regeneration(
    songs: dict[str, Song], tmp_path: Path, name, scoped, then, part, where, step
) -> None:
    song = songs[name]
    both = _run(song, [scoped, then], tmp_path / "both" / song.folder.name)
    alone = _run(song, [then], tmp_path / "alone" / song.folder.name)
    bar = song.state.beats_per_bar
    sections = song.state.arrangement.sections
    if isinstance(where, tuple):
        spans = [((where[0] - 1) * bar, where[1] * bar)]
    elif where in {s.kind for s in sections}:
        spans = [(s.start_bar * bar, s.end_bar * bar) for s in sections if s.kind == where]
    else:
        spans = [next((s.start_bar * bar, s.end_bar * bar) for s in sections if s.name == where)]
    kicks = {35, 36} if "kick" in scoped else None

    def inside(note) -> bool:
        in_span = any(a - EARLY <= note[0] < b - EARLY for a, b in spans)
        return in_span and (kicks is None or note[1] in kicks)

    got_in = Counter(n for n in both[part] if inside(n))
    control_in = [n for n in alone[part] if inside(n)]
    assert control_in, "the control plays nothing there: the case shows nothing"
    if step is None:
        assert not got_in, f"{sum(got_in.values())} notes play where the edit took them out"
    else:
        moved = Counter((n[0], n[1] + step, *n[2:]) for n in control_in)
        assert got_in == moved, "the regenerated part lost the scoped octave"
    assert Counter(n for n in both[part] if not inside(n)) == Counter(
        n for n in alone[part] if not inside(n)
    ), "outside the scope the part is not the regeneration's"
