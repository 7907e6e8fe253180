"""What an A/B comparison holds, and what in a song can be compared (plain data, no Textual)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from muse_tui.contracts import (
        AlternativeElement,
        AlternativeSet,
        ComposerPipeline,
        Note,
        SongState,
        Track,
    )
    from muse_tui.contracts.editing import AlternativesResult


@dataclass(frozen=True)
class Comparison:
    """A set of alternatives ready to show and hear: each variant's roll and its tracks."""

    pipeline: ComposerPipeline
    alt_set: AlternativeSet
    role: str
    notes: list[list[Note]]
    tracks: list[list[Track]]


def element_role(song: SongState, element: AlternativeElement) -> str:
    """The role an element belongs to ("bass"), or "" for the progression and arrangement."""
    from muse_tui.contracts import EffectChainElement, PresetElement, TrackElement

    if isinstance(element, TrackElement):
        return element.role
    if isinstance(element, PresetElement | EffectChainElement):
        track = next((t for t in song.tracks if t.id == element.track_id), None)
        return track.role if track else ""
    return ""


def elements_of(song: SongState) -> list[tuple[str, AlternativeElement]]:
    """Everything in the song that can be varied, named as a producer would."""
    from muse_tui.contracts import (
        ArrangementElement,
        EffectChainElement,
        PresetElement,
        ProgressionElement,
        TrackElement,
    )

    found: list[tuple[str, AlternativeElement]] = []
    if song.progression:
        found.append(("the progression", ProgressionElement()))
    for track in song.tracks:
        role = track.role.replace("_", " ")
        found.append((f"the {role}", TrackElement(track_id=track.id, role=track.role)))
    for track in song.tracks:
        role = track.role.replace("_", " ")
        found.append((f"the {role}'s sound", PresetElement(track_id=track.id)))
        if track.effect_chain:
            found.append((f"the {role}'s effects", EffectChainElement(track_id=track.id)))
    if song.arrangement:
        found.append(("the arrangement", ArrangementElement()))
    return found


def comparison_of(made: AlternativesResult, role: str) -> Comparison:
    """Each variant's mini-roll notes and the tracks to hear in its place (made in the worker)."""
    from muse_tui.engine.alternatives import variant_notes, variant_tracks

    pipeline, alt_set = made.pipeline, made.alternative_set
    count = range(len(alt_set.variants))
    return Comparison(
        pipeline=pipeline,
        alt_set=alt_set,
        role=role,
        notes=[variant_notes(pipeline, alt_set, i) for i in count],
        tracks=[variant_tracks(pipeline, alt_set, i) for i in count],
    )
