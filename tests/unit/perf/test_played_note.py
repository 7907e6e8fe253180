"""`played_note` and `played_bends` build what validation would, and validate anything doubtful."""

from __future__ import annotations

import math

import pytest
from pydantic import Field, ValidationError, field_validator

from muse_tui.compose.humanize import (
    BEND_SHAPE,
    NOTE_SHAPE,
    played_bends,
    played_note,
    retimed,
    shaped_as,
)
from muse_tui.contracts import Note, PitchBend, Region


def test_a_plainly_valid_note_is_the_validated_note() -> None:
    fast = played_note(60, 100, 1.5, 0.25, 3)
    slow = Note(pitch=60, velocity=100, start_beat=1.5, duration_beats=0.25, channel=3)
    assert fast == slow
    assert fast.to_json() == slow.to_json()
    assert fast.end_beat == 1.75
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump(exclude_unset=True) == slow.model_dump(exclude_unset=True)


def test_it_can_be_copied_and_serialised_inside_a_region() -> None:
    note = played_note(36, 90, 0.0, 1.0, 9).model_copy(update={"duration_beats": 0.5})
    region = Region(
        id="0" * 8 + "-0000-4000-8000-" + "0" * 12,
        name="r",
        start_beat=0,
        length_beats=4,
        notes=[note],
    )
    assert Region.from_json(region.to_json()).notes[0].duration_beats == 0.5


def test_values_validation_would_convert_are_converted() -> None:
    note = played_note(60.0, 100, 1, 0.5, 0)  # type: ignore[arg-type]
    assert type(note.pitch) is int and type(note.start_beat) is float
    assert (
        note.to_json() == Note(pitch=60, velocity=100, start_beat=1.0, duration_beats=0.5).to_json()
    )


@pytest.mark.parametrize(
    ("pitch", "velocity", "start", "duration", "channel"),
    [
        (128, 100, 0.0, 1.0, 0),
        (60, 0, 0.0, 1.0, 0),
        (60, 100, -0.5, 1.0, 0),
        (60, 100, 0.0, 0.0, 0),
        (60, 100, math.nan, 1.0, 0),
        (60, 100, 0.0, 1.0, 16),
    ],
)
def test_values_validation_would_refuse_are_refused(
    pitch: int, velocity: int, start: float, duration: float, channel: int
) -> None:
    with pytest.raises(ValidationError):
        played_note(pitch, velocity, start, duration, channel)


class _TighterNote(Note):
    channel: int = Field(default=0, ge=0, le=9)


class _CheckedNote(Note):
    @field_validator("pitch")
    @classmethod
    def _white_keys(cls, pitch: int) -> int:
        return pitch


def test_only_the_note_it_knows_is_built_unvalidated() -> None:
    """A bound moved or a validator added to `Note` sends every note through validation."""
    assert shaped_as(Note, NOTE_SHAPE)
    assert not shaped_as(_TighterNote, NOTE_SHAPE)
    assert not shaped_as(_CheckedNote, NOTE_SHAPE)


def test_a_plainly_valid_bend_is_the_validated_bend() -> None:
    [fast] = played_bends([(3.75, -4096)], 2)
    slow = PitchBend(beat=3.75, value=-4096, channel=2)
    assert fast == slow
    assert fast.to_json() == slow.to_json()
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_copy(update={"value": 0}).value == 0


@pytest.mark.parametrize(
    ("beat", "value", "channel"),
    [(-0.25, 0, 0), (1.0, 8192, 0), (1.0, -8193, 0), (1.0, 0, 16), (math.nan, 0, 0)],
)
def test_a_doubtful_bend_is_validated(beat: float, value: int, channel: int) -> None:
    with pytest.raises(ValidationError):
        played_bends([(beat, value)], channel)


class _WiderBend(PitchBend):
    value: int = Field(ge=-16384, le=16383)


def test_only_the_bend_it_knows_is_built_unvalidated() -> None:
    assert shaped_as(PitchBend, BEND_SHAPE)
    assert not shaped_as(_WiderBend, BEND_SHAPE)


def test_bends_built_together_are_the_validated_bends_and_doubtful_ones_are_checked() -> None:
    points = [(0.0, 0), (1.5, 8191), (2.25, -8192)]
    assert played_bends(points, 4) == [PitchBend(beat=b, value=v, channel=4) for b, v in points]
    with pytest.raises(ValidationError):
        played_bends([(1.0, 0), (2.0, 9000)], 4)
    with pytest.raises(ValidationError):
        played_bends([(1.0, 0)], 16)


def test_a_note_retimed_is_the_validated_note_and_a_doubtful_length_is_checked() -> None:
    note = Note(pitch=40, velocity=90, start_beat=2.0, duration_beats=1.0, channel=1)
    assert retimed(note, 0.75, 9) == note.model_copy(update={"duration_beats": 0.75, "channel": 9})
    with pytest.raises(ValidationError):
        retimed(note, 0.0, 9)
    with pytest.raises(ValidationError):
        retimed(note, 0.5, 16)
