"""How each option of each kind of element is made, scored and put in the song.

A maker gets the `Slot` (A … E, the batch's dial lift, the retry count) and
returns a `Candidate`: the payload, a one-line description of how it differs,
its heuristic score and what it takes to tell it from another take. A part is
written again by the engine (`write`), which knows the stage adapters.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import JsonValue

from muse_tui.compose.arrangement import arrange
from muse_tui.compose.critics.arrangement import judge_arrangement
from muse_tui.compose.critics.listening import part_of
from muse_tui.compose.effects import build_effects
from muse_tui.compose.section_harmony import song_progression
from muse_tui.compose.seeding import derive_rng
from muse_tui.compose.sounds import preset_reference, rank_sounds, song_brief
from muse_tui.contracts import (
    Alternative,
    AlternativeElement,
    AlternativeSet,
    Arrangement,
    ArrangementElement,
    ArrangementTemplateName,
    ComposerPipeline,
    EffectChain,
    EffectChainElement,
    EnrichedProgression,
    Note,
    PipelineIntent,
    PresetElement,
    PresetReference,
    ProgressionElement,
    Region,
    SongState,
    Take,
    Track,
    TrackElement,
)
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.sound import effects_table, mood_palette, sound_catalog

from .chain_edits import toned, with_effect, with_send
from .chord_edits import progression_changed, reversed_motion
from .history import packed_regions, unpacked_regions
from .options import (
    AlternativesError,
    Candidate,
    Slot,
    lifted_intent,
    neighbour_genre,
    structure_for,
)
from .revision import Revision, track_label
from .scores import part_score, progression_score
from .sound_edits import with_preset
from .takes import STYLE_FIELD, take_of, with_take

HELD_VELOCITY = 80  # a progression drawn in the mini piano roll
#: Writes a track again with a take (and the song's standing edits), assembled.
Writer = Callable[[str, Take], Track]


def make_variant(
    pipeline: ComposerPipeline, element: AlternativeElement, slot: Slot, write: Writer
) -> Candidate | None:
    """The slot's option for the element (None when there is nothing to vary)."""
    if element.type == "track":
        return track_variant(pipeline, element, slot, write)
    if element.type == "progression":
        return progression_variant(pipeline, element, slot)
    if element.type == "arrangement":
        return arrangement_variant(pipeline, element, slot)
    if element.type == "preset":
        return preset_variant(pipeline, element, slot)
    return effects_variant(pipeline, element, slot)


def element_content(pipeline: ComposerPipeline, element: AlternativeElement) -> JsonValue:
    """The element as the song has it now, in the form its variants carry."""
    song = pipeline.song_state
    if element.type in ("progression", "arrangement"):
        return _dump(song.progression if element.type == "progression" else song.arrangement)
    track = song.track(element.track_id)
    if track is None:
        return None
    if element.type == "track":
        return packed_regions(track.regions)
    return _dump(track.preset if element.type == "preset" else track.effect_chain)


def track_variant(
    pipeline: ComposerPipeline, element: AlternativeElement, slot: Slot, write: Writer
) -> Candidate | None:
    """A part written again with the slot's take: dials, style, a neighbour genre or density."""
    song, intent = pipeline.song_state, _intent(pipeline)
    track = song.track(element.track_id)  # type: ignore[union-attr]
    if track is None:
        return None
    role = track.role
    if slot.is_current:
        return _track_candidate(pipeline, "What you have now", take_of(intent, role), track)
    structure = structure_for(intent, role, second=slot.index == 3 and slot.batch > 0)
    style = structure if slot.structural else None
    genre = neighbour_genre(intent, song, slot.batch) if slot.index == 4 else None
    # Where the dials or the style cannot move a part (pads, leads), its rhythm does.
    density = {2: -1, 3: 1}.get(slot.index, 0) if structure is None else 0
    if slot.attempt >= 2 and not density:
        density = 1 if slot.index in (1, 4) else -1
    take = Take(
        role=role, variant=slot.variant, dials=slot.dials, style=style, genre=genre, density=density
    )
    written = write(track.id, take)
    words = [f"dials {slot.dials:+.2f}"] if slot.dials else []
    words = (["busier" if density > 0 else "sparser"] if density else []) + words
    if style:
        old = getattr(intent.genre_dna, STYLE_FIELD[role], "")
        words.insert(0, f"{style.replace('_', ' ')} instead of {str(old).replace('_', ' ')}")
    if genre:
        words.insert(0, f"borrows from {genre_table().get(genre).display_name}")
    words = words or [f"another take (variant {take.variant})"]
    change = f"{len(track.notes)} → {len(written.notes)} notes"
    return _track_candidate(pipeline, f"{', '.join(words).capitalize()} ({change})", take, written)


