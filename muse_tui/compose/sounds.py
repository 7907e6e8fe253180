"""S5: choose a sound for every track and the effect chains around it.

Each track gets the catalog sound that best fits its role, the song's genres
(a blend counts every family by its weight), the moods and any instruments the
producer asked for, with ranked alternatives for "try something different".
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from muse_tui.compose.effects import build_effects
from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.pipeline import PresetAssignment
from muse_tui.contracts.song import (
    Bus,
    EffectChain,
    PresetReference,
    SongState,
    Track,
    TrackRole,
)
from muse_tui.knowledge import (
    ArrangementTable,
    EffectsTable,
    MoodPalette,
    SoundCatalog,
    SoundEntry,
    arrangement_table,
    effects_table,
    mood_palette,
    sound_catalog,
)
from muse_tui.knowledge.arrangement import FALLBACK_TEMPLATE
from muse_tui.knowledge.instruments import Instrument, instrument_table
from muse_tui.knowledge.loader import normalise_word
from muse_tui.knowledge.sound import ANY_GENRE

ALTERNATIVES = 3
# How much each kind of fit adds to a sound's score. Without a request the best total is 1;
# an instrument the producer asked for outweighs the genre's habits (rock with a rhodes).
EXACT_GENRE_FIT = 0.55
FAMILY_FIT = 0.45
ANY_GENRE_FIT = 0.2
MAIN_ROLE_FIT = 0.2
OTHER_ROLE_FIT = 0.12
MOOD_TAG_FIT = 0.05
MAX_MOOD_FIT = 0.15
REQUEST_FIT = 0.7
GENRE_INSTRUMENT_FIT = 0.1
#: Seeded nudge: enough to reorder near-ties between variants, never to flip a clear winner.
VARIANT_JITTER = 0.03
#: MPC Beats' own instrument plugins; any other engine the instrument table names is described.
STOCK_PLUGINS = frozenset({"Bassline", "TubeSynth", "Electric", "DrumSynth"})
STOCK_SOURCE = "MPC Beats stock plugin list"
_STOPWORDS = frozenset({"a", "an", "and", "the", "with", "of", "some", "sound", "sounds", "more"})


@dataclass(frozen=True)
class SoundPlan:
    """What S5 decided: a preset per track, effect chains (tracks, then the bus), the buses."""

    presets: list[PresetAssignment]
    effect_chains: list[EffectChain]
    buses: list[Bus]
    #: track id → score of the chosen sound, then of each alternative, best first.
    scores: dict[str, list[float]] = field(default_factory=dict)


@dataclass(frozen=True)
class SoundBrief:
    """What the song asks of its sounds: genre words, families by weight, moods, requests."""

    genre_words: frozenset[str]
    families: Mapping[str, float]
    family_names: Mapping[str, str]
    moods: Mapping[str, frozenset[str]] = field(default_factory=dict)
    mood_tags: frozenset[str] = frozenset()
    #: Each instrument the producer asked for, as said and as its words, head noun last.
    requests: tuple[tuple[str, tuple[str, ...]], ...] = ()
    genre_instruments: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RankedSound:
    entry: SoundEntry
    score: float


def assign_sounds(
    song: SongState,
    intent: PipelineIntent,
    rng: random.Random,
    *,
    catalog: SoundCatalog | None = None,
    effects: EffectsTable | None = None,
    moods: MoodPalette | None = None,
) -> SoundPlan:
    """Choose every track's sound and effect chain; a frozen track keeps what it has."""
    catalog = catalog or sound_catalog()
    brief = song_brief(song, intent, moods or mood_palette())
    presets: list[PresetAssignment] = []
    scores: dict[str, list[float]] = {}
    taken: set[str] = set()
    for track in song.tracks:
        if track.frozen and track.preset is not None:
            presets.append(_kept(track.id, track.preset))
            continue
        ranked = _same_instrument(track, rank_sounds(track.role, brief, catalog, rng))
        fresh = [r for r in ranked if r.entry.id not in taken] or ranked
        chosen, alternatives = fresh[0], [r for r in ranked if r is not fresh[0]][:ALTERNATIVES]
        taken.add(chosen.entry.id)
        presets.append(
            PresetAssignment(
                track_id=track.id,
                preset=preset_reference(chosen.entry),
                confidence=round(min(1.0, chosen.score), 2),
                reasoning=reasoning(chosen.entry, track.role, brief),
                alternatives=[preset_reference(r.entry) for r in alternatives],
            )
        )
        scores[track.id] = [chosen.score, *(r.score for r in alternatives)]
    chains, buses = build_effects(
        song,
        brief.genre_words | set(brief.families),
        intent.constraints,
        effects or effects_table(),
    )
    chains = _keep_frozen_chains(song.tracks, chains)
    return SoundPlan(presets=presets, effect_chains=chains, buses=buses, scores=scores)


