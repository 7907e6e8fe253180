"""How each variant of each kind of element is made and scored (see `alternatives`).

A maker gets the `Slot` (A … E, the batch's dial lift, the retry count) and
returns a `Candidate`: the payload, a one-line description of how it differs,
its heuristic score and what it takes to tell it from another take.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pydantic import JsonValue

from muse_tui.compose.arrangement import arrange
from muse_tui.compose.critics.arrangement import judge_arrangement
from muse_tui.compose.critics.listening import part_of
from muse_tui.compose.edits import reversed_motion
from muse_tui.compose.effects import build_effects
from muse_tui.compose.harmony import generate_progression
from muse_tui.compose.seeding import derive_rng
from muse_tui.compose.sounds import preset_reference, rank_sounds, song_brief
from muse_tui.compose.takes import STYLE_FIELD, Take, take_of, with_take
from muse_tui.compose.variation import (
    content_hash,
    note_edit_distance,
    packed_regions,
    part_score,
    progression_distance,
    progression_score,
    toned,
    with_effect,
    with_send,
)
from muse_tui.contracts import (
    AlternativeElement,
    Arrangement,
    ArrangementTemplateName,
    ComposerPipeline,
    CreativityDials,
    EffectChain,
    EnrichedProgression,
    Note,
    PipelineIntent,
    SongState,
    Track,
)
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.sound import effects_table, mood_palette, sound_catalog

from .regenerate import Draft, assemble, rewrite_part

#: Structural alternatives, in order of contrast: the first that differs from the song's is C.
STRUCTURES: dict[str, tuple[str, ...]] = {
    "drum_family": ("boom_bap", "trap", "four_on_floor", "half_time", "lofi_swung", "breakbeat"),
    "bass_style": ("walking", "syncopated", "root_fifth", "octave", "sustained"),
    "chord_rhythm": ("stabs", "sustained", "neo_soul_push", "house_offbeat", "swing_comp", "strum"),
}
B_LIFT = 0.15
RETRY_LIFT = 0.1


@dataclass(frozen=True)
class Slot:
    """Which variant is wanted: 0 = A … 4 = E, in which batch, on which retry."""

    index: int
    lift: float = 0.0
    attempt: int = 0
    batch: int = 0

    @property
    def is_current(self) -> bool:
        """A of the first batch: what the song has now."""
        return self.index == 0 and self.batch == 0 and self.attempt == 0

    @property
    def dials(self) -> float:
        """B and D lift the creativity dials; every retry and every batch lifts them more."""
        return round(
            self.lift + RETRY_LIFT * self.attempt + (B_LIFT if self.index in (1, 3) else 0), 3
        )

    @property
    def structural(self) -> bool:
        return self.index in (2, 3)

    @property
    def variant(self) -> int:
        """The generator variant: a different seed for every slot, batch and retry."""
        return 1 + self.index + 10 * self.batch + 100 * self.attempt


@dataclass
class Candidate:
    """One variant before it joins a set."""

    description: str
    data: JsonValue
    score: float
    delta: dict[str, JsonValue] = field(default_factory=dict)
    notes: list[Note] | None = None
    progression: EnrichedProgression | None = None

    @property
    def hash(self) -> str:
        return content_hash(self.data)

    @property
    def minimum(self) -> int:
        """How different another take must be: 5% of the notes (at least 4), or one chord."""
        if self.notes is not None:
            return max(4, len(self.notes) // 20)
        return 2 if self.progression is not None else 1

    def distance_to(self, other: Candidate) -> int:
        if self.notes is not None and other.notes is not None:
            return note_edit_distance(self.notes, other.notes)
        if self.progression is not None and other.progression is not None:
            return progression_distance(self.progression, other.progression)
        return 0 if self.hash == other.hash else 1_000


Maker = Callable[[ComposerPipeline, AlternativeElement, Slot], "Candidate | None"]


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
    pipeline: ComposerPipeline, element: AlternativeElement, slot: Slot
) -> Candidate | None:
    song, intent = pipeline.song_state, _intent(pipeline)
    track = song.track(element.track_id)  # type: ignore[union-attr]
    if track is None:
        return None
    role = track.role
    if slot.is_current:
        return _track_candidate(
            pipeline, "What you have now", take_of(intent.constraints, role), track
        )
    structure = _structure(intent, role, second=slot.index == 3 and slot.batch > 0)
    style = structure if slot.structural else None
    genre = _neighbour(intent, song, slot.batch) if slot.index == 4 else None
    # Where the dials or the style cannot move a part (pads, leads), its rhythm does.
    density = {2: -1, 3: 1}.get(slot.index, 0) if structure is None else 0
    if slot.attempt >= 2 and not density:
        density = 1 if slot.index in (1, 4) else -1
    take = Take(role, slot.variant, slot.dials, style, genre, density)
    written = _written(pipeline, track.id, take)
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


def _written(pipeline: ComposerPipeline, track_id: str, take: Take) -> Track:
    """The track written again with `take` (and the song's standing edits), assembled."""
    draft = Draft.of(pipeline, lambda: datetime.now(UTC))
    constraints = with_take(draft.intent.constraints, take)
    draft.intent = draft.intent.model_copy(update={"constraints": constraints})
    rewrite_part(draft, track_id)
    assemble(draft, [track_id])
    found = draft.song.track(track_id)
    assert found is not None
    return found


def progression_variant(
    pipeline: ComposerPipeline, element: AlternativeElement, slot: Slot
) -> Candidate | None:
    song, intent = pipeline.song_state, _intent(pipeline)
    current = song.progression
    if current is None:
        return None
    if slot.is_current:
        return _progression_candidate(intent, current, "What you have now")
    genre = _neighbour(intent, song, slot.batch) if slot.index == 4 else None
    made = current
    if not (slot.index == 2 and slot.batch == 0 and slot.attempt == 0):
        rng = derive_rng(song.seed, 2, "progression", slot.variant)
        lifted = _lifted(intent, slot.dials, genre)
        made = generate_progression(
            lifted, rng, variant=slot.variant, beats_per_bar=song.beats_per_bar
        )
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


VARIANT_MAKERS: dict[str, Maker] = {
    "track": track_variant,
    "progression": progression_variant,
    "preset": preset_variant,
    "effect_chain": effects_variant,
    "arrangement": arrangement_variant,
}


def _intent(pipeline: ComposerPipeline) -> PipelineIntent:
    if pipeline.intent is None:
        raise ValueError("the session has no intent yet")
    return pipeline.intent


def _structure(intent: PipelineIntent, role: str, *, second: bool = False) -> str | None:
    name = STYLE_FIELD.get(role)
    if name is None or intent.genre_dna is None:
        return None
    options = [s for s in STRUCTURES[name] if s != getattr(intent.genre_dna, name)]
    return options[1 if second and len(options) > 1 else 0]


def _neighbour(intent: PipelineIntent, song: SongState, batch: int) -> str | None:
    """A genre near this one (its tempo range holds the song's tempo) to borrow from."""
    table, own = genre_table(), set(intent.genre)
    near = [
        g
        for g, d in table.genres.items()
        if g not in own and d.tempo_range[0] <= song.tempo <= d.tempo_range[1]
    ]
    pool = near or [g for g in table.genres if g not in own]
    return derive_rng(song.seed, "influence", batch).choice(sorted(pool)) if pool else None


def _lifted(intent: PipelineIntent, dials: float, genre: str | None) -> PipelineIntent:
    """The intent with its creativity dials raised and, for E, another genre's harmony mixed in."""
    dna = intent.genre_dna
    base = intent.creativity_dials or (dna.creativity if dna else None) or CreativityDials()
    lifted = CreativityDials(
        harmonic=min(1.0, base.harmonic + dials), rhythmic=min(1.0, base.rhythmic + dials)
    )
    updated = intent.model_copy(update={"creativity_dials": lifted})
    if genre and dna is not None:
        borrowed = genre_table().get(genre)
        vocabulary = list(dict.fromkeys([*dna.harmonic_vocabulary, *borrowed.harmonic_vocabulary]))
        complexity = round((dna.harmonic_complexity + borrowed.harmonic_complexity) / 2, 3)
        mixed = dna.model_copy(
            update={"harmonic_vocabulary": vocabulary, "harmonic_complexity": complexity}
        )
        updated = updated.model_copy(update={"genre_dna": mixed, "explicit_progression": []})
    return updated


def _dump(value: object) -> JsonValue:
    if value is None:
        return None
    return value.model_dump(mode="json", by_alias=True)  # type: ignore[attr-defined, no-any-return]
