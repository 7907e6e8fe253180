"""What each edit of a change request does to the draft: the direct change, its triggers, its cost.

The operations themselves are pure (`compose.edits`, `compose.variation`);
here they are aimed at the song's tracks, chords and sections, and each notes
what it changed for the blast radius and the history.
"""

from __future__ import annotations

from muse_tui.compose.edits import EditError, recoloured, song_key_of, transposed, with_chord
from muse_tui.compose.effects import chain_id
from muse_tui.compose.requests import Edit
from muse_tui.compose.sounds import preset_reference, song_brief
from muse_tui.compose.takes import ALL_PARTS, StandingEdit, with_standing_edit
from muse_tui.compose.variation import pick_sound, toned, with_effect
from muse_tui.contracts import (
    TEMPO_LIMITS,
    CreativityDials,
    EffectChain,
    EnrichedProgression,
    ModificationTarget,
)
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.sound import effects_table, mood_palette, sound_catalog
from muse_tui.theory import parse_key

from .regenerate import Draft, listed, track_label

SWING_STEP = 6.0  # MPC swing percent per "more swing"
VOLUME_STEP = 12  # CC7 per "louder"
TONE = ("darker", "brighter", "warmer", "colder")
PART_EDITS = {
    "simpler": ("density", -1.0),
    "busier": ("density", 1.0),
    "ghost_notes": ("ghost_notes", 1.0),
    "no_ghost_notes": ("ghost_notes", -1.0),
    "more_swing": ("swing", SWING_STEP),
    "less_swing": ("swing", -SWING_STEP),
}
PANS = {
    "hard left": 0,
    "left": 32,
    "centre": 64,
    "center": 64,
    "middle": 64,
    "right": 96,
    "hard right": 127,
}
#: Where "the chords" of a song live when it has no track by that name, and so on.
ROLE_FALLBACKS = {
    "chords": ("keys", "pad", "arp"), "keys": ("chords", "pad"),
    "pad": ("texture", "chords", "keys"), "bass": ("sub_bass",), "sub_bass": ("bass",),
    "drums": ("percussion",), "lead": ("arp",),
}  # fmt: skip


def apply_edit(draft: Draft, edit: Edit) -> None:
    """Make one edit's direct change on the draft and note what it triggers and costs."""
    op, scope = edit.operation, edit.scope
    if op in ("darker", "brighter") and (scope.chord is not None or scope.harmony):
        _recolour(draft, edit)
    elif op == "chord":
        _replace_chord(draft, edit)
    elif op in TONE:
        _tone(draft, edit)
    elif op in PART_EDITS:
        _part_edit(draft, edit)
    elif op in ("key", "transpose", "mode"):
        _key(draft, edit)
    elif op in ("tempo", "tempo_by"):
        _tempo(draft, edit)
    elif op == "genre":
        _genre(draft, str(edit.value))
    elif op == "preset":
        _preset(draft, edit)
    elif op.startswith("effect_"):
        _effect(draft, edit)
    elif op in ("freeze", "unfreeze"):
        _freeze(draft, edit)
    else:
        _mix(draft, edit)


def _aim(draft: Draft, component: str, path: str, operation: str, **parameters: object) -> None:
    kind = (
        "replace" if operation in ("replace",) else "remove" if operation == "remove" else "adjust"
    )
    draft.aims.append(
        ModificationTarget(component=component, path=path, operation=kind, parameters=parameters)  # type: ignore[arg-type]
    )


def _tracks(draft: Draft, role: str | None, *, needed: str = "") -> list[int]:
    song = draft.song
    if role is None:
        if needed:
            raise EditError(f"say which part to {needed}, e.g. “{needed} the bass”.")
        return list(range(len(song.tracks)))
    for wanted in (role, *ROLE_FALLBACKS.get(role, ())):
        found = [i for i, t in enumerate(song.tracks) if t.role == wanted]
        if found:
            return found
    have = listed([track_label(song, t.id) for t in song.tracks]) or "no tracks"
    raise EditError(f"there is no {role.replace('_', ' ')} in this song (it has {have}).")


def _voicing_style(draft: Draft) -> str:
    return draft.intent.genre_dna.voicing_style if draft.intent.genre_dna else "close"


