"""How a repeated section develops instead of coming back note for note.

The parts of a section are seeded by its kind, so the second chorus brings back
the first one's hook and groove. What makes it a *second* chorus is decided
here, from the arrangement alone, so every track agrees without talking to the
others: which repeat of its kind a section is, and where the band drops out for
a bar and leaves one part alone: before the last phrase of the song's last
chorus, hook or drop, and in every repeat the drums do not play in (their fills
are what vary the others); a four-bar section stops on its last bar instead,
and a part playing a repeat alone rests through its last bar.

The drums dig in on a repeat (`develop_groove`): through its last phrase the
groove's own hats split one level finer, a ghost snare leans into each backbeat
and a kick pushes into the next bar, as a drummer plays a second verse or a
last chorus a little harder. Nothing is drawn at random: what is added comes
from the pattern already playing, so the family's groove stays recognisable.
The pitched parts develop in a pass of their own (`parts.development`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from muse_tui.compose.arrangement.form import PEAK_KINDS
from muse_tui.compose.humanize import Draft
from muse_tui.contracts.song import Section, SongState, TrackRole
from muse_tui.theory.drums import VOICE_PITCHES

#: Who is left playing in a drop-out bar: the hook, a top line, the harmony, the groove last.
SOLOISTS: tuple[TrackRole, ...] = (
    "lead",
    "arp",
    "texture",
    "keys",
    "chords",
    "pad",
    "bass",
    "sub_bass",
    "percussion",
    "drums",
)
#: The bars a drop-out leaves before the section's end: the last four-bar phrase.
_LAST_PHRASE_BARS = 4


@dataclass(frozen=True)
class Repeat:
    """Which repeat of its kind a section is, and its drop-out bar if it has one."""

    ordinal: int = 1
    count: int = 1
    dropout_bar: int | None = None
    soloist: TrackRole | None = None

    @property
    def is_repeat(self) -> bool:
        return self.ordinal > 1

    def drops_out(self, role: TrackRole) -> bool:
        """Whether `role` rests through the drop-out bar."""
        return self.dropout_bar is not None and role != self.soloist


def repeat_of(section: Section, sections: Sequence[Section]) -> Repeat:
    """The section's place among the sections of its kind, and its drop-out bar."""
    same = [s for s in sections if s.kind == section.kind]
    ordinal = next((i for i, s in enumerate(same, 1) if s.start_bar == section.start_bar), 1)
    last_peak = section.kind in PEAK_KINDS and ordinal == len(same)
    drumless = "drums" not in section.active_roles
    soloist = next((r for r in SOLOISTS if r in section.active_roles), None)
    if ordinal < 2 or not (last_peak or drumless):
        return Repeat(ordinal, len(same), soloist=soloist)
    if len(section.active_roles) < 2:  # a part alone: it breathes a bar early instead
        return Repeat(ordinal, len(same), dropout_bar=section.bars - 1)
    bar = section.bars - 1 - _LAST_PHRASE_BARS if section.bars >= 8 else section.bars - 1
    return Repeat(ordinal, len(same), dropout_bar=bar, soloist=soloist)


def section_repeat(song: SongState, section: Section) -> Repeat:
    """`repeat_of` in this song's arrangement (a song without one has no repeats)."""
    if song.arrangement is None:
        return Repeat()
    return repeat_of(section, song.arrangement.sections)


#: The timekeeping voices a repeat splits finer, the busiest one present wins.
_TIME_VOICES = ("closed_hat", "pedal_hat", "ride", "shaker", "tambourine")
#: Backbeat voices a ghost note leans into.
_BACKBEATS = ("snare", "clap")
#: Velocity of the added notes against the note they come from: hats a touch softer, ghosts low.
_SPLIT_VELOCITY = 0.7
_GHOST_VELOCITY = 0.3
_PUSH_VELOCITY = 0.8
_SIXTEENTH = 0.25
_NEAR = 1e-6


def develop_groove(
    notes: list[Draft], repeat: Repeat, bars: int, beats_per_bar: float
) -> list[Draft]:
    """A repeat's drums, busier through its last phrase (the section's last bar is its fill's).

    The first statement of a section and one without a last phrase to develop come back as
    they are.
    """
    if not repeat.is_repeat or bars < 2:
        return notes
    first = max(0, bars - _LAST_PHRASE_BARS)
    added: list[Draft] = []
    for bar in range(first, bars - 1):
        lo, hi = bar * beats_per_bar, (bar + 1) * beats_per_bar
        in_bar = [n for n in notes if lo - _NEAR <= n.start < hi - _NEAR]
        added += _split_time(in_bar, hi)
        added += _ghosts(in_bar, lo)
        if (bar - first) % 2 == 1:
            added += _push(in_bar, hi)
    return sorted([*notes, *added], key=lambda n: n.start)


def _split_time(bar: list[Draft], end: float) -> list[Draft]:
    """The bar's timekeeper one level finer: a note between each pair of hits an 8th or more
    apart (quarters become 8ths, 8ths become 16ths only in the bar's last beat)."""
    voice = max(
        _TIME_VOICES, key=lambda v: (sum(n.voice == v for n in bar), -_TIME_VOICES.index(v))
    )
    hits = sorted((n for n in bar if n.voice == voice), key=lambda n: n.start)
    if not hits:
        return []
    added = []
    for note, after in zip(hits, [*hits[1:], None], strict=False):
        gap = (after.start if after else end) - note.start
        if gap >= 1 - _NEAR or (gap >= 0.5 - _NEAR and end - note.start <= 1 + _NEAR):
            when = note.start + gap / 2
            added.append(_like(note, when, note.velocity * _SPLIT_VELOCITY))
    return added


def _ghosts(bar: list[Draft], start: float) -> list[Draft]:
    """A soft snare a 16th before each backbeat, where nothing of the backbeat's sits."""
    backbeats = [n for n in bar if n.voice in _BACKBEATS and (n.start - start) % 1 < _NEAR]
    taken = {round(n.start * 4) for n in bar if n.voice in (*_BACKBEATS, "kick")}
    ghosts = []
    for note in backbeats:
        when = note.start - _SIXTEENTH
        if when >= start - _NEAR and round(when * 4) not in taken:
            ghost = _like(note, when, note.velocity * _GHOST_VELOCITY)
            ghost.pitch, ghost.voice = VOICE_PITCHES["snare"], "snare"
            ghosts.append(ghost)
            taken.add(round(when * 4))
    return ghosts


def _push(bar: list[Draft], end: float) -> list[Draft]:
    """A kick on the bar's last off-beat 8th, pushing into the next bar, if that spot is free."""
    kicks = [n for n in bar if n.voice == "kick"]
    when = end - 0.5
    near = [n for n in bar if abs(n.start - when) < _SIXTEENTH - _NEAR and n.voice != "kick"]
    if not kicks or any(abs(k.start - when) < _SIXTEENTH + _NEAR for k in kicks):
        return []
    if any(n.voice in _BACKBEATS for n in near):
        return []
    loudest = max(kicks, key=lambda n: n.velocity)
    return [_like(loudest, when, loudest.velocity * _PUSH_VELOCITY)]


def _like(note: Draft, when: float, velocity: float) -> Draft:
    return Draft(note.pitch, velocity, when, note.duration, note.voice)