def _track_candidate(pipeline: ComposerPipeline, why: str, take: Take, written: Track) -> Candidate:
    delta: dict[str, JsonValue] = {"variant": take.variant, "dials": take.dials}
    delta |= {"style": take.style} if take.style else {}
    delta |= {"genre": take.genre} if take.genre else {}
    delta |= {"density": take.density} if take.density else {}
    return Candidate(
        description=why,
        data=packed_regions(written.regions),
        score=part_score(pipeline.song_state, pipeline.intent, written),
        delta={} if take.is_default else delta,
        notes=written.notes,
    )


def progression_variant(
    pipeline: ComposerPipeline, element: AlternativeElement, slot: Slot
) -> Candidate | None:
    current = pipeline.song_state.progression
    if current is None:
        return None
    song, intent = pipeline.song_state, _intent(pipeline)
    if slot.is_current:
        return _progression_candidate(intent, current, "What you have now")
    genre = neighbour_genre(intent, song, slot.batch) if slot.index == 4 else None
    made = current
    if not (slot.index == 2 and slot.batch == 0 and slot.attempt == 0):
        rng = derive_rng(song.seed, 2, "progression", slot.variant)
        lifted = lifted_intent(intent, slot.dials, genre)
        made = song_progression(lifted, rng, variant=slot.variant, beats_per_bar=song.beats_per_bar)
    words = [f"more colour, dials {slot.dials:+.2f}"] if slot.dials else []
    if slot.structural:
        made = reversed_motion(
            made, intent.genre_dna.voicing_style if intent.genre_dna else "close"
        )
        words.insert(0, "root motion turned around")
    if genre:
        words.insert(0, f"borrows from {genre_table().get(genre).display_name}")
    return _progression_candidate(intent, made, ", ".join(words or ["another take"]).capitalize())


def _progression_candidate(intent: PipelineIntent, p: EnrichedProgression, why: str) -> Candidate:
    chords = " → ".join(c.symbol for c in p.chords[:8])
    score = progression_score(p, intent.genre_dna)
    return Candidate(f"{why}: {chords}", _dump(p), score, progression=p)


def preset_variant(
    pipeline: ComposerPipeline, element: AlternativeElement, slot: Slot
) -> Candidate | None:
    song = pipeline.song_state
    track = song.track(element.track_id)  # type: ignore[union-attr]
    if track is None:
        return None
    brief = song_brief(song, pipeline.intent, mood_palette())
    ranked = rank_sounds(track.role, brief, sound_catalog())
    top = max((r.score for r in ranked), default=1.0) or 1.0
    current = track.preset.id if track.preset else None
    if slot.is_current and track.preset is not None:
        fit = next((r.score for r in ranked if r.entry.id == current), top)
        why = f"What you have now: {track.preset.name}"
        return Candidate(why, _dump(track.preset), round(min(1.0, fit / top), 3))
    others = [r for r in ranked if r.entry.id != current]
    category = track.preset.category if track.preset else ""
    if slot.index in (2, 4):  # C and E: another kind of sound altogether
        others = [r for r in others if r.entry.category != category] or others
    pick = max(0, slot.index - 1) + slot.attempt + 3 * slot.batch
    if not others:
        return None
    chosen = others[pick % len(others)]
    how = "another kind of sound" if chosen.entry.category != category else "the next best fit"
    why = f"{how.capitalize()}: {chosen.entry.name} ({chosen.entry.category})"
    return Candidate(
        why, _dump(preset_reference(chosen.entry)), round(min(1.0, chosen.score / top), 3)
    )


