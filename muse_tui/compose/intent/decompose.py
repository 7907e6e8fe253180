"""S1: a prompt in, a complete `PipelineIntent` out, with what was guessed and what to ask."""

from __future__ import annotations

from pathlib import Path

from muse_tui.compose.intent.band import track_roles
from muse_tui.compose.intent.blend import blend_genres
from muse_tui.compose.intent.enrich import (
    GenreChoice,
    choose_genres,
    choose_key,
    creativity_dials,
    song_length,
    song_moods,
)
from muse_tui.compose.intent.expression_words import from_phrases, requested_in
from muse_tui.compose.intent.extract import PromptReading, read_prompt
from muse_tui.compose.intent.meter import read_meter
from muse_tui.compose.intent.reasons import reasons_for
from muse_tui.compose.intent.structured import StructuredPrompt, parse_structured, settle
from muse_tui.compose.intent.tempo import TempoChoice, TempoSource, choose_tempo, genre_words
from muse_tui.compose.intent.text import readable
from muse_tui.compose.intent.unread import unread_sentence
from muse_tui.contracts.intent import (
    Ambiguity,
    ArtistInfluence,
    GenreDNAVector,
    IntentDecompositionResult,
    KeyAnalysis,
    PipelineIntent,
    TempoAnalysis,
)
from muse_tui.contracts.meter import Meter
from muse_tui.knowledge.artists import ArtistTable, artist_table
from muse_tui.knowledge.genres import GenreTable, genre_table
from muse_tui.knowledge.lexicon import IntentLexicon, intent_lexicon
from muse_tui.knowledge.meters import meter_table

#: The order `inferred_fields` lists what was guessed.
INFERABLE = ("genre", "tempo", "key", "mode", "mood", "roles", "duration")
_UNKNOWN_ARTIST_WEIGHT = 0.5


