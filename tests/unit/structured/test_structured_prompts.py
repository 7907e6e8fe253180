"""Structured prompts: what the headers set is composed exactly, never asked, never an artist."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muse_tui.cli import main
from muse_tui.compose.intent import decompose
from muse_tui.compose.intent.structured import (
    HEADERS,
    StructuredPromptError,
    looks_structured,
    parse_structured,
)
from muse_tui.store.checkpoint import load_checkpoint

EXAMPLES = Path(__file__).parents[2] / "data" / "structured"


def _example(name: str) -> str:
    return (EXAMPLES / f"{name}.txt").read_text()


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.txt")), ids=lambda p: p.stem)
def test_every_example_parses(path: Path) -> None:
    parsed = parse_structured(path.read_text())
    assert parsed is not None
    assert parsed.mode in ("compose", "edit", "ask")
    assert parsed.request


def test_the_seed_compose_example_reads_every_field() -> None:
    parsed = parse_structured(_example("compose-advanced"))
    assert parsed is not None
    assert (parsed.style, parsed.key, parsed.tempo, parsed.bars) == (
        "melodic techno",
        "F#m",
        126,
        16,
    )
    assert parsed.roles == ("drums", "bass", "arp", "pad")
    assert parsed.instruments == ("analog kick", "sub bass", "pluck")
    assert dict(parsed.vibes) == {"darker": 2, "hypnotic": 3, "wider": 1}
    assert parsed.request.startswith("Build an intro groove")


def test_expressiveness_and_effects_blocks_are_kept() -> None:
    parsed = parse_structured(_example("expressive"))
    assert parsed is not None
    assert parsed.effects == {"keys": ("chorus",), "lead": ("delay",)}
    assert parsed.expressiveness["sustain_pedal"] == "keys"
    assert parsed.expressiveness["cc_curves"][0]["cc"] == 74


def test_a_sentence_is_not_structured() -> None:
    assert parse_structured("dark trap at 140 in Am, key of the night") is None
    assert not looks_structured("Make me a beat: trap, 140")
    assert looks_structured("\n  \nStyle: trap\nKey: Am")
    assert not looks_structured("tempo: 87, boom-bap, Am")  # one header-like line is a sentence
    assert decompose("tempo: 87, boom-bap, Am").intent.genre == ["boom_bap"]


def test_what_the_headers_set_is_settled_and_not_asked() -> None:
    result = decompose(_example("compose-advanced"))
    intent = result.intent
    assert result.ready_to_execute
    assert (intent.tempo, intent.key, intent.mode) == (126, "F#", "minor")
    assert intent.roles == ["drums", "bass", "arp", "pad"]
    assert intent.duration is not None and (intent.duration.min, intent.duration.max) == (16, 16)
    assert not {"tempo", "key", "mode", "roles", "duration", "genre"} & set(result.inferred_fields)
    assert intent.tempo_analysis is not None and intent.tempo_analysis.source == "explicit"
    assert intent.key_analysis is not None and intent.key_analysis.source == "explicit"
    assert not intent.blocking_ambiguities


def test_unknown_headers_warn_once_by_name_and_never_become_artists() -> None:
    prompt = (
        "STORI PROMPT\nStyle: boom bap\nProducer: Zorblax Quintero\nMood Board: Zorblax\n"
        "Request:\nA dusty loop for Zorblax Quintero to rap over.\n"
    )
    intent = decompose(prompt).intent
    assert intent.influences == [] and intent.influence_analysis == []
    reasons = [a.reason for a in intent.ambiguities]
    assert sum("'Producer'" in r for r in reasons) == 1
    assert all(a.severity == "optional" for a in intent.ambiguities)


def test_the_energy_header_is_read_as_a_mood() -> None:
    calm = decompose("STORI PROMPT\nStyle: trap\nEnergy: low\n").intent
    lively = decompose("STORI PROMPT\nStyle: trap\nEnergy: high\n").intent
    assert "energetic" in lively.mood and "energetic" not in calm.mood
    assert lively.tempo > calm.tempo


def test_a_vague_style_is_not_asked_about() -> None:
    result = decompose("STORI PROMPT\nMode: compose\nStyle: something cool\nRequest: a song")
    assert result.ready_to_execute


def test_composing_from_stdin_makes_exactly_what_the_headers_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    prompt = _example("compose-advanced")
    result = CliRunner().invoke(main, ["compose", "-", "--yes", "--seed", "3"], input=prompt)
    assert result.exit_code == 0, result.output
    assert "don't know" not in result.output
    (session,) = (tmp_path / "sessions").iterdir()
    pipeline = load_checkpoint(session)
    song = pipeline.song_state
    assert pipeline.raw_prompt == prompt  # stdin verbatim
    assert (song.tempo, song.key, song.mode) == (126, "F#", "minor")
    assert sorted(t.role for t in song.tracks) == ["arp", "bass", "drums", "pad"]
    assert song.arrangement is not None and song.arrangement.total_bars == 16
    assert all(t.notes for t in song.tracks)
    # The instruments the constraints name play the listed roles they fit.
    sounds = {t.role: (t.name, t.program) for t in song.tracks}
    assert sounds["bass"] == ("Sub Bass", 38) and sounds["arp"] == ("Pluck", 84)
    # The title is the request, on one line, not the header block.
    assert song.title.startswith("Build an intro groove that evolves") and "\n" not in song.title


def test_a_yaml_error_is_one_sentence_naming_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    broken = "STORI PROMPT\nMode: compose\nStyle: trap\nRole:\n  - drums\n - bass\n"
    result = CliRunner().invoke(main, ["compose", "-", "--yes"], input=broken)
    assert result.exit_code == 2
    message = result.output.strip()
    assert "line 6" in message and "- bass" in message
    assert len(message.splitlines()) == 1 and message.count(". ") == 0
    assert not (tmp_path / "sessions").exists() or not any((tmp_path / "sessions").iterdir())


def test_parse_errors_name_the_producers_line() -> None:
    with pytest.raises(StructuredPromptError) as caught:
        parse_structured("STORI PROMPT\nStyle: trap\nKey: [Am\n")
    assert caught.value.line is not None and caught.value.line >= 3


_HEADER_NAMES = st.sampled_from([*HEADERS, "Producer", "mode", "STYLE", "x"])
_VALUES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["trap", "F#m", "126", "[a, b", "- kick", "{x: 1}", "&a [1]", "*a", "|", ">"]),
    st.integers(-(10**6), 10**6).map(str),
)
_LINES = st.one_of(
    st.builds(lambda h, v: f"{h}: {v}", _HEADER_NAMES, _VALUES),
    st.builds(lambda v: f"- {v}", _VALUES),
    st.builds(lambda v: f"  {v}", _VALUES),
    _VALUES,
)
_PROMPTS = st.builds(
    lambda banner, lines: "\n".join(([banner] if banner else []) + lines),
    st.sampled_from(["STORI PROMPT", "stori prompt", "", "Mode: compose"]),
    st.lists(_LINES, max_size=12),
)


def _parses_or_fails_in_one_sentence(prompt: str) -> None:
    try:
        parse_structured(prompt)
    except StructuredPromptError as exc:
        assert str(exc).endswith(".") and "\n" not in str(exc)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(
    max_examples=10_000,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(_PROMPTS)
def test_ten_thousand_fuzzed_structured_prompts_raise_nothing_else(prompt: str) -> None:
    _parses_or_fails_in_one_sentence(prompt)


@settings(
    max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(_PROMPTS)
def test_fuzzed_structured_prompts_raise_nothing_else(prompt: str) -> None:
    """The quick suite's share of the 10,000 (run with -m slow)."""
    _parses_or_fails_in_one_sentence(prompt)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(_PROMPTS)
def test_fuzzed_structured_prompts_decompose_or_fail_in_one_sentence(prompt: str) -> None:
    try:
        result = decompose(prompt)
    except StructuredPromptError:
        return
    assert result.intent.genre