def _recolour(draft: Draft, edit: Edit) -> None:
    progression = draft.song.progression
    if progression is None:
        raise EditError("the song has no progression yet.")
    count = len(progression.chords)
    if edit.scope.chord is not None:
        index = edit.scope.chord if edit.scope.chord >= 0 else count - 1
        if not 0 <= index < count:
            raise EditError(f"the progression has only {count} chords.")
        indices = [index]
    else:
        indices = list(range(count))
    new = recoloured(progression, indices, edit.operation, _voicing_style(draft))
    moved = [i for i in indices if new.chords[i] != progression.chords[i]]
    _progression_changed(draft, new)
    for i in moved:
        _aim(draft, "progression", f"progression.chords[{i}]", "adjust", edit=edit.operation)
    what = "; ".join(
        f"chord {i + 1} {progression.chords[i].symbol} → {new.chords[i].symbol}" for i in moved
    )
    draft.sentences.append(f"Made it {edit.operation} ({what}).")


def _replace_chord(draft: Draft, edit: Edit) -> None:
    progression = draft.song.progression
    if progression is None or edit.scope.chord is None:
        raise EditError("say which chord, e.g. “change the 3rd chord to Fm7”.")
    index = edit.scope.chord if edit.scope.chord >= 0 else len(progression.chords) - 1
    if not 0 <= index < len(progression.chords):
        raise EditError(f"the progression has only {len(progression.chords)} chords.")
    new = with_chord(progression, index, str(edit.value), _voicing_style(draft))
    _progression_changed(draft, new)
    _aim(draft, "progression", f"progression.chords[{index}]", "replace", symbol=str(edit.value))
    old = progression.chords[index].symbol
    draft.sentences.append(f"Chord {index + 1} is now {new.chords[index].symbol} (was {old}).")


def _progression_changed(draft: Draft, progression: EnrichedProgression) -> None:
    draft.song = draft.song.model_copy(update={"progression": progression})
    draft.triggers.append(("progression", None))
    draft.handled.add("progression")
    draft.touch("progression", "moderate")


def _tone(draft: Draft, edit: Edit) -> None:
    song = draft.song
    indices = _tracks(draft, edit.scope.role)
    tracks = list(song.tracks)
    for i in indices:
        track = tracks[i]
        chain = track.effect_chain or EffectChain(id=chain_id(track.id), target_id=track.id)
        tracks[i] = track.model_copy(update={"effect_chain": toned(chain, edit.operation)})
        draft.touch(f"effects:{track_label(song, track.id)}", "cheap")
    buses = song.buses
    if edit.scope.role is None:
        buses = [
            b.model_copy(update={"effect_chain": toned(b.effect_chain, edit.operation)})
            if b.effect_chain
            else b
            for b in buses
        ]
        for bus in buses:
            draft.touch(f"effects:{bus.name.lower()} bus", "cheap")
    draft.song = song.model_copy(update={"tracks": tracks, "buses": buses})
    where = (
        "the whole mix"
        if edit.scope.role is None
        else f"the {track_label(song, tracks[indices[0]].id)}"
    )
    band = "low mids" if edit.operation in ("warmer", "colder") else "air band"
    _aim(
        draft,
        "effectChain",
        "tracks[*].effectChain" if edit.scope.role is None else f"tracks[{indices[0]}].effectChain",
        "adjust",
        tone=edit.operation,
    )
    draft.sentences.append(f"Made {where} {edit.operation} (EQ on the {band}).")


def _part_edit(draft: Draft, edit: Edit) -> None:
    kind, value = PART_EDITS[edit.operation]
    scope = edit.scope
    role = scope.role
    if kind == "ghost_notes" and role is None:
        role = "drums" if any(t.role == "drums" for t in draft.song.tracks) else "bass"
    indices = _tracks(draft, role)
    if kind == "ghost_notes" and value > 0:
        for i in indices:
            if draft.song.tracks[i].role not in ("drums", "bass", "sub_bass"):
                raise EditError("ghost notes suit the drums and the bass.")
    section = scope.section
    if section is not None:
        kinds = (
            {s.kind for s in draft.song.arrangement.sections} if draft.song.arrangement else set()
        )
        if section not in kinds:
            raise EditError(f"there is no {section.replace('_', '-')} in this song.")
    roles = (
        sorted({draft.song.tracks[i].role for i in indices}) if role is not None else [ALL_PARTS]
    )
    constraints = list(draft.intent.constraints)
    for name in roles:
        constraints = with_standing_edit(constraints, StandingEdit(name, kind, value, section))
    draft.intent = draft.intent.model_copy(update={"constraints": constraints})
    for i in indices:
        track = draft.song.tracks[i]
        draft.rewrite(track.id)
        draft.touch(track_label(draft.song, track.id), "moderate")
        _aim(
            draft,
            track.role,
            f"tracks[{i}].regions",
            "adjust",
            edit=edit.operation,
            section=section,
        )
    where = f" in the {section.replace('_', '-')}" if section else ""
    who = listed([track_label(draft.song, draft.song.tracks[i].id) for i in indices])
    draft.sentences.append(f"{edit.operation.replace('_', ' ').capitalize()}: {who}{where}.")