def effects_variant(
    pipeline: ComposerPipeline, element: AlternativeElement, slot: Slot
) -> Candidate | None:
    song, intent, table = pipeline.song_state, _intent(pipeline), effects_table()
    track = song.track(element.track_id)  # type: ignore[union-attr]
    if track is None or track.effect_chain is None:
        return None
    words = {*intent.genre, *intent.sub_genre, song.genre}
    alone = song.model_copy(update={"tracks": [track]})
    default = build_effects(alone, words, intent.constraints, table)[0][0]
    chain, bus, steps = track.effect_chain, table.bus.id, 1 + slot.attempt + slot.batch
    if slot.is_current:
        why = "What you have now"
    elif slot.index in (0, 1):
        for _ in range(steps):
            chain = with_send(
                with_effect(chain, "delay", "effect_more", table, song.tempo), bus, 0.12
            )
        why = "More space: more reverb send and delay"
    elif slot.index == 2:
        styles = [o for o in table.style_overrides.values() if not set(o.genres) & words]
        other = styles[(slot.attempt + slot.batch) % len(styles)].genres[0] if styles else "ambient"
        chain = build_effects(alone, {other}, intent.constraints, table)[0][0]
        why = f"Another style: the {other.replace('_', ' ')} chain"
    elif slot.index == 3:
        for kind in ("delay", "reverb", "chorus"):
            chain = with_effect(chain, kind, "effect_remove", table, song.tempo)
        chain, why = with_send(chain, bus, None), "Dry and tight: no reverb, delay or chorus"
    else:
        for _ in range(steps):
            chain = toned(toned(chain, "warmer"), "darker")
        why = "Warmer and darker tone"
    return Candidate(why, _dump(chain), _closeness(chain, default))


def _closeness(chain: EffectChain, default: EffectChain) -> float:
    """1 for the genre's own chain, less for each insert or send that differs from it."""
    changed = len({e.kind for e in chain.effects} ^ {e.kind for e in default.effects})
    changed += len(set(chain.sends.items()) ^ set(default.sends.items()))
    return round(max(0.3, 1.0 - 0.12 * changed), 3)


def arrangement_variant(
    pipeline: ComposerPipeline, element: AlternativeElement, slot: Slot
) -> Candidate | None:
    song, intent = pipeline.song_state, _intent(pipeline)
    current = song.arrangement
    if current is None:
        return None
    if slot.is_current:
        return _arrangement_candidate(song, current, "What you have now")
    every: tuple[str, ...] = ArrangementTemplateName.__args__  # type: ignore[attr-defined]
    others = [t for t in every if t not in (current.template, "generic_fallback")]
    template = current.template
    if slot.index >= 2:
        template = others[(slot.index + slot.attempt + slot.batch) % len(others)]
    if slot.index == 4:
        template = "generic_fallback"
    made = arrange(
        template,
        [t.role for t in song.tracks],
        rng=derive_rng(song.seed, 3, "arrangement", slot.variant),
        bars=current.total_bars,
        structure_hints=intent.structure_hints,
        energy_bias=min(0.1, slot.dials) if slot.index == 1 else 0.0,
        progression=song.progression,
        beats_per_bar=song.beats_per_bar,
    )
    form = " · ".join(f"{s.name} {s.bars}" for s in made.sections)
    why = (
        "Another take on the same form"
        if slot.index < 2
        else f"The {made.template.replace('_', ' ')} form"
    )
    return _arrangement_candidate(song, made, f"{why}: {form}")