def apply_sounds(song: SongState, plan: SoundPlan) -> SongState:
    """A copy of the song with each track's preset, GM stand-in and effect chain, and the buses."""
    presets = {a.track_id: a.preset for a in plan.presets}
    chains = {c.target_id: c for c in plan.effect_chains}
    tracks = []
    for track in song.tracks:
        update: dict[str, object] = {"effect_chain": chains.get(track.id, track.effect_chain)}
        preset = presets.get(track.id)
        if preset is not None:
            update["preset"] = preset
            if track.is_drums and preset.gm_drum_kit is not None:
                update["drum_kit"] = preset.gm_drum_kit
            elif not track.is_drums and track.instrument is None and preset.gm_program is not None:
                update["program"] = preset.gm_program
        tracks.append(track.model_copy(update=update))
    replaced = {b.id for b in plan.buses}
    buses = [b for b in song.buses if b.id not in replaced] + list(plan.buses)
    return song.model_copy(update={"tracks": tracks, "buses": buses})


def song_brief(
    song: SongState,
    intent: PipelineIntent | None,
    moods: MoodPalette,
    table: ArrangementTable | None = None,
) -> SoundBrief:
    """Read the genres (and their families), moods and instrument requests of a song."""
    table = table or arrangement_table()
    dna = intent.genre_dna if intent else None
    said = [*(intent.genre if intent else []), *(intent.sub_genre if intent else []), song.genre]
    if dna:
        said += [dna.genre, *dna.blend]
    said = [w for w in said if w.strip()]
    families: dict[str, float] = {}
    names: dict[str, str] = {}
    for word in said:
        names.setdefault(table.template(word)[0], " ".join(word.replace("_", " ").lower().split()))
    if dna and dna.blend:
        top = max(dna.blend.values()) or 1.0
        for genre, weight in dna.blend.items():
            _weigh(families, table.template(genre)[0], weight / top)
    if dna:
        _weigh(families, dna.arrangement_template, 1.0)
        names.setdefault(dna.arrangement_template, dna.display_name.lower())
    for i, word in enumerate(said):
        _weigh(families, table.template(word)[0], 1.0 if i == 0 else 0.8, only_new=True)
    families.pop(FALLBACK_TEMPLATE, None)
    names = {f: names.get(f, f.replace("_", " ")) for f in families}
    mood_words = [normalise_word(m) for m in (intent.mood if intent else [])]
    mood_tags = {m: frozenset(found.tags) for m in mood_words if (found := moods.find(m))}
    asked = intent.instrument_requests if intent else []
    usual = dna.instruments if dna else []
    return SoundBrief(
        genre_words=frozenset(normalise_word(w) for w in said),
        families=families,
        family_names=names,
        moods=mood_tags,
        mood_tags=frozenset().union(*mood_tags.values()),
        requests=tuple((text, words) for text in asked if (words := tuple(_words(text)))),
        genre_instruments=frozenset(w for text in usual for w in _words(text)),
    )


def rank_sounds(
    role: str, brief: SoundBrief, catalog: SoundCatalog, rng: random.Random | None = None
) -> list[RankedSound]:
    """Every sound for the role, best first; `rng` nudges near-ties so variants differ."""
    ranked = []
    for entry in catalog.for_role(role):
        jitter = rng.uniform(0, VARIANT_JITTER) if rng is not None else 0.0
        ranked.append(RankedSound(entry, round(_fit(entry, role, brief) + jitter, 4)))
    ranked.sort(key=lambda r: (-r.score, r.entry.id))
    return ranked


def _same_instrument(track: Track, ranked: list[RankedSound]) -> list[RankedSound]:
    """Only sounds of the instrument the track plays: a "Bells" track never gets a saw.

    When the catalog has none, the instrument table's own patch stands in, so the
    preset, the GM program and the track's name always agree.
    """
    if track.instrument is None:
        return ranked
    same = [r for r in ranked if r.entry.instrument == track.instrument]
    if same:
        return same
    sound = instrument_table().get(track.instrument)
    if sound is None or sound.program is None:
        return ranked
    return [RankedSound(instrument_sound(track.instrument, sound, track.role), 1.0)]