def _key(draft: Draft, edit: Edit) -> None:
    song = draft.song
    old = (
        song_key_of(song.progression) if song.progression else parse_key(f"{song.key} {song.mode}")
    )
    try:
        if edit.operation == "transpose":
            new = parse_key(
                f"{old.spell((old.tonic_pc + int(float(edit.value or 0))) % 12)} {old.mode}"
            )
        elif edit.operation == "mode":
            new = parse_key(f"{old.tonic} {edit.value}")
        else:
            text = str(edit.value)
            new = parse_key(text if " " in text else f"{text} {old.mode}")
    except ValueError as exc:
        raise EditError(f"cannot read that key: {exc}") from None
    if (new.tonic_pc, new.mode) == (old.tonic_pc, old.mode):
        raise EditError(f"the song is already in {new.tonic} {new.mode}.")
    intent = draft.intent.model_copy(update={"key": new.tonic, "mode": new.mode})
    if new.mode != old.mode:
        intent = intent.model_copy(update={"explicit_progression": []})
    draft.intent = intent
    draft.song = song.model_copy(update={"key": new.tonic, "mode": new.mode})
    if song.progression is not None and new.mode == old.mode:
        moved = transposed(song.progression, new.tonic_pc - old.tonic_pc, new)
        draft.song = draft.song.model_copy(update={"progression": moved})
        draft.handled.add("progression")
        draft.touch("progression", "expensive")
    draft.triggers += [("key", None), ("scale", None)]
    draft.cost = "expensive"
    draft.expensive_subject = "changing the key"
    _aim(draft, "key", "key", "replace", key=f"{new.tonic} {new.mode}")
    draft.sentences.append(f"Moved the song to {new.tonic} {new.mode}.")


def _tempo(draft: Draft, edit: Edit) -> None:
    old = draft.song.tempo
    bpm = float(edit.value) if edit.operation == "tempo" else old * float(edit.value or 1)
    low, high = TEMPO_LIMITS
    # A song already past a limit stays where it is rather than jump back the other way.
    bpm = round(max(min(low, old), min(max(high, old), bpm)), 1)
    if abs(bpm - old) < 0.05:
        raise EditError(f"the song is already at {old:g} BPM.")
    draft.song = draft.song.model_copy(update={"tempo": bpm})
    draft.intent = draft.intent.model_copy(update={"tempo": bpm})
    draft.retime_from = old
    draft.triggers.append(("tempo", None))
    draft.cost = "expensive"
    draft.expensive_subject = "changing the tempo"
    _aim(draft, "tempo", "tempo", "replace", bpm=bpm)
    draft.sentences.append(
        f"Tempo {old:g} → {bpm:g} BPM; tempo-synced delays and pre-delays follow."
    )


def _genre(draft: Draft, genre: str) -> None:
    table = genre_table()
    if genre not in table:
        raise EditError(f"I do not know the genre {genre!r}.")
    if draft.intent.genre[:1] == [genre]:
        raise EditError(f"it is already {genre.replace('_', ' ')}.")
    old_dna, dna = draft.intent.genre_dna, table.get(genre)
    dials = draft.intent.creativity_dials
    if dials is not None and old_dna is not None:  # keep the mood's nudges, move the genre's base
        dials = CreativityDials(
            harmonic=min(
                1.0,
                max(0.0, dials.harmonic - old_dna.creativity.harmonic + dna.creativity.harmonic),
            ),
            rhythmic=min(
                1.0,
                max(0.0, dials.rhythmic - old_dna.creativity.rhythmic + dna.creativity.rhythmic),
            ),
        )
    draft.intent = draft.intent.model_copy(
        update={
            "genre": [genre],
            "sub_genre": [],
            "genre_dna": dna,
            "creativity_dials": dials,
            "explicit_progression": [],
        }
    )
    draft.song = draft.song.model_copy(update={"genre": genre})
    draft.triggers.append(("genre", None))
    draft.cost = "expensive"
    draft.expensive_subject = f"changing the genre to {dna.display_name}"
    _aim(draft, "genre", "genre", "replace", genre=genre)
    draft.sentences.append(f"Genre → {dna.display_name}; the arrangement keeps its length.")