def _arrangement_candidate(song: SongState, arrangement: Arrangement, why: str) -> Candidate:
    laid = song.model_copy(update={"arrangement": arrangement})
    verdict = judge_arrangement(laid, [part_of(t) for t in song.tracks])
    return Candidate(why, _dump(arrangement), round(max(0.0, min(1.0, verdict.score)), 3))


def put_variant(
    revision: Revision, element: AlternativeElement, variant: Alternative
) -> tuple[Revision, str]:
    """The revision with a variant in place, and what it is for ("the bass")."""
    revision = revision.fork()
    song = revision.song
    if isinstance(element, ProgressionElement):
        progression_changed(revision, EnrichedProgression.model_validate(variant.data))
        return revision, "the progression"
    if isinstance(element, ArrangementElement):
        arrangement = Arrangement.model_validate(variant.data)
        revision.song = song.model_copy(update={"arrangement": arrangement})
        revision.triggers += [("arrangement", None), ("energy", None)]
        revision.handled.add("arrangement")
        revision.parts = [
            t.id for t in song.tracks if not t.frozen
        ]  # parts follow the new sections
        revision.touch("arrangement", "moderate")
        return revision, "the arrangement"
    index = next((i for i, t in enumerate(song.tracks) if t.id == element.track_id), None)
    if index is None:
        raise AlternativesError("that track is no longer in the song.")
    track, tracks = song.tracks[index], list(song.tracks)
    label = track_label(song, track.id)
    if isinstance(element, TrackElement):
        take = Take.model_validate({"role": track.role, **variant.parameter_delta})  # type: ignore[dict-item]
        revision.intent = with_take(revision.intent, take)
        tracks[index] = track.model_copy(update={"regions": unpacked_regions(variant.data)})
        revision.touch(label, "moderate")
    elif isinstance(element, PresetElement):
        tracks[index] = with_preset(track, PresetReference.model_validate(variant.data))
        revision.triggers.append(("preset", track.id))
        revision.touch(f"preset:{label}", "cheap")
    else:
        tracks[index] = track.model_copy(
            update={"effect_chain": EffectChain.model_validate(variant.data)}
        )
        revision.touch(f"effects:{label}", "cheap")
    revision.song = song.model_copy(update={"tracks": tracks})
    return revision, f"the {label}" + (
        "'s sound"
        if isinstance(element, PresetElement)
        else "'s effects"
        if isinstance(element, EffectChainElement)
        else ""
    )


def variant_notes(pipeline: ComposerPipeline, alt_set: AlternativeSet, index: int) -> list[Note]:
    """What to draw in a variant's mini piano roll: its part, or its chords held, or nothing."""
    variant = alt_set.variants[index]
    element = alt_set.element
    if isinstance(element, TrackElement):
        return [n for r in unpacked_regions(variant.data) for n in _placed(r)]
    if isinstance(element, ProgressionElement):
        progression = EnrichedProgression.model_validate(variant.data)
        notes, beat = [], 0.0
        for chord in progression.chords:
            notes += [
                Note(pitch=p, velocity=HELD_VELOCITY, start_beat=beat, duration_beats=chord.beats)
                for p in chord.voicing
            ]
            beat += chord.beats
        return notes
    return []


def _placed(region: Region) -> list[Note]:
    """A region's notes in song time."""
    return [
        n.model_copy(update={"start_beat": region.start_beat + n.start_beat}) for n in region.notes
    ]


def _intent(pipeline: ComposerPipeline) -> PipelineIntent:
    if pipeline.intent is None:
        raise ValueError("the session has no intent yet")
    return pipeline.intent


def _dump(value: object) -> JsonValue:
    if value is None:
        return None
    return value.model_dump(mode="json", by_alias=True)  # type: ignore[attr-defined, no-any-return]