def instrument_sound(instrument_id: str, sound: Instrument, role: TrackRole) -> SoundEntry:
    """The instrument table's patch as a catalog sound (for an instrument the catalog lacks)."""
    return SoundEntry(
        id=f"instrument.{instrument_id.replace(' ', '-')}",
        roles=[role],
        instrument=instrument_id,
        genres=[ANY_GENRE],
        engine=sound.engine or "keygroup program (any sampled instrument)",
        engine_source=STOCK_SOURCE if sound.engine in STOCK_PLUGINS else "described",
        name=sound.patch or f"general midi {sound.name or instrument_id} sound",
        category=(sound.name or instrument_id).lower(),
        gm_program=sound.program,
        source="described",
        tags=[],
    )


def preset_reference(entry: SoundEntry) -> PresetReference:
    """The catalog entry as the song records it: the fields a preset reference shares with it."""
    return PresetReference.model_validate(entry, from_attributes=True)


def reasoning(entry: SoundEntry, role: str, brief: SoundBrief) -> str:
    """One sentence: why this sound, for this role, in this song."""
    role_words = role.replace("_", " ")
    exact = sorted(set(entry.genres) & (brief.genre_words - set(brief.families)))
    family = max(
        (f for f in entry.genres if f in brief.families), key=brief.families.get, default=None
    )
    if exact:
        why = f"is a {exact[0].replace('_', ' ')} {role_words} sound"
    elif family is not None:
        why = f"suits {brief.family_names[family]} {role_words}"
    elif ANY_GENRE in entry.genres:
        why = f"is an all-round {role_words} sound"
    else:
        why = f"is a {role_words} sound from another style"
    moods = [m for m, tags in brief.moods.items() if tags & set(entry.tags)]
    extras = [f"fits the {moods[0].replace('_', ' ')} mood"] if moods else []
    vocabulary = _vocabulary(entry)
    asked = [text for text, words in brief.requests if _request_match(words, vocabulary) == 1]
    extras += [f"answers the request for {asked[0]}"] if asked else []
    tail = "".join(f", {e}" for e in extras)
    return f"{entry.name[0].upper()}{entry.name[1:]} {why}{tail}; load it in {entry.engine}."


def _fit(entry: SoundEntry, role: str, brief: SoundBrief) -> float:
    genre = 0.0
    for word in entry.genres:
        if word == ANY_GENRE:
            genre = max(genre, ANY_GENRE_FIT)
        elif word in brief.families:
            genre = max(genre, FAMILY_FIT * brief.families[word])
        elif word in brief.genre_words:
            genre = max(genre, EXACT_GENRE_FIT)
    role_fit = MAIN_ROLE_FIT if entry.roles[0] == role else OTHER_ROLE_FIT
    mood = min(MAX_MOOD_FIT, MOOD_TAG_FIT * len(set(entry.tags) & brief.mood_tags))
    vocabulary = _vocabulary(entry)
    request = REQUEST_FIT * max(
        (_request_match(w, vocabulary) for _, w in brief.requests), default=0
    )
    usual = GENRE_INSTRUMENT_FIT if brief.genre_instruments & vocabulary else 0.0
    return genre + role_fit + mood + request + usual


def _weigh(
    families: dict[str, float], family: str, weight: float, *, only_new: bool = False
) -> None:
    if only_new and family in families:
        return
    families[family] = max(families.get(family, 0.0), weight)


def _request_match(words: tuple[str, ...], vocabulary: frozenset[str]) -> float:
    """1 when a sound has every word of a request, ½ when it has its head noun, else 0.

    "acoustic guitar" fully fits a steel-string guitar, half-fits an electric guitar,
    and does not fit an upright bass just because both are acoustic.
    """
    if all(w in vocabulary for w in words):
        return 1.0
    return 0.5 if words[-1] in vocabulary else 0.0


def _vocabulary(entry: SoundEntry) -> frozenset[str]:
    return frozenset(_words(" ".join([*entry.tags, entry.name, entry.category])))


def _words(text: str) -> Iterable[str]:
    """Lowercase words without filler or plural s: 'Live Drums' → 'live', 'drum'."""
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word not in _STOPWORDS:
            yield word[:-1] if len(word) > 3 and word.endswith("s") and word[-2] != "s" else word


def _kept(track_id: str, preset: PresetReference) -> PresetAssignment:
    return PresetAssignment(
        track_id=track_id,
        preset=preset,
        confidence=1.0,
        reasoning="The producer froze this track, so its sound stays as it is.",
    )


def _keep_frozen_chains(tracks: Sequence[Track], chains: list[EffectChain]) -> list[EffectChain]:
    frozen = {t.id: t.effect_chain for t in tracks if t.frozen and t.effect_chain is not None}
    return [frozen.get(c.target_id) or c for c in chains]
