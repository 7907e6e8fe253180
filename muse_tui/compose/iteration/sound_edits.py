"""Sound edits: tone (EQ), effects and sends, and swapping a part's preset.

None of them writes notes again: they change the chains and presets the
files describe, and note what they touched for the blast radius.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from muse_tui.compose.effects import chain_id
from muse_tui.compose.requests import Edit
from muse_tui.compose.sounds import SoundBrief, preset_reference, rank_sounds, song_brief
from muse_tui.contracts import EffectChain, PresetReference, Track
from muse_tui.knowledge.sound import (
    SoundCatalog,
    SoundEntry,
    effects_table,
    mood_palette,
    sound_catalog,
)

from .chain_edits import toned, with_effect
from .revision import EditError, Revision, listed, track_label, tracks_for

TONE = ("darker", "brighter", "warmer", "colder")
AIRY = ("pad", "lead", "keys", "chords")  # the parts "more reverb" on the whole mix goes to
SOUND_WORD_FIT = 0.3


def handles(edit: Edit) -> bool:
    return (
        edit.operation in TONE or edit.operation == "preset" or edit.operation.startswith("effect_")
    )


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with a tone, an effect or a preset changed."""
    revision = revision.fork()
    if edit.operation in TONE:
        _tone(revision, edit)
    elif edit.operation == "preset":
        _preset(revision, edit)
    else:
        _effect(revision, edit)
    return revision


def _tone(revision: Revision, edit: Edit) -> None:
    song = revision.song
    indices = tracks_for(song, edit.scope.role, track=edit.scope.track)
    tracks = list(song.tracks)
    for i in indices:
        track = tracks[i]
        chain = track.effect_chain or EffectChain(id=chain_id(track.id), target_id=track.id)
        tracks[i] = track.model_copy(update={"effect_chain": toned(chain, edit.operation)})
        revision.touch(f"effects:{track_label(song, track.id)}", "cheap")
    buses = song.buses
    if edit.scope.role is None:
        buses = [
            b.model_copy(update={"effect_chain": toned(b.effect_chain, edit.operation)})
            if b.effect_chain
            else b
            for b in buses
        ]
        for bus in buses:
            revision.touch(f"effects:{bus.name.lower()} bus", "cheap")
    revision.song = song.model_copy(update={"tracks": tracks, "buses": buses})
    where = (
        "the whole mix"
        if edit.scope.role is None
        else f"the {track_label(song, tracks[indices[0]].id)}"
    )
    band = "low mids" if edit.operation in ("warmer", "colder") else "air band"
    revision.aim(
        "effectChain",
        "tracks[*].effectChain" if edit.scope.role is None else f"tracks[{indices[0]}].effectChain",
        "adjust",
        tone=edit.operation,
    )
    revision.sentences.append(f"Made {where} {edit.operation} (EQ on the {band}).")


def _preset(revision: Revision, edit: Edit) -> None:
    indices = tracks_for(
        revision.song, edit.scope.role, needed="swap the sound of", track=edit.scope.track
    )
    song, brief = revision.song, song_brief(revision.song, revision.intent, mood_palette())
    tracks = list(song.tracks)
    words = str(edit.value or "").split()
    for i in indices:
        track = tracks[i]
        entry = pick_sound(
            track.role, words, track.preset.id if track.preset else None, sound_catalog(), brief
        )
        if entry is None:
            raise EditError(f"there is no other sound for the {track.role} in the catalog.")
        preset = preset_reference(entry)
        tracks[i] = with_preset(track, preset)
        label = track_label(song, track.id)
        revision.triggers.append(("preset", track.id))
        revision.touch(f"preset:{label}", "cheap")
        revision.aim("preset", f"tracks[{i}].preset", "replace", preset=preset.id)
        revision.sentences.append(f"The {label} now plays {preset.name}.")
    revision.song = song.model_copy(update={"tracks": tracks})


def with_preset(track: Track, preset: PresetReference) -> Track:
    """The track playing `preset`, with its General MIDI stand-in (kit or program) to match."""
    update: dict[str, object] = {"preset": preset}
    if track.is_drums and preset.gm_drum_kit is not None:
        update["drum_kit"] = preset.gm_drum_kit
    elif not track.is_drums and preset.gm_program is not None:
        update["program"] = preset.gm_program
    return track.model_copy(update=update)


def _effect(revision: Revision, edit: Edit) -> None:
    song, kind = revision.song, str(edit.value)
    indices = tracks_for(song, edit.scope.role, track=edit.scope.track)
    if edit.scope.role is None:  # the whole mix: the parts that already have it, else the airy ones
        has = [i for i in indices if _has_effect(song.tracks[i].effect_chain, kind)]
        indices = has or [i for i in indices if song.tracks[i].role in AIRY]
    tracks, table = list(song.tracks), effects_table()
    for i in indices:
        track = tracks[i]
        chain = track.effect_chain or EffectChain(id=chain_id(track.id), target_id=track.id)
        tracks[i] = track.model_copy(
            update={"effect_chain": with_effect(chain, kind, edit.operation, table, song.tempo)}
        )
        revision.touch(f"effects:{track_label(song, track.id)}", "cheap")
        revision.aim(
            "effectChain",
            f"tracks[{i}].effectChain",
            "remove" if edit.operation == "effect_remove" else "adjust",
            effect=kind,
        )
    revision.song = song.model_copy(update={"tracks": tracks})
    verb = {"effect_more": "More", "effect_less": "Less", "effect_remove": "No"}[edit.operation]
    who = listed([track_label(song, tracks[i].id) for i in indices]) or "nothing"
    revision.sentences.append(f"{verb} {kind} on {who}.")


def _has_effect(chain: EffectChain | None, kind: str) -> bool:
    if chain is None:
        return False
    return any(e.kind == kind for e in chain.effects) or (kind == "reverb" and bool(chain.sends))


def pick_sound(
    role: str,
    words: Iterable[str],
    current: str | None,
    catalog: SoundCatalog,
    brief: SoundBrief,
    rng: random.Random | None = None,
) -> SoundEntry | None:
    """The best other sound for the role, favouring the words asked for ("warm", "punchy")."""
    wanted = set(words)
    ranked = rank_sounds(role, brief, catalog, rng)
    choices = [r for r in ranked if r.entry.id != current]
    if not choices:
        return None
    if wanted:
        choices.sort(key=lambda r: -(r.score + SOUND_WORD_FIT * len(wanted & set(r.entry.tags))))
    return choices[0].entry
