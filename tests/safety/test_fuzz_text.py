"""Any text a producer can type, paste or pipe in: only documented errors, and files it can write.

Prompts and edits come from hypothesis with every kind of character: lone
surrogates (bytes that were not UTF-8, as Python hands them over from argv),
control characters, emoji, right-to-left text, mixed with the words the readers
know. Example counts stay small so the suite stays quick; `bench`-sized runs
are `HYPOTHESIS_PROFILE`-free: raise `max_examples` by hand to go looking.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muse_tui.compose.intent.decompose import decompose
from muse_tui.compose.intent.structured import StructuredPromptError
from muse_tui.compose.requests import parse_request
from muse_tui.contracts import ComposerPipeline
from muse_tui.engine.editing import modify
from muse_tui.engine.orchestrator import run_blocking
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.backups import keep_as_backup
from muse_tui.store.checkpoint import load_checkpoint
from tests.safety.test_fuzz import PROMPT_WORDS, REQUEST_WORDS

#: Every character hypothesis draws (controls included), and lone surrogates, which it never does.
ANY_CHARACTER = st.one_of(
    st.characters(codec=None, exclude_categories=()),
    st.integers(0xD800, 0xDFFF).map(chr),
)
WORD_OR_NOISE = st.one_of(
    st.sampled_from(PROMPT_WORDS + REQUEST_WORDS + ["no", "drums", "half-time", "\n", ","]),
    st.text(ANY_CHARACTER, min_size=1, max_size=6),
)
TEXT = st.lists(WORD_OR_NOISE, max_size=14).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_any_prompt_reads_into_an_intent_that_can_be_written(prompt: str) -> None:
    try:
        result = decompose(prompt)
    except StructuredPromptError:  # documented: a STORI PROMPT line it cannot place
        return
    json.loads(result.intent.to_json())  # no character that UTF-8 cannot hold


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_any_edit_reads_into_a_request_that_can_be_written(text: str) -> None:
    request = parse_request(text)
    request.text.encode("utf-8")


@pytest.fixture(scope="module")
def composed_pipeline(composed: Path) -> ComposerPipeline:
    return load_checkpoint(composed)


@pytest.fixture
def pipeline(composed_pipeline: ComposerPipeline) -> ComposerPipeline:
    return composed_pipeline.model_copy(deep=True)  # modify changes the pipeline it is given


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(TEXT)
def test_any_edit_to_a_song_is_applied_or_refused_in_a_sentence(
    pipeline: ComposerPipeline, text: str
) -> None:
    song = pipeline.model_copy(deep=True)
    result = run_blocking(modify(song, text))  # no session folder: nothing is written
    assert result.summary and "\n" not in result.summary.strip()
    result.pipeline.to_json().encode("utf-8")


@pytest.mark.parametrize("text", ["half-time no drums", "half time, no keys"])
def test_an_edit_that_removes_a_track_it_also_retimes_is_applied(
    pipeline: ComposerPipeline, text: str
) -> None:
    result = run_blocking(modify(pipeline, text))
    assert result.status == "applied", result.summary


def test_a_non_utf8_byte_in_a_prompt_is_read_as_a_replacement_character() -> None:
    result = decompose("dark trap \udcff\udcfe, 140")
    assert result.intent.tempo == 140
    assert "\udcff" not in result.intent.to_json()


def test_a_read_only_state_folder_is_one_sentence_when_backing_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "song-state.json"
    path.write_text("{}")

    def refused(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("os.link", refused)
    monkeypatch.setattr(Path, "unlink", refused)
    monkeypatch.setattr("tempfile.mkstemp", refused)
    with pytest.raises(WriteFailed, match="Permission denied"):
        keep_as_backup(path)