def decompose(
    prompt: str,
    *,
    preferred_genre: str | None = None,
    root: Path | None = None,
    meter: str | None = None,
) -> IntentDecompositionResult:
    """Turn a producer's prompt into a `PipelineIntent`, filling gaps from genre conventions.

    `preferred_genre` stands in for the default when the prompt gives nothing to go
    on ("make me a beat"); `root` reads the knowledge from another skills folder.
    `meter` is the producer's answer when the prompt named two meters. Raises
    `SkillFileError` if a skill file is broken. Bytes that were not UTF-8 (lone
    surrogates) are read as U+FFFD.
    """
    prompt = readable(prompt)
    genres = genre_table(root)
    lexicon = intent_lexicon(root)
    if (structured := parse_structured(prompt, lexicon)) is not None:  # headers set, never asked
        settled = settle(
            decompose(
                structured.as_text(), preferred_genre=preferred_genre, root=root, meter=meter
            ),
            structured,
        )
        settled = settled.model_copy(update={"reasons": reasons_for(settled.intent, lexicon)})
        return _with_the_rest(settled, prompt, structured)
    artists = artist_table(root)
    reading = read_prompt(prompt, lexicon, artists)
    choice = choose_genres(reading, artists, lexicon, genres, preferred_genre)
    ids = list(choice.weights)
    dna = blend_genres(ids, [choice.weights[g] for g in ids], root=root)
    dna = _apply_structure(_apply_sub_genres(dna, reading, lexicon), reading, lexicon)

    shift = sum(lexicon.moods[m].tempo_shift for m in reading.moods)
    shift += sum(lexicon.tempo_words[w].tempo_shift for w in reading.tempo_words)
    paced = [lexicon.sub_genres[s] for s in reading.sub_genres if lexicon.sub_genres[s].tempo_shift]
    shift += sum(sub.tempo_shift for sub in paced)
    usual = _usual_tempo(choice, genres) or dna.tempo_default
    tempo = choose_tempo(
        dna,
        [genres.get(g) for g in ids],
        reading.tempo.bpms if reading.tempo else _marked_tempo(reading, usual),
        _tempo_sources(reading, choice, artists, genres),
        max(-1.0, min(1.0, shift)),
        _half_time_hint(reading, lexicon),
        usual,
        f"the {paced[0].phrases[0]} feel" if paced else "the mood",
    )
    dna = _with_meeting(dna, tempo, reading, lexicon)
    primary = max(ids, key=lambda g: choice.weights[g])  # the first named wins a tie
    moods, moods_inferred = song_moods(reading, artists, primary, lexicon)
    key, tonic_inferred, mode_inferred = choose_key(reading, dna, reading.moods, lexicon)
    roles, requests, roles_inferred = track_roles(reading, dna, lexicon)
    loop = any(lexicon.structure_hints[rule].loop for _, rule in reading.structure)
    meters = read_meter(prompt, meter_table(root))
    song_meter = Meter.parse(meter) if meter else meters.meter
    duration, duration_inferred, length_note = song_length(
        reading,
        tempo.analysis.bpm,
        loop,
        lexicon,
        beats_per_bar=song_meter.beats_per_bar if song_meter else 4.0,
    )
    influences, unknown_notes = _influences(reading, artists, dna, primary)

    ambiguities = [*tempo.ambiguities, *_key_ambiguity(reading), *unknown_notes]
    if meter is None and (clash := meters.ambiguity()) is not None:
        ambiguities.insert(0, clash)
    ambiguities += [length_note] if length_note else []
    unread_note = _unread_note(reading)
    ambiguities += [unread_note] if unread_note else []
    if choice.ambiguity is not None:  # a question about the genre comes first
        blocking = choice.ambiguity.severity == "blocking"
        ambiguities.insert(0 if blocking else len(tempo.ambiguities), choice.ambiguity)

    intent = PipelineIntent(
        genre=ids,
        sub_genre=_sub_genres(reading, artists, ids),
        tempo=tempo.analysis.bpm,
        key=key.root,
        mode=key.mode,
        mood=moods,
        influences=[i.name for i in influences],
        instrument_requests=requests,
        lead_instrument=reading.lead_instrument if reading.lead_instrument in requests else None,
        structure_hints=_with_meter_sections(
            [hint for hint, _ in reading.structure], meters.sections, lexicon
        ),
        meter=None if song_meter is None or song_meter.is_common else song_meter,
        section_meters=dict(meters.sections),
        duration=duration,
        constraints=list(reading.constraints),
        explicit_progression=list(reading.progression),
        roles=roles,
        raw_prompt=prompt,
        expression_requests=from_phrases(prompt),
        influence_analysis=influences,
        genre_dna=dna,
        tempo_analysis=tempo.analysis,
        key_analysis=key,
        creativity_dials=creativity_dials(dna, reading, lexicon),
        ambiguities=ambiguities,
    )
    guessed = {
        "genre": choice.inferred,
        "tempo": tempo.analysis.source != "explicit",
        "key": tonic_inferred,
        "mode": mode_inferred,
        "mood": moods_inferred,
        "roles": roles_inferred,
        "duration": duration_inferred,
    }
    blocking = bool(intent.blocking_ambiguities)
    return IntentDecompositionResult(
        intent=intent,
        ready_to_execute=not blocking,
        summary=intent.blocking_ambiguities[0].reason
        if blocking
        else _summary(intent, dna, tempo.analysis, key, moods_inferred, [length_note, unread_note]),
        inferred_fields=[name for name in INFERABLE if guessed[name]],
        reasons=reasons_for(intent, lexicon),
    )


def _tempo_sources(
    reading: PromptReading, choice: GenreChoice, artists: ArtistTable, genres: GenreTable
) -> list[TempoSource]:
    """Named genres set the tempo; artists narrow it, or set it when no genre was named."""
    named = [
        TempoSource(genres.get(g).display_name, *genres.get(g).tempo_range, is_artist=False)
        for g in choice.named
    ]
    heard = [
        TempoSource(name, *artists.get(name).tempo, is_artist=True) for name in reading.artists
    ]
    if not named:
        return heard
    low = max(s.low for s in named)
    high = min(s.high for s in named)
    if low > high:
        return named
    return named + [s for s in heard if s.low <= high and low <= s.high]


