"""Issue 15: sixty everyday edits, each understood and heard in the files it rewrites.

The table is `everyday.EVERYDAY` (shared with `bench/edits.py`); four seeded
songs are composed once for the module.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from muse_tui.compose.requests import parse_request
from muse_tui.engine.editing import modify
from muse_tui.knowledge import BUNDLED_SKILLS, SkillFileError
from muse_tui.knowledge.questions import question_table
from muse_tui.store.checkpoint import load_checkpoint

from .everyday import BACKBEAT, EVERYDAY, Case, Song, compose_songs, midi_notes, run_case


@pytest.fixture(scope="module")
def songs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Song]:
    return compose_songs(tmp_path_factory.mktemp("everyday"))


def test_the_set_is_sixty_requests_over_every_brief_item() -> None:
    texts = [c.text for c in EVERYDAY]
    assert len(texts) == 60 and len(set(texts)) == 60
    assert sum(c.vague for c in EVERYDAY) >= 3


@pytest.mark.parametrize("case", EVERYDAY, ids=[f"{c.song}: {c.text}" for c in EVERYDAY])
def test_an_everyday_edit_is_understood_and_heard(
    case: Case, songs: dict[str, Song], tmp_path: Path
) -> None:
    outcome = run_case(case, songs, tmp_path)
    assert outcome.understood, outcome.why
    assert outcome.heard, outcome.why


def test_every_option_offered_for_a_vague_wish_is_a_change_the_edits_read() -> None:
    for axis in question_table().vague.axes.values():
        for option in axis.options:
            assert parse_request(option).kind == "change", option


@pytest.mark.parametrize(
    "text", ["make it better", "I don't like it", "make this more interesting", "meh"]
)
def test_a_vague_wish_is_read_as_vague_not_praise(text: str) -> None:
    assert parse_request(text).kind == "vague"


def test_a_build_still_leads_into_the_drop_after_the_verse_grows(
    songs: dict[str, Song], tmp_path: Path
) -> None:
    """The bars a longer verse opens are written with the standing edits, build included."""
    song = songs["house"]
    folder = tmp_path / song.folder.name
    shutil.copytree(song.folder, folder)
    for text in ("build into the drop", "make the verse 4 bars longer"):
        result = asyncio.run(modify(load_checkpoint(folder), text, session_dir=folder))
        assert result.status == "applied", result.summary
    after = load_checkpoint(folder).song_state
    drop = next(s for s in after.arrangement.sections if s.kind == "drop")  # type: ignore[union-attr]
    end = drop.start_bar * after.beats_per_bar
    bar = after.beats_per_bar
    snares = [n for n in midi_notes(folder / "midi" / "drums.mid") if end - bar <= n[0] < end]
    assert sum(n[1] in BACKBEAT for n in snares) >= 12, snares


def test_a_vague_axis_that_is_no_critic_axis_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS, root)
    path = root / "iteration" / "questions.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["vague"]["axes"]["melody"] = data["vague"]["axes"]["harmony"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SkillFileError, match=r"questions\.json.*vague\.axes\.melody"):
        question_table(root)
