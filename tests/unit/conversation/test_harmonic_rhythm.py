"""Issue 31: "faster chord changes" doubles the chord changes per bar, in the scope named only.

Read from the MIDI: a chord change is an onset of the chords part whose pitch
classes differ from the onset before. The changes per bar in scope must double
(the same chords, twice as often); the drums' file is byte for byte as it was,
and outside a named section the chords part plays the same notes.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from muse_tui.engine.editing import modify
from muse_tui.engine.protocols import AutoApprove
from muse_tui.store.checkpoint import load_checkpoint

from .harness import _clock, compose_songs, midi_notes, table

pytestmark = pytest.mark.slow
BAR = 4.0


def changes(notes: list[tuple[float, int, int, float]], spans: list[tuple[int, int]]) -> int:
    """How many times the chord (the onset's pitch classes) changes inside the bar spans."""
    onsets: dict[float, set[int]] = {}
    for start, pitch, _, _ in notes:
        onsets.setdefault(round(start * 8) / 8, set()).add(pitch % 12)
    count, before = 0, None
    for at in sorted(onsets):
        chord = frozenset(onsets[at])
        inside = any(a * BAR <= at < b * BAR for a, b in spans)
        if inside and before is not None and chord != before:
            count += 1
        before = chord
    return count


@pytest.fixture(scope="module")
def pop(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("harmonic")
    return compose_songs(root, {"pop": table()["songs"]["pop"]})["pop"]


def _edited(song, say: str, tmp_path: Path) -> Path:
    import shutil

    folder = tmp_path / song.folder.name
    shutil.copytree(song.folder, folder)
    result = asyncio.run(
        modify(load_checkpoint(folder), say, session_dir=folder, gate=AutoApprove(), clock=_clock)
    )
    assert result.status == "applied", result.summary
    return folder


@pytest.mark.parametrize(
    ("say", "kind"),
    [("faster chord changes", None), ("faster chord changes in the choruses", "chorus")],
)
def test_faster_chord_changes_double_the_changes_per_bar_in_scope(
    pop, tmp_path: Path, say: str, kind: str | None
) -> None:
    folder = _edited(pop, say, tmp_path)
    sections = pop.pipeline.song_state.arrangement.sections
    scope = [(s.start_bar, s.end_bar) for s in sections if kind in (None, s.kind)]
    rest = [(s.start_bar, s.end_bar) for s in sections if kind not in (None, s.kind)]
    old, new = (
        midi_notes(pop.folder / "midi" / "chords.mid"),
        midi_notes(folder / "midi" / "chords.mid"),
    )
    before, after = changes(old, scope), changes(new, scope)
    assert after >= 1.8 * before > 0, f"{before} → {after} chord changes in scope"
    assert {n[1] % 12 for n in new} <= {n[1] % 12 for n in old}, "new chords appeared"
    assert (folder / "midi" / "drums.mid").read_bytes() == (
        pop.folder / "midi" / "drums.mid"
    ).read_bytes()
    outside = lambda ns: Counter(n for n in ns if any(a * BAR <= n[0] < b * BAR for a, b in rest))  # noqa: E731
    for stem in ("chords", "bass", "lead"):
        was, now = (midi_notes(f / "midi" / f"{stem}.mid") for f in (pop.folder, folder))
        assert outside(now) == outside(was), f"the {stem} changed outside the scope"
    assert load_checkpoint(folder).song_state.tempo == pop.pipeline.song_state.tempo
