"""The band's personas as data: a line may name only the fields the band fills in."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from muse_tui.knowledge.jam import Persona, band_table


def _drummer_with(lines: dict[str, list[str]]) -> Persona:
    drummer = band_table().members[0].model_dump(by_alias=True)
    return Persona.model_validate({**drummer, "lines": lines})


def test_a_line_may_name_the_member_and_on_a_key_change_the_key() -> None:
    persona = _drummer_with({"busier": ["{name} fills it in."], "key": ["{name} to {key}."]})
    assert persona.lines["key"] == ["{name} to {key}."]


@pytest.mark.parametrize(
    ("lines", "why"),
    [
        ({"busier": ["Up to {tempo}."]}, "names tempo"),
        ({"busier": ["Now in {key}."]}, "names key"),
        ({"busier": ["A stray { brace."]}, "expected '}'"),
    ],
)
def test_a_line_naming_what_is_never_filled_in_is_refused(
    lines: dict[str, list[str]], why: str
) -> None:
    with pytest.raises(ValidationError, match=why):
        _drummer_with(lines)
