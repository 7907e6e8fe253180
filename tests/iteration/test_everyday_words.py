"""Phrase variants of the everyday edits read to the same operation, part and section."""

from __future__ import annotations

import pytest

from muse_tui.compose.requests import parse_request

VARIANTS = [
    ("can you make the drums hit harder", "harder", "drums", None),
    ("make the kick punchier", "harder", "drums", None),
    ("make the hats roll", "hat_rolls", "drums", None),
    ("give the 808 some slides", "slides", "sub_bass", None),
    ("put the drums in half time", "half_time", "drums", None),
    ("can you make it double time", "double_time", None, None),
    ("take the lead out", "remove_track", "lead", None),
    ("lose the pad", "remove_track", "pad", None),
    ("kill the drums in the intro", "remove_track", "drums", "intro"),
    ("swap the synth lead for bells", "swap_instrument", "lead", None),
    ("jazz up the chords", "jazzier", None, None),
    ("add some 7ths to the keys", "sevenths", "keys", None),
    ("make it more melancholy", "sadder", None, None),
    ("it needs way more energy", "more_energy", None, None),
    ("add a drum fill before the chorus", "fills", "drums", "chorus"),
    ("build up into the drop", "build", None, "drop"),
    ("more room to breathe", "simpler", None, None),
    ("bring in a pad", "add_track", "pad", None),
    ("I want an organ", "add_track", "keys", None),
    ("bring in the bass", "unmute", "bass", None),
    ("turn the pad down a bit", "volume_down", "pad", None),
]


@pytest.mark.parametrize(("text", "operation", "role", "section"), VARIANTS)
def test_a_phrase_variant_reads_as_the_edit(
    text: str, operation: str, role: str | None, section: str | None
) -> None:
    request = parse_request(text)
    assert request.kind == "change", text
    edit = request.edits[0]
    assert (edit.operation, edit.scope.role, edit.scope.section) == (operation, role, section)


def test_a_swap_names_the_old_and_the_new_instrument() -> None:
    (edit,) = parse_request("swap the piano for a Rhodes").edits
    assert edit.value == "piano>rhodes"


def test_electric_piano_is_the_rhodes_not_the_piano_inside_it() -> None:
    (edit,) = parse_request("replace the organ with an electric piano").edits
    assert edit.value == "organ>rhodes"


def test_busier_in_the_drop_is_a_section_not_a_removal() -> None:
    request = parse_request("busier in the drop")
    assert [(e.operation, e.scope.section) for e in request.edits] == [("busier", "drop")]


@pytest.mark.parametrize(("text", "action", "section"), [
    ("make the intro longer", "extend", "intro"),
    ("longer intro", "extend", "intro"),
    ("shorter outro", "shorten", "outro"),
    ("the intro should be longer", "extend", "intro"),
    ("stretch out the chorus", "extend", "chorus"),
    ("the bridge could be shorter", "shorten", "bridge"),
])  # fmt: skip
def test_a_section_length_is_read_as_a_section_edit(text: str, action: str, section: str) -> None:
    """The DAW-style section edits (issue 16) take these: a length with a place in the song."""
    request = parse_request(text)
    assert request.kind == "change", text
    (edit,) = request.edits
    assert (edit.operation, edit.action, edit.target.section) == ("section", action, section)  # type: ignore[attr-defined]
