"""Reading change requests: what, where, and praise or questions that change nothing."""

from __future__ import annotations

import pytest

from muse_tui.compose.requests import parse_request
from muse_tui.engine.routing import route


def _edits(text: str) -> list[tuple[str, str | None, int | None, str | None, object]]:
    return [
        (e.operation, e.scope.role, e.scope.chord, e.scope.section, e.value)
        for e in parse_request(text).edits
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3rd chord too bright, make darker", [("darker", None, 2, None, None)]),
        ("Bass too busy, simplify", [("simpler", "bass", None, None, None)]),
        ("Use a warmer pad preset", [("preset", "pad", None, None, "warm")]),
        ("Change to F# minor", [("key", None, None, None, "F# minor")]),
        ("Slow it down to 85 BPM", [("tempo", None, None, None, 85.0)]),
        ("make it a bit faster", [("tempo_by", None, None, None, 1.05)]),
        ("change the genre from neo soul to trap", [("genre", None, None, None, "trap")]),
        ("make the drums busier in the chorus", [("busier", "drums", None, "chorus", None)]),
        ("add ghost notes to the snare", [("ghost_notes", "drums", None, None, None)]),
        ("more swing on the drums", [("more_swing", "drums", None, None, None)]),
        ("lose the reverb on the pad", [("effect_remove", "pad", None, None, "reverb")]),
        ("change the last chord to Fm7", [("chord", None, -1, None, "Fm7")]),
        ("mute the lead", [("mute", "lead", None, None, None)]),
        ("pan the keys left", [("pan", "keys", None, None, "left")]),
        ("transpose up a whole step", [("transpose", None, None, None, 2.0)]),
    ],
)
def test_requests_name_the_operation_and_its_scope(text: str, expected: list) -> None:
    assert _edits(text) == expected


def test_it_scopes_to_the_whole_mix_and_the_bass_to_the_bass() -> None:
    assert _edits("make it warmer") == [("warmer", None, None, None, None)]
    assert _edits("make the bass warmer") == [("warmer", "bass", None, None, None)]


def test_a_clause_naming_nothing_keeps_the_scope_before_it() -> None:
    assert _edits("I love the bass but make it simpler") == [("simpler", "bass", None, None, None)]


def test_warm_and_bright_are_both_kept_but_contradictions_keep_the_latest() -> None:
    assert [e[0] for e in _edits("warm and bright")] == ["warmer", "brighter"]
    assert [e[0] for e in _edits("make the bass brighter, no actually darker")] == ["darker"]


def test_the_chords_mean_the_harmony_but_the_piano_is_a_track() -> None:
    harmony = parse_request("make the chords darker").edits[0].scope
    assert harmony.harmony and harmony.role is None
    assert parse_request("the piano is too bright").edits[0].scope.role == "chords"


@pytest.mark.parametrize(
    ("text", "kind", "steps"),
    [
        ("The bass sounds great", "praise", 1),
        ("what key is it in?", "question", 1),
        ("undo that", "undo", 1),
        ("undo the last three changes", "undo", 3),
        ("redo", "redo", 1),
        ("try something different", "try_again", 1),
        ("hmm", "unclear", 1),
    ],
)
def test_praise_questions_and_history_words(text: str, kind: str, steps: int) -> None:
    request = parse_request(text)
    assert (request.kind, request.steps, request.edits) == (kind, steps, ())


@pytest.mark.parametrize(
    ("text", "session_open", "where"),
    [
        ("neo soul, late night", False, "compose"),
        ("make it darker", True, "modify"),
        ("undo", True, "modify"),
        ("try something different", True, "modify"),
        ("dark trap at 140", True, "compose"),
        ("Frank Ocean meets Burial, late-night vibes", True, "compose"),
        ("make me a new song: lofi", True, "compose"),
        ("make it trap", True, "modify"),
        ("the bass sounds great", True, "modify"),  # praise: modify says so and changes nothing
        ("what key is this?", True, "question"),
        # Questions never change anything, with or without a song (issue 15).
        ("what preset should I use for the bass?", True, "question"),
        ("why did you pick Eb minor?", True, "question"),
        ("why did you pick Eb minor?", False, "question"),
        ("what is a ii-V in Eb", False, "question"),
        ("notes in Cmaj9?", False, "question"),
        ("how do I load this into MPC Beats?", True, "question"),
        # …but a change asked politely is a change.
        ("can you make the bass simpler?", True, "modify"),
        ("could you add a pad?", True, "modify"),  # adding a part is an edit now
        ("what if we make the drums busier?", True, "modify"),
        # History words need a song.
        ("undo", False, "unclear"),
        ("hmm", True, "unclear"),
        ("lofi hip hop for summer evenings", True, "compose"),  # -er words that are not asks
        ("dark trap, super moody, 140", True, "compose"),
        ("jazz, a bit slower", True, "modify"),
        ("freeze the drums", True, "modify"),
    ],
)
def test_the_prompt_box_routes_requests(text: str, session_open: bool, where: str) -> None:
    assert route(text, session_open).kind == where
