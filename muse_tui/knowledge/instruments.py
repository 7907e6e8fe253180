"""The instrument table (`skills/sound/instruments.json`): one truth for what a word plays.

Each instrument word maps to a track role, the track's name and GM program (or,
for a kit sound, the kit voices it plays and their rhythms), a playing idiom and
what to load in MPC Beats. The intent lexicon reads its instrument phrases from
here; S4 names and programs tracks from here; S5 keeps to the same instrument.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.song import TrackRole
from muse_tui.knowledge.arrangement import arrangement_table
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.rhythm import DrumPattern
from muse_tui.knowledge.table import skill_table
from muse_tui.knowledge.tracks import TRACKS_FILE, TrackTable

INSTRUMENTS_FILE = "sound/instruments.json"
#: A rhythm written for any genre.
ANY = "*"
#: Roles whose sounds hold or colour the band rather than carry its tune.
BED_ROLES: frozenset[str] = frozenset({"pad", "texture", "bass", "sub_bass"})
LOW_ROLES: frozenset[str] = frozenset({"bass", "sub_bass"})
#: Where a named pitched sound plays when its own roles are taken, first free wins.
SPARE_ROLES: tuple[TrackRole, ...] = ("pad", "arp", "keys", "texture", "chords")


class Instrument(Contract):
    """An instrument a producer may ask for, the role that plays it, and how it sounds."""

    role: TrackRole
    also_roles: list[TrackRole] = Field(
        default_factory=list, description="roles it may take when its own is already taken"
    )
    phrases: list[str] = Field(min_length=1)
    genre_hint: str | None = Field(default=None, description="suggested when no genre is named")
    implies_genre: str | None = Field(default=None, description="naming it names the genre")
    name: str | None = Field(default=None, description="the track's name")
    program: int | None = Field(default=None, ge=0, le=127, description="GM program, 0-based")
    kit_voices: list[str] = Field(default_factory=list, description="kit voices it plays")
    idiom: str = ""
    engine: str | None = Field(default=None, description="what to load in MPC Beats")
    patch: str | None = Field(default=None, description="the patch, described")
    rhythms: dict[str, DrumPattern] = Field(
        default_factory=dict, description="genre id or drum family → pattern"
    )
    bed: bool = Field(
        default=False, description="it colours the band and never takes a named sound's melody"
    )
    articulation: str | None = Field(
        default=None, description="how its notes are played (`sound/articulations.json`)"
    )
    monophonic: bool = Field(
        default=False,
        description="one note at a time (a wind, brass or harmonica player): on a harmony "
        "role it plays a line of held guide tones, never block chords",
    )
    quiets_kit_voices: list[str] = Field(
        default_factory=list, description="kit voices the drums leave out when it plays"
    )
    drum_kit: int | None = Field(
        default=None, ge=0, le=127, description="the GS kit the drums play it on (brushes: 40)"
    )
    about: str = ""

    @model_validator(mode="after")
    def _one_kind(self) -> Instrument:
        if self.kit_voices and self.program is not None:
            raise ValueError("a kit sound plays kitVoices: leave out program")
        if self.kit_voices and ANY not in self.rhythms:
            raise ValueError("a kit sound needs a '*' rhythm for genres without their own")
        if (self.program is None) != (self.name is None) and not self.kit_voices:
            raise ValueError("name and program go together (leave both out for a role word)")
        played = {v for pattern in self.rhythms.values() for v in pattern.voices}
        if played - set(self.kit_voices):
            raise ValueError(f"rhythms play {sorted(played - set(self.kit_voices))}, not kitVoices")
        return self

    @property
    def is_kit_sound(self) -> bool:
        """Played from the GM drum kit (cowbell, congas), on the percussion track."""
        return bool(self.kit_voices)

    @property
    def is_role_word(self) -> bool:
        """A word that names a role, not a sound ("chords", "lead"): the genre decides."""
        return self.program is None and not self.kit_voices

    def rhythm(self, styles: Iterable[str]) -> DrumPattern:
        """The pattern for the first of `styles` (genre ids, then drum family) it has."""
        for style in styles:
            if style in self.rhythms:
                return self.rhythms[style]
        return self.rhythms[ANY]


class InstrumentTable(Contract):
    """Every instrument word, keyed by its id."""

    about: str = ""
    instruments: dict[str, Instrument] = Field(min_length=1)

    def get(self, instrument_id: str | None) -> Instrument | None:
        return self.instruments.get(instrument_id) if instrument_id else None

    def idiom_of(self, instrument_id: str | None) -> str | None:
        """How an instrument is played ("walking quarter notes"), if the table says."""
        found = self.get(instrument_id)
        return found.idiom if found is not None and found.idiom else None

    def can_lead(self, instrument_id: str | None, *, asked: bool = False) -> bool:
        """It can carry the melody: a pitched sound whose own or other roles include the lead.

        Beds and textures (strings, pads, choirs, vocal chops, an arpeggiator, palm-muted
        chugs: `bed`), basses and kit sounds never take the melody from the band's lead;
        a bed leads only when the producer asks for it by name ("palm-muted guitar lead").
        """
        found = self.get(instrument_id)
        if found is None or found.program is None or found.role in BED_ROLES:
            return False
        if found.bed and not asked:
            return False
        return "lead" in (found.role, *found.also_roles)

    def leader(self, requests: Iterable[str], asked: str | None = None) -> str | None:
        """The named instrument that plays the melody: the one asked to lead ("oboe lead"),
        else the first named whose own role is the lead, else the first named that can lead."""
        able = [r for r in dict.fromkeys(requests) if self.can_lead(r)]
        if asked is not None and self.can_lead(asked, asked=True):
            return asked
        own = [r for r in able if self.instruments[r].role == "lead"]
        return (own or able or [None])[0]

    def melody_of(self, instrument_id: str) -> str:
        """The sound that plays an instrument's melody: its own, or the table's melody
        player of the same program when it is made for another role (piano: "piano melody")."""
        found = self.instruments[instrument_id]
        if found.role == "lead":
            return instrument_id
        twins = (
            key
            for key, other in self.instruments.items()
            if other.role == "lead"
            and other.program == found.program
            and (other.name or "").endswith("Melody")
        )
        return next(twins, instrument_id)

    def seat(
        self,
        requests: Iterable[str],
        roles: Collection[TrackRole] | None = None,
        lead: str | None = None,
        held: Mapping[TrackRole, int] | None = None,
    ) -> dict[TrackRole, str]:
        """Which requested sound plays which role: its own, else the first free other.

        The named leader (`leader`, with `lead` the one asked to lead) takes the
        lead first; a leader made for another role (a piano, a nylon guitar) plays
        that one too: the right hand's melody over its own chords. Kit sounds share
        the percussion track and role words claim nothing, so "piano and rhodes"
        seats piano on chords and rhodes on keys. With `roles` (the song's, when the
        producer listed them) a sound takes only one of those, else a role of its own
        role's group: on a song of drums, bass, arp and pad a pluck plays the arp and
        a sub bass the bass. A pitched sound whose roles are all taken plays any free
        bed or top role (`SPARE_ROLES`), so every named sound gets its own track: it
        joins the band rather than going unplayed.

        `held` maps the genre's core seats (`core_seats`: rock's guitar on chords) to
        the program of the player there: a named sound of another GM family joins the
        band beside that player rather than taking its seat (a mandolin in a rock song
        plays keys, the guitar keeps the chords; an acoustic guitar may take them).
        """
        requests = list(requests)
        groups = arrangement_table().role_groups if roles is not None else {}
        held = held or {}
        seated: dict[TrackRole, str] = {}
        leader = self.leader(requests, lead)
        if leader is not None and (roles is None or "lead" in roles):
            seated["lead"] = self.melody_of(leader)
        for request in requests:
            instrument = self.instruments.get(request)
            if instrument is None or instrument.is_kit_sound or instrument.is_role_word:
                continue
            kin = next((g for g in groups.values() if instrument.role in g), [])
            spare = SPARE_ROLES if instrument.role not in LOW_ROLES else ()
            wanted = (instrument.role, *instrument.also_roles, *kin, *spare)
            if request in seated.values():  # the leader: its own role too, if it has another
                wanted = self._leader_seats(instrument, held) if request == leader else ()
            free = [
                r
                for r in dict.fromkeys(wanted)
                if r not in seated
                and (roles is None or r in roles)
                and _may_sit(instrument, held.get(r))
            ]
            if free:
                seated[free[0]] = request
        return seated

    def _leader_seats(
        self, instrument: Instrument, held: Mapping[TrackRole, int]
    ) -> tuple[TrackRole, ...]:
        """Where a leader made for another role plays that one too: its own role, or,
        when a core player holds it (a piano leading a rock song), the harmony roles it
        can also take (the piano's keys), so it still comps under its melody."""
        if _may_sit(instrument, held.get(instrument.role)):
            return (instrument.role,)
        harmony = arrangement_table().role_groups["harmony"]
        return tuple(r for r in instrument.also_roles if r in harmony)

    def usual(
        self,
        sounds: Iterable[str],
        roles: Collection[TrackRole],
        placed: Collection[str] = frozenset(),
    ) -> dict[TrackRole, str]:
        """Role → a genre's usual sound for it, from its instrument ids in the genre's order.

        A sound takes its own role, else another free role of the same group (jazz's
        piano plays the keys), never a role of another group or one outside `roles`.
        Sounds already `placed` (the producer's) are not played twice.
        """
        groups = arrangement_table().role_groups
        group_of = {role: group for group, members in groups.items() for role in members}
        usual: dict[TrackRole, str] = {}
        for instrument_id in sounds:
            sound = self.get(instrument_id)
            if sound is None or sound.program is None or instrument_id in placed:
                continue
            home = group_of.get(sound.role)
            fits = [sound.role, *(r for r in sound.also_roles if group_of.get(r) == home)]
            free = [r for r in fits if r in roles and r not in usual]
            if free and instrument_id not in usual.values():
                usual[free[0]] = instrument_id
        return usual

    def core_seats(
        self, sounds: Iterable[str], roles: Collection[TrackRole], core: Iterable[TrackRole]
    ) -> dict[TrackRole, int]:
        """The genre's `core` seats → the program of its usual player there (`usual`)."""
        usual = self.usual(sounds, roles)
        return {
            role: program
            for role in core
            if role in usual and (program := self.instruments[usual[role]].program) is not None
        }


def _may_sit(instrument: Instrument, holder: int | None) -> bool:
    """A named sound may take a seat no core player holds, or one held by its own GM
    family (program // 8: an acoustic guitar for the distorted one)."""
    return holder is None or (instrument.program or 0) // 8 == holder // 8


@skill_table
def instrument_table(root: Path) -> InstrumentTable:
    """The instrument table under `root`, validated against the kit voices and cached."""
    table = load_table(INSTRUMENTS_FILE, InstrumentTable, root=root)
    tracks = load_table(TRACKS_FILE, TrackTable, root=root)
    _check_against(table, tracks, root / INSTRUMENTS_FILE)
    return table


def _check_against(table: InstrumentTable, tracks: TrackTable, path: Path) -> None:
    """Kit voices must be voices of the kit; a role's instrument must be in the table."""
    voices = set(tracks.kit_voices)
    for name, instrument in table.instruments.items():
        unknown = [v for v in instrument.kit_voices if v not in voices]
        if unknown:
            raise SkillFileError(
                path, f"instruments.{name}.kitVoices: {unknown} are not kitVoices of {TRACKS_FILE}"
            )
    for role, look in tracks.roles.items():
        sound = table.get(look.instrument)
        if sound is not None and look.program is not None and look.program != sound.program:
            raise SkillFileError(
                path.parent.parent / TRACKS_FILE,
                f"roles.{role}.program: {look.program} is not the program of "
                f"{look.instrument!r} ({sound.program})",
            )
    looks = [(f"roles.{r}", look.instrument) for r, look in tracks.roles.items()]
    looks += [(f"overrides[{i}]", o.instrument) for i, o in enumerate(tracks.overrides)]
    for where, instrument_id in looks:
        found = table.get(instrument_id)
        if instrument_id is not None and (found is None or found.program is None):
            raise SkillFileError(
                path.parent.parent / TRACKS_FILE,
                f"{where}.instrument: {instrument_id!r} is not a sound of {INSTRUMENTS_FILE}",
            )