def _usual_tempo(choice: GenreChoice, genres: GenreTable) -> float | None:
    """The named genres' usual tempo; genres that came with an artist don't move it."""
    weights = {g: choice.weights[g] for g in choice.named}
    total = sum(weights.values())
    if not total:
        return None
    return sum(genres.get(g).tempo_default * w for g, w in weights.items()) / total


def _with_meter_sections(
    hints: list[str], sections: dict[str, Meter], lexicon: IntentLexicon
) -> list[str]:
    """A section asked for in a meter of its own ("a 6/8 bridge") is asked for, too."""
    wanted = [k for k in sections if k in lexicon.structure_hints and k not in hints]
    return [*hints, *wanted]


def _marked_tempo(reading: PromptReading, usual: float) -> tuple[float, ...]:
    """A tempo marking ("Presto") as a BPM: the genre's usual tempo, brought inside the
    marking's range (its nearer end, a step in from the edge)."""
    if reading.tempo_marking is None:
        return ()
    low, high, _ = reading.tempo_marking
    inside = min(max(usual, low + 0.1 * (high - low)), high - 0.1 * (high - low))
    return (float(round(inside)),)


def _half_time_hint(reading: PromptReading, lexicon: IntentLexicon) -> bool | None:
    if reading.tempo is not None and reading.tempo.half_time:
        return True
    for _, rule in reading.structure:
        if lexicon.structure_hints[rule].half_time is not None:
            return lexicon.structure_hints[rule].half_time
    return None


def _apply_sub_genres(
    dna: GenreDNAVector, reading: PromptReading, lexicon: IntentLexicon
) -> GenreDNAVector:
    """A sub-genre's own players override its genre's: "cumbia" is latin with a cumbia bass."""
    changes: dict[str, object] = {}
    for name in reading.sub_genres:
        sub = lexicon.sub_genres[name]
        if sub.bass_style is not None:
            changes.setdefault("bass_style", sub.bass_style)
        if sub.drum_family is not None:
            changes.setdefault("drum_family", sub.drum_family)
    return dna.model_copy(update=changes) if changes else dna


def _apply_structure(
    dna: GenreDNAVector, reading: PromptReading, lexicon: IntentLexicon
) -> GenreDNAVector:
    """Groove hints override the genre: "4-on-floor", "half-time", "swung", "straight"."""
    changes: dict[str, object] = {}
    for _, name in reading.structure:
        rule = lexicon.structure_hints[name]
        if rule.drum_family is not None:
            changes.setdefault("drum_family", rule.drum_family)
        if rule.half_time is not None:
            changes.setdefault("half_time", rule.half_time)
        if rule.swing is not None:
            changes.setdefault("swing", rule.swing)
    return dna.model_copy(update=changes) if changes else dna


def _with_meeting(
    dna: GenreDNAVector, tempo: TempoChoice, reading: PromptReading, lexicon: IntentLexicon
) -> GenreDNAVector:
    """When influences meet at half time, the blend runs in the faster range, felt half-time."""
    meeting = tempo.meeting
    if meeting is None or not meeting.half_time or not tempo.analysis.half_time:
        return dna
    drums_named = any(lexicon.structure_hints[r].drum_family for _, r in reading.structure)
    bpm = min(max(tempo.analysis.bpm, meeting.low), meeting.high)
    update: dict[str, object] = {
        "half_time": True,
        "tempo_range": (meeting.low, meeting.high),
        "tempo_default": bpm,
    }
    if not drums_named:
        update["drum_family"] = "half_time"
    return dna.model_copy(update=update)


