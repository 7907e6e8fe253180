"""S1's decision record: why the key, the tempo and the band are what they are.

Each `Reason` names the prompt's word when the producer said it, or the genre
row of `skills/harmony/genre-dna.json` (with the value it held) that chose it,
so `ask` can answer "why this tempo?" from the song's own record.
"""

from __future__ import annotations

from muse_tui.compose.intent.band import core_seats, requested_roles
from muse_tui.compose.intent.tempo import genre_words
from muse_tui.contracts.intent import GenreDNAVector, PipelineIntent, Reason
from muse_tui.knowledge.lexicon import IntentLexicon

GENRES_FILE = "skills/harmony/genre-dna.json"


def reasons_for(intent: PipelineIntent, lexicon: IntentLexicon) -> list[Reason]:
    """The key, tempo and band of a decomposed intent, each with why."""
    dna = intent.genre_dna
    if dna is None:
        return []
    return [_key(intent, dna, lexicon), _tempo(intent, dna), _band(intent, dna, lexicon)]


def _row(dna: GenreDNAVector) -> str:
    return f"{GENRES_FILE}: genres.{dna.genre}"


def _key(intent: PipelineIntent, dna: GenreDNAVector, lexicon: IntentLexicon) -> Reason:
    analysis = intent.key_analysis
    choice = f"{intent.key} {intent.mode}"
    if analysis is None:
        return Reason(topic="key", choice=choice, because=f"{choice} was chosen.")
    keys = f"{_row(dna)}.preferredKeys = {', '.join(dna.preferred_keys)}"
    because, rule = analysis.reasoning, ""
    if analysis.source == "genre_convention":
        rule = keys
    elif analysis.source == "mood_mapping":
        leaning = [m for m in intent.mood if m in lexicon.moods and lexicon.moods[m].mode]
        mood = leaning[0] if leaning else ", ".join(intent.mood)
        because = (
            f"the mood ({mood}) asks for {intent.mode}, and {intent.key} is one of the usual "
            f"keys for {genre_words(dna)}."
        )
        rule = f"skills/harmony/intent-lexicon.json: moods.{mood}.mode; {keys}"
    return Reason(topic="key", choice=choice, because=because, rule=rule)


def _tempo(intent: PipelineIntent, dna: GenreDNAVector) -> Reason:
    analysis = intent.tempo_analysis
    choice = f"{intent.tempo:g} BPM"
    if analysis is None:
        return Reason(topic="tempo", choice=choice, because=f"{choice} was chosen.")
    rule = ""
    if analysis.source != "explicit":
        low, high = dna.tempo_range
        rule = f"{_row(dna)}.tempoDefault = {dna.tempo_default:g} (tempoRange {low:g}-{high:g})"
    return Reason(topic="tempo", choice=choice, because=analysis.reasoning, rule=rule)


def _band(intent: PipelineIntent, dna: GenreDNAVector, lexicon: IntentLexicon) -> Reason:
    held = core_seats(dna, lexicon)
    named = requested_roles(list(intent.instrument_requests), lexicon, intent.lead_instrument, held)
    words = lambda roles: ", ".join(r.replace("_", " ") for r in roles)  # noqa: E731
    choice = words(intent.roles)
    genre = genre_words(dna)
    rule = f"{_row(dna)}.roles = {words(dna.roles)}"
    asked = ", ".join(intent.instrument_requests)
    if not intent.instrument_requests:
        because = f"You named no instruments, so the parts are the {genre} band."
    elif set(intent.roles) <= set(named):
        because, rule = f"You named the band: {asked}.", ""
    else:
        because = f"You named {asked}; the other parts are the {genre} band."
    return Reason(topic="band", choice=choice, because=because, rule=rule)
