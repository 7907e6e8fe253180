"""Which roles a song gets: the sounds the producer named, seated, and the genre's band
around them (its drums and bass always, and its core players, rock's guitar, unless
the prompt leaves them out)."""

from __future__ import annotations

from collections.abc import Mapping

from muse_tui.compose.intent.extract import PromptReading
from muse_tui.contracts.intent import GenreDNAVector
from muse_tui.contracts.song import TRACK_ROLES, TrackRole
from muse_tui.knowledge.arrangement import arrangement_table
from muse_tui.knowledge.instruments import InstrumentTable
from muse_tui.knowledge.lexicon import IntentLexicon


def track_roles(
    reading: PromptReading, dna: GenreDNAVector, lexicon: IntentLexicon
) -> tuple[list[TrackRole], list[str], bool]:
    """Roles from the instruments asked for (piano→chords, 808→sub bass) and the genre's.

    A listed set ("drums bass chords lead", "piano, strings and 808") is the whole
    band; otherwise named sounds take their roles (a cowbell or congas bring the
    percussion track) and the genre fills in around them. Returns the roles, the
    instrument requests, and whether the roles were inferred.
    """
    rules = [lexicon.constraints[c] for c in reading.constraints]
    requests = list(reading.instruments)
    for rule in rules:
        requests += [i for i in rule.adds_instruments if i not in requests]
    lead = reading.lead_instrument
    held = core_seats(dna, lexicon)
    named = requested_roles(requests, lexicon, lead, held)
    if any(rule.only_requested for rule in rules):
        roles = list(named)
        if "percussion" in roles and "drums" in dna.roles and "drums" not in roles:
            roles.append("drums")  # congas or a cowbell add to the kit, they don't replace it
    elif reading.listed_instruments and _names_parts(reading.listed_instruments, lexicon):
        roles = list(named)  # "drums bass chords lead": the producer listed the whole band
    elif reading.listed_instruments:
        roles = _with_core(named, home_roles(requests, lexicon), dna.roles) + list(held)
    else:
        roles = _band_around(named, requests, dna, lexicon, lead, held) + list(held)
    if any(rule.drum_voices for rule in rules) and "drums" not in roles:
        roles.append("drums")
    removed = {role for rule in rules for role in rule.removes_roles}
    kept = [r for r in TRACK_ROLES if r in roles and r not in removed]
    return kept, requests, not named


def _band_around(
    named: list[TrackRole],
    requests: list[str],
    dna: GenreDNAVector,
    lexicon: IntentLexicon,
    lead: str | None = None,
    held: Mapping[TrackRole, int] | None = None,
) -> list[TrackRole]:
    """The genre's band around the named sounds.

    A sound the genre already plays (strings in a ballad, organ in reggae) confirms
    its band rather than reshaping it: a usual harmony instrument is the genre's own
    harmony part (jazz piano is its keys, not a second piano), a usual kit sound
    still gets its track (phonk's cowbell). A new harmony sound ("gospel with a
    pad") makes the harmony with the others named beside it. A new sound named
    beside a usual one keeps the seat it takes among them all (a harmonica beside
    country's pedal steel plays the pad), so it is never left out.
    """
    usual = {lexicon.instrument_in(sound) for sound in dna.instruments}
    fresh = [r for r in requests if r not in usual]
    new = requested_roles(fresh, lexicon, lead, held)
    homes = home_roles(fresh, lexicon)  # an oboe seated on the pad is no harmony sound
    harmony = frozenset(arrangement_table().role_groups["harmony"])
    if harmony & set(homes):
        return _fill_band(named, dna.roles, home_roles(requests, lexicon))
    roles = _fill_band(new, dna.roles, homes) if new else list(dna.roles)
    has_harmony = bool(harmony & set(roles))
    seated = InstrumentTable(instruments=lexicon.instruments).seat(requests, lead=lead, held=held)
    joined = {role for role, sound in seated.items() if sound in fresh}  # beside the usual
    return roles + [
        r
        for r in named
        if r not in roles and (r in new or r in joined or not (r in harmony and has_harmony))
    ]


