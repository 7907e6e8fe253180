"""The song before and after: every atomic difference as a history path, and putting it back.

The diff walks the pydantic models themselves, so a field added to `SongState`,
`Track` or the intent is recorded (and undone) without anyone listing it.
Most fields are recorded whole; `ITEMISED` names the few recorded item by item
(a track's fields, one chord), and `PACKED` those stored compactly (regions).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from pydantic import BaseModel, JsonValue, TypeAdapter

from muse_tui.contracts import (
    Change,
    ControlChange,
    EnrichedProgression,
    Note,
    PipelineIntent,
    PitchBend,
    Region,
    SongState,
    Track,
)

#: Fields whose differences are recorded item by item, when both sides line up.
ITEMISED = frozenset(
    {(SongState, "tracks"), (SongState, "progression"), (EnrichedProgression, "chords")}
)
#: Fields the history never records: the history itself.
UNRECORDED = frozenset({(SongState, "history")})


# ── packing takes for the history ───────────────────────────────────────────
def packed_regions(regions: Sequence[Region]) -> list[JsonValue]:
    """Regions as compact lists: `[id, name, start, length, notes, ccs, bends]`."""
    return [
        [
            r.id,
            r.name,
            r.start_beat,
            r.length_beats,
            [[n.pitch, n.velocity, n.start_beat, n.duration_beats, n.channel] for n in r.notes],
            [[c.beat, c.controller, c.value, c.channel] for c in r.control_changes],
            [[b.beat, b.value, b.channel] for b in r.pitch_bends],
        ]
        for r in regions
    ]


def unpacked_regions(value: JsonValue) -> list[Region]:
    """The regions `packed_regions` wrote."""
    regions = []
    for rid, name, start, length, notes, ccs, bends in value:  # type: ignore[union-attr, misc]
        regions.append(
            Region(
                id=rid,
                name=name,
                start_beat=start,
                length_beats=length,
                notes=[
                    Note(pitch=p, velocity=v, start_beat=s, duration_beats=d, channel=c)
                    for p, v, s, d, c in notes
                ],
                control_changes=[
                    ControlChange(beat=t, controller=k, value=v, channel=c) for t, k, v, c in ccs
                ],
                pitch_bends=[PitchBend(beat=t, value=v, channel=c) for t, v, c in bends],
            )
        )
    return regions


#: Fields stored compactly in the history: (pack, unpack).
Codec = tuple[Callable[[Any], JsonValue], Callable[[Any], Any]]
PACKED: dict[tuple[type[BaseModel], str], Codec] = {
    (Track, "regions"): (packed_regions, unpacked_regions),
}


# ── the song before and after ───────────────────────────────────────────────
def song_changes(before: SongState, after: SongState) -> list[Change]:
    """Every atomic difference between two songs, as history paths (history itself excluded)."""
    return _model_changes("", before, after) or []


def intent_changes(before: PipelineIntent | None, after: PipelineIntent | None) -> list[Change]:
    """Differences in the generators' inputs, as `intent.<field>` paths."""
    if before is None or after is None:
        return [] if before == after else [_change("intent", before, after)]
    return [
        _change(f"intent.{_alias(PipelineIntent, f)}", getattr(before, f), getattr(after, f))
        for f in PipelineIntent.model_fields
        if getattr(before, f) != getattr(after, f)
    ]


def applied(
    song: SongState, intent: PipelineIntent | None, changes: Sequence[Change], *, undo: bool
) -> tuple[SongState, PipelineIntent | None]:
    """The song and intent with each change's previous (undo) or new value put back."""
    for change in reversed(changes) if undo else changes:
        value = change.previous_value if undo else change.new_value
        tokens = _tokens(change.path)
        if tokens[0] == "intent":
            intent = (
                _set(intent, tokens[1:], value)
                if len(tokens) > 1
                else (None if value is None else PipelineIntent.model_validate(value))
            )
        else:
            song = _set(song, tokens, value)
    return song, intent


def _model_changes(prefix: str, a: BaseModel, b: BaseModel) -> list[Change] | None:
    """Field by field; None when an itemised field does not line up (record `a` whole)."""
    model = type(a)
    changes: list[Change] = []
    for name in model.model_fields:
        if _listed(UNRECORDED, model, name):
            continue
        x, y = getattr(a, name), getattr(b, name)
        itemised = _listed(ITEMISED, model, name)
        if x is y or (not itemised and x == y):  # an itemised field compares item by item
            continue
        path = f"{prefix}{_alias(model, name)}"
        if itemised:
            found = _itemised(path, x, y)
            if found is None:
                if isinstance(x, BaseModel) or isinstance(y, BaseModel):
                    found = [_change(path, x, y)]  # a model recorded whole
                elif prefix:
                    return None  # the list does not line up: the model it belongs to goes whole
                else:
                    found = [_change(path, x, y)]
            changes += found
        elif codec := _codec(model, name):
            pack = codec[0]
            changes.append(Change(path=path, previous_value=pack(x), new_value=pack(y)))
        else:
            changes.append(_change(path, x, y))
    return changes


def _itemised(path: str, x: Any, y: Any) -> list[Change] | None:
    """The differences inside a model or a list of models; None when the two do not line up."""
    if isinstance(x, BaseModel) and type(x) is type(y):
        return _model_changes(f"{path}.", x, y)
    if not (isinstance(x, list) and isinstance(y, list)) or len(x) != len(y):
        return None
    if [getattr(i, "id", None) for i in x] != [getattr(i, "id", None) for i in y]:
        return None
    changes: list[Change] = []
    for i, (old, new) in enumerate(zip(x, y, strict=True)):
        if old is new:
            continue
        found = _model_changes(f"{path}[{i}].", old, new)
        if found is None:
            return None
        changes += found
    return changes


def _listed(table: frozenset[tuple[type, str]], model: type, name: str) -> bool:
    """Whether the field (of this model or one it extends) is in the table."""
    return any((base, name) in table for base in model.__mro__)


def _codec(model: type, name: str) -> Codec | None:
    return next((PACKED[(b, name)] for b in model.__mro__ if (b, name) in PACKED), None)


def _change(path: str, before: object, after: object) -> Change:
    return Change(path=path, previous_value=_json(before), new_value=_json(after))


def _json(value: object) -> JsonValue:
    return TypeAdapter(type(value)).dump_python(value, mode="json", by_alias=True)  # type: ignore[no-any-return]


def _alias(model: type[BaseModel], name: str) -> str:
    return model.model_fields[name].alias or name


def _tokens(path: str) -> list[str | int]:
    return [int(i) if i else k for k, i in re.findall(r"([A-Za-z_]+)|\[(\d+)\]", path)]


def _set(node: Any, tokens: list[str | int], value: JsonValue) -> Any:
    head, rest = tokens[0], tokens[1:]
    if isinstance(head, int):
        items = list(node)
        items[head] = _set(items[head], rest, value) if rest else value
        return items
    model = type(node)
    name = next(n for n, f in model.model_fields.items() if (f.alias or n) == head)
    if rest:
        return node.model_copy(update={name: _set(getattr(node, name), rest, value)})
    if codec := _codec(model, name):
        return node.model_copy(update={name: codec[1](value)})
    return node.model_copy(update={name: _adapter(model, name).validate_python(value)})


@cache
def _adapter(model: type[BaseModel], name: str) -> TypeAdapter[Any]:
    return TypeAdapter(model.model_fields[name].annotation)