def _preset(draft: Draft, edit: Edit) -> None:
    indices = _tracks(draft, edit.scope.role, needed="swap the sound of")
    song, brief = draft.song, song_brief(draft.song, draft.intent, mood_palette())
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
        update: dict[str, object] = {"preset": preset}
        if track.is_drums and preset.gm_drum_kit is not None:
            update["drum_kit"] = preset.gm_drum_kit
        elif not track.is_drums and preset.gm_program is not None:
            update["program"] = preset.gm_program
        tracks[i] = track.model_copy(update=update)
        label = track_label(song, track.id)
        draft.triggers.append(("preset", track.id))
        draft.touch(f"preset:{label}", "cheap")
        _aim(draft, "preset", f"tracks[{i}].preset", "replace", preset=preset.id)
        draft.sentences.append(f"The {label} now plays {preset.name}.")
    draft.song = song.model_copy(update={"tracks": tracks})


def _effect(draft: Draft, edit: Edit) -> None:
    song, kind = draft.song, str(edit.value)
    indices = _tracks(draft, edit.scope.role)
    if edit.scope.role is None:  # the whole mix: the parts that already have it, else the airy ones
        has = [i for i in indices if _has_effect(song.tracks[i].effect_chain, kind)]
        indices = has or [
            i for i in indices if song.tracks[i].role in ("pad", "lead", "keys", "chords")
        ]
    tracks, table = list(song.tracks), effects_table()
    for i in indices:
        track = tracks[i]
        chain = track.effect_chain or EffectChain(id=chain_id(track.id), target_id=track.id)
        tracks[i] = track.model_copy(
            update={"effect_chain": with_effect(chain, kind, edit.operation, table, song.tempo)}
        )
        draft.touch(f"effects:{track_label(song, track.id)}", "cheap")
        _aim(
            draft,
            "effectChain",
            f"tracks[{i}].effectChain",
            "remove" if edit.operation == "effect_remove" else "adjust",
            effect=kind,
        )
    draft.song = song.model_copy(update={"tracks": tracks})
    verb = {"effect_more": "More", "effect_less": "Less", "effect_remove": "No"}[edit.operation]
    who = listed([track_label(song, tracks[i].id) for i in indices]) or "nothing"
    draft.sentences.append(f"{verb} {kind} on {who}.")


def _has_effect(chain: EffectChain | None, kind: str) -> bool:
    if chain is None:
        return False
    return any(e.kind == kind for e in chain.effects) or (kind == "reverb" and bool(chain.sends))


def _mix(draft: Draft, edit: Edit) -> None:
    op = edit.operation
    verb = {
        "volume_up": "turn up",
        "volume_down": "turn down",
        "pan": "pan",
        "mute": "mute",
        "unmute": "unmute",
    }[op]
    indices = _tracks(draft, edit.scope.role, needed=verb)
    song = draft.song
    tracks = list(song.tracks)
    for i in indices:
        track = tracks[i]
        if op in ("volume_up", "volume_down"):
            update: dict[str, object] = {
                "volume": max(
                    0, min(127, track.volume + (VOLUME_STEP if op == "volume_up" else -VOLUME_STEP))
                )
            }
            path = f"tracks[{i}].volume"
        elif op == "pan":
            update, path = {"pan": PANS[str(edit.value)]}, f"tracks[{i}].pan"
        else:
            update, path = {"mute": op == "mute"}, f"tracks[{i}].mute"
        tracks[i] = track.model_copy(update=update)
        if op != "mute" and op != "unmute":
            draft.triggers.append(("mixPosition", track.id))
        draft.touch(f"mix:{track_label(song, track.id)}", "cheap")
        _aim(draft, track.role, path, "adjust", **{k: v for k, v in update.items()})
    draft.song = song.model_copy(update={"tracks": tracks})
    who = listed([track_label(song, tracks[i].id) for i in indices])
    draft.sentences.append(f"{verb.capitalize()}: {who}.")


def _freeze(draft: Draft, edit: Edit) -> None:
    """Freeze a track (later changes keep it unless they change it directly), or thaw it."""
    frozen = edit.operation == "freeze"
    indices = _tracks(draft, edit.scope.role, needed=edit.operation)
    song = draft.song
    tracks = list(song.tracks)
    for i in indices:
        tracks[i] = tracks[i].model_copy(update={"frozen": frozen})
        _aim(draft, tracks[i].role, f"tracks[{i}].frozen", "adjust", frozen=frozen)
    draft.song = song.model_copy(update={"tracks": tracks})
    who = listed([track_label(song, tracks[i].id) for i in indices])
    if frozen:
        draft.sentences.append(f"Frozen: {who}; later changes keep it unless they name it.")
    else:
        draft.sentences.append(f"Unfrozen: {who}; later changes may regenerate it again.")