def core_seats(dna: GenreDNAVector, lexicon: IntentLexicon) -> dict[TrackRole, int]:
    """The genre's core seats (rock's guitar on chords) → the program of its player there:
    a named sound joins the band beside them and never takes them (issue 30)."""
    if not dna.core:
        return {}
    sounds = [found for text in dna.instruments if (found := lexicon.instrument_in(text))]
    table = InstrumentTable(instruments=lexicon.instruments)
    return table.core_seats(sounds, dna.roles, dna.core)


def home_roles(requests: list[str], lexicon: IntentLexicon) -> list[TrackRole]:
    """The roles the requested sounds are made for (a kit sound: percussion), seated or not."""
    instruments = [lexicon.instruments[r] for r in requests]
    return [("percussion" if i.is_kit_sound else i.role) for i in instruments]


def _names_parts(listed: list[str], lexicon: IntentLexicon) -> bool:
    """The list names parts of the band ("drums", "bass", "keys"), not only sounds."""
    words = [lexicon.instruments[key] for key in listed]
    return any(w.is_role_word and w.role != "lead" for w in words)


def _with_core(
    named: list[TrackRole], homes: list[TrackRole], genre_roles: list[TrackRole]
) -> list[TrackRole]:
    """A listed set of sounds with the genre's drums, bass and harmony beside it, each unless
    the list names its own (by the roles the sounds are made for, `homes`); the genre's
    keys stay unless a named sound plays them.

    "Gospel, talking drum, timbales, tin whistle" adds to the gospel band; a named
    sound never replaces the drums or the bass ("solo", "only" limit the band).
    """
    groups = arrangement_table().role_groups
    roles = list(named)
    for group in (groups["rhythm"], groups["low"], groups["harmony"]):
        if not set(homes) & set(group) or (group == groups["rhythm"] and "drums" not in homes):
            roles += [r for r in genre_roles if r in group and r not in roles]
    if "keys" in genre_roles and "keys" not in roles:
        roles.append("keys")  # the genre's keyboard player stays: gospel keeps its organ
    return roles


def requested_roles(
    requests: list[str],
    lexicon: IntentLexicon,
    lead: str | None = None,
    held: Mapping[TrackRole, int] | None = None,
) -> list[TrackRole]:
    """The roles the requested instruments play, in the order they were asked for
    (around the genre's core players, `held`)."""
    seated = InstrumentTable(instruments=lexicon.instruments).seat(requests, lead=lead, held=held)
    named: list[TrackRole] = []
    if seated.get("lead") not in (None, *requests):
        named.append("lead")  # the piano's melody, played by the table's piano melody
    for request in requests:
        instrument = lexicon.instruments[request]
        home = "percussion" if instrument.is_kit_sound else instrument.role
        seats = [role for role, seated_there in seated.items() if seated_there == request]
        named += [role for role in seats or [home] if role not in named]  # a leader plays two
    return named


def _fill_band(
    named: list[TrackRole], genre_roles: list[TrackRole], homes: list[TrackRole] | None = None
) -> list[TrackRole]:
    """Named instruments plus what the genre keeps beside them.

    The genre's drums stay (congas or a cowbell add to the kit, they don't
    replace it), and so do its bass and its topline unless one was named.
    A named harmony instrument (piano, pad) decides the harmony and colour
    layers; a named topline or texture keeps the genre's harmony.
    """
    groups = arrangement_table().role_groups
    rhythm, low = frozenset(groups["rhythm"]), frozenset(groups["low"])
    harmony, top = frozenset(groups["harmony"]), frozenset(groups["top"])
    said = set(named if homes is None else homes)
    roles = list(named)

    def keep(group: frozenset[str]) -> None:
        roles.extend(r for r in genre_roles if r in group and r not in roles)

    for group in rhythm, low:
        if not said & group:
            keep(group)
    if "drums" in genre_roles:
        keep(frozenset({"drums"}))
    if not said & harmony:
        keep(harmony)
    if not said & (harmony | top):
        keep(top)
    keep(frozenset({"lead"}))  # a genre that carries a topline keeps it
    return roles