def _influences(
    reading: PromptReading, artists: ArtistTable, dna: GenreDNAVector, primary: str
) -> tuple[list[ArtistInfluence], list[Ambiguity]]:
    """Known artists with their genre and traits; unknown names as loose, low-confidence ones."""
    raw = [(name, 1.0) for name in reading.artists]
    raw += [(name, _UNKNOWN_ARTIST_WEIGHT) for name in reading.unknown_names]
    total = sum(weight for _, weight in raw) or 1.0
    influences: list[ArtistInfluence] = []
    notes: list[Ambiguity] = []
    for name, weight in raw:
        share = round(weight / total, 4)
        if name in artists:
            entry = artists.get(name)
            influences.append(
                ArtistInfluence(
                    name=name,
                    traits=list(entry.traits),
                    genre_mapping=entry.genre,
                    weight=share,
                    tempo_range=entry.tempo,
                    confidence=0.95,
                    known=True,
                )
            )
            continue
        influences.append(
            ArtistInfluence(
                name=name, genre_mapping=primary, weight=share, confidence=0.3, known=False
            )
        )
        notes.append(
            Ambiguity(
                field="influences",
                reason=f"I don't know {name}, so they only loosely steer this toward "
                f"{genre_words(dna)}.",
                options=[primary],
                default_value=primary,
                severity="optional",
            )
        )
    return influences, notes


def _sub_genres(reading: PromptReading, artists: ArtistTable, ids: list[str]) -> list[str]:
    subs = list(reading.sub_genres)
    for name in reading.artists:
        entry = artists.get(name)
        if entry.sub_genre and entry.genre in ids and entry.sub_genre not in subs:
            subs.append(entry.sub_genre)
    return subs


def _key_ambiguity(reading: PromptReading) -> list[Ambiguity]:
    named = list(dict.fromkeys((k.tonic, k.mode) for k in reading.keys if k.tonic))
    if len(named) < 2:
        return []
    spelled = [f"{tonic} {mode or ''}".strip() for tonic, mode in named]
    return [
        Ambiguity(
            field="key",
            reason=f"The prompt names {len(named)} keys, so I used the first, {spelled[0]}.",
            options=spelled,
            default_value=spelled[0],
            severity="optional",
        )
    ]


def _summary(
    intent: PipelineIntent,
    dna: GenreDNAVector,
    tempo: TempoAnalysis,
    key: KeyAnalysis,
    moods_inferred: bool,
    notes: list[Ambiguity | None] | None = None,
) -> str:
    """One sentence a producer can confirm: mood, genre, tempo, key, influences, requests.

    `notes` follow (a length out of bounds, words not understood), so they are never silent.
    """
    moods = [] if moods_inferred else intent.mood[:2]
    opening = " ".join([*moods, genre_words(dna)])
    text = f"{opening[:1].upper()}{opening[1:]} at {tempo.bpm:g} BPM"
    if tempo.half_time:
        text += f" (half-time, felt at {tempo.perceived_bpm:g})"
    text += f" in {key.root} {key.mode.replace('_', ' ')}"
    if intent.meter is not None:
        text += f", in {intent.meter.feel_words}"
    if intent.influences:
        text += f", drawing on {_listed(intent.influences)}"
    if intent.instrument_requests:
        text += f", with {_listed(intent.instrument_requests)}"
    if intent.constraints:
        text += f"; {', '.join(intent.constraints)}"
    return " ".join([f"{text}.", *(note.reason for note in notes or [] if note)])


def _unread_note(reading: PromptReading) -> Ambiguity | None:
    """Words of a prompt in another language that nothing read, said rather than dropped."""
    if not reading.unread:
        return None
    return Ambiguity(field="words", reason=unread_sentence(reading.unread), severity="optional")


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _with_the_rest(
    result: IntentDecompositionResult, prompt: str, structured: StructuredPrompt
) -> IntentDecompositionResult:
    """A structured prompt's title, `Effects:` and expression on the intent, read once here."""
    rest = {
        "title": structured.request or structured.style or "Untitled",
        "effect_requests": {part: list(words) for part, words in structured.effects.items()},
        "expression_requests": requested_in(prompt, structured.expressiveness),
    }
    return result.model_copy(update={"intent": result.intent.model_copy(update=rest)})
