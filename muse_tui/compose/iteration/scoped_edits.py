"""Edits on less than a whole part: one drum voice, one section of a kind, a range of bars.

"kick louder", "no drums for the first 8 bars", "double-time the hats in the
last chorus", "808 an octave lower": the notes inside the scope change and no
other note does. A scope the song lacks ("verse 3" in a song with two, "bars
70-80" in 64) is refused in one sentence naming what the song has, never widened.

`resolve` reads a section's own name ("Head Out", "Groove 2") from the clause on
the song; `apply` makes the edits that work note by note (rest, louder, softer,
an octave, double-time one voice); `confine` keeps every note outside the
scopes of a request as it was, after the families that write whole parts again
(simpler, busier, darker chords) have done their work.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from muse_tui.compose.request_types import Edit, Scope
from muse_tui.contracts import Note, PipelineIntent, Region, Section, SongState, StandingEdit, Track
from muse_tui.knowledge.edit_words import edit_words

from .positions import unknown_section
from .revision import EditError, Revision, listed, track_label, tracks_for
from .section_edits import sections_of
from .takes import with_standing_edit

#: Edits made here, note by note, when their scope is narrow (octaves at any scope).
RESTS = ("remove_track", "mute", "tacet")
LOUDNESS = {"volume_up": 1.2, "volume_down": 0.8, "harder": 1.15, "softer_hits": 0.85}
OCTAVES = {"octave_up": 12, "octave_down": -12}
LENGTHS = ("longer_notes", "shorter_notes")
DRUM_ROLES = ("drums", "percussion")
#: A note played this early (in beats) belongs to the bar it leads into.
EARLY = 1 / 32
#: Edits that never touch notes: the mix and the sound keep a scope of their own.
UNNOTED = (
    "preset", "effect_more", "effect_less", "effect_remove", "pan", "freeze", "unfreeze",
    "expression", "swap_instrument",
)  # fmt: skip


def handles(edit: Edit) -> bool:
    if edit.operation in OCTAVES or edit.operation in LENGTHS:
        return True
    narrow = edit.scope.voice is not None or edit.scope.bars is not None
    narrow = narrow or edit.scope.number is not None
    if edit.operation in LOUDNESS and edit.scope.section is not None:
        return True  # "drums quieter in the verses": the verses' notes, not the track's fader
    if edit.operation in RESTS or edit.operation in LOUDNESS:
        return narrow
    return edit.operation in ("double_time", "simpler") and edit.scope.voice is not None


def resolve(song: SongState, edit: Edit) -> Edit:
    """The edit with what the clause names on this song read into its scope.

    A track named by its own name or instrument ("the choir", "the Rhodes") is that
    track, whatever role the word has elsewhere; a section named by its own name
    ("Head Out", "Groove 2") is that section.
    """
    scope = edit.scope
    if not scope.said:
        return edit
    if scope.voice is None and scope.track is None and (track := _track_named(song, scope.said)):
        scope = replace(scope, role=song.tracks[track].role, track=track + 1, harmony=False)
    if scope.bars is None and scope.number is None:
        sections = sections_of(song)
        for index, section in sorted(enumerate(sections), key=lambda s: -len(s[1].name)):
            name = re.escape(section.name.lower()).replace(r"\ ", r"[\s-]+")
            if re.search(rf"(?<![\w-]){name}(?![\w-])", scope.said):
                same = [i for i, s in enumerate(sections) if s.kind == section.kind]
                if len(same) > 1:  # the only drop is every drop: the kind's own edits do it
                    scope = replace(scope, section=section.kind, number=same.index(index) + 1)
                break
    return edit if scope == edit.scope else replace(edit, scope=scope)


def _track_named(song: SongState, said: str) -> int | None:
    """The one track whose name or instrument the clause says, longest words first."""
    found: dict[int, int] = {}
    for index, track in enumerate(song.tracks):
        for word in {track.name.lower(), (track.instrument or "").lower()} - {""}:
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", said):
                found[index] = max(found.get(index, 0), len(word))
    if not found:
        return None
    longest = max(found.values())
    best = [i for i, n in found.items() if n == longest]
    return best[0] if len(best) == 1 else None


def spans(song: SongState, scope: Scope) -> list[tuple[float, float]] | None:
    """The beats a scope covers, as [start, end) pairs; None for the whole song.

    Raises EditError naming what the song has when the scope is not in it.
    """
    bars = sections_of(song)[-1].end_bar if sections_of(song) else 0
    if scope.bars is not None:
        first, last = _bar_numbers(scope.bars, bars)
        if not 1 <= first <= last <= bars:
            raise EditError(
                f"bars {first}–{last} are not all in the song, which has {bars} bars "
                f"(1–{bars}); say which bars."
            )
        return [(song.bar_beat(first - 1), song.bar_beat(last))]
    if scope.section is None:
        return None
    sections = sections_of(song)
    if scope.number is not None:
        chosen = [_numbered(song, scope.section, scope.number)]
    else:
        chosen = [s for s in sections if s.kind == scope.section]
        if not chosen:
            raise EditError(unknown_section(song, scope.section))
    return [(song.bar_beat(s.start_bar), song.bar_beat(s.end_bar)) for s in chosen]


def _numbered(song: SongState, kind: str, number: int) -> Section:
    """The song's `number`th section of a kind (-1 the last); EditError naming those it has."""
    of_kind = [s for s in sections_of(song) if s.kind == kind]
    if not of_kind:
        raise EditError(unknown_section(song, kind))
    index = number - 1 if number > 0 else len(of_kind) + number
    if not 0 <= index < len(of_kind):
        names = listed([f"{s.name} (bars {s.start_bar + 1}–{s.end_bar})" for s in of_kind])
        word = kind.replace("_", "-")
        raise EditError(
            f"there is no {word} {number} in this song; it has {len(of_kind)}: {names}."
        )
    return of_kind[index]


def _bar_numbers(said: str, bars: int) -> tuple[int, int]:
    if said.startswith("first:"):
        return 1, int(said[6:])
    if said.startswith("last:"):
        return bars - int(said[5:]) + 1, bars
    first, last = (int(n) for n in said.split("-"))
    return min(first, last), max(first, last)


@dataclass(frozen=True)
class Mask:
    """The notes an edit may change: which tracks, which pitches (None: all), where."""

    tracks: frozenset[str]
    pitches: frozenset[int] | None
    spans: tuple[tuple[float, float], ...] | None

    def holds(self, track_id: str, pitch: int, beat: float) -> bool:
        if track_id not in self.tracks:
            return False
        if self.pitches is not None and pitch not in self.pitches:
            return False
        return self.spans is None or any(a - EARLY <= beat < b - EARLY for a, b in self.spans)


def mask(song: SongState, scope: Scope) -> Mask:
    """The notes a scope names on the song (EditError when the song lacks the scope)."""
    where = spans(song, scope)
    if scope.voice is not None:
        pitches = frozenset(edit_words().voice_pitches[scope.voice])
        tracks = [t for t in song.tracks if t.role in DRUM_ROLES]
        if not tracks:
            raise EditError("this song has no drums.")
    else:
        pitches = None
        if scope.role is None and scope.track is None:
            tracks = list(song.tracks)
        else:
            tracks = [song.tracks[i] for i in tracks_for(song, scope.role, track=scope.track)]
    return Mask(frozenset(t.id for t in tracks), pitches, tuple(where) if where else None)


def apply(revision: Revision, edit: Edit) -> Revision:
    """The notes inside the edit's scope changed, every other note as it was."""
    revision = revision.fork()
    song = revision.song
    aimed = mask(song, edit.scope)
    op = edit.operation
    change: Callable[[Note], Note | None]
    if op in RESTS:
        change, done = (lambda n: None), "Took out"
    elif op in OCTAVES:
        step = OCTAVES[op]
        change, done = (
            (lambda n: _moved(n, step)),
            f"Moved {'up' if step > 0 else 'down'} an octave:",
        )
    elif op in LOUDNESS:
        factor = LOUDNESS[op]
        change = lambda n: n.model_copy(  # noqa: E731
            update={"velocity": max(1, min(127, round(n.velocity * factor)))}
        )
        done = "Louder:" if factor > 1 else "Softer:"
    elif op == "simpler":
        return _thinned(revision, aimed, edit)
    elif op in LENGTHS:
        return _lengths(revision, aimed, edit)
    else:
        return _doubled(revision, aimed, edit)
    tracks, touched = _changed(song, aimed, change)
    if not touched:
        raise EditError(f"{_what(song, edit, aimed)} plays no notes there.")
    revision.song = song.model_copy(update={"tracks": tracks})
    for track_id in touched:
        revision.touch(track_label(revision.song, track_id), "cheap")
    revision.handled.update(touched)
    revision.intent = _kept(revision.intent, song, edit, touched)
    revision.aim(_what(song, edit, aimed), "notes", "adjust", scope=_where(song, edit.scope))
    revision.sentences.append(f"{done} {_what(song, edit, aimed)} {_where(song, edit.scope)}.")
    return revision


def _moved(note: Note, step: int) -> Note:
    pitch = note.pitch + step
    if not 0 <= pitch <= 127:
        raise EditError("that octave would take notes past the MIDI range.")
    return note.model_copy(update={"pitch": pitch})


#: A region's notes in an edit's scope → the region's notes after it (None: unchanged).
Rewrite = Callable[[Track, Region, list[Note]], list[Note] | None]


def _walk(song: SongState, aimed: Mask, rewrite: Rewrite) -> tuple[list[Track], list[str]]:
    """Every track and region the mask reaches, given its notes in scope to `rewrite`;
    the tracks after, and the ids of those whose notes changed."""
    tracks, touched = [], []
    for track in song.tracks:
        if track.id not in aimed.tracks:
            tracks.append(track)
            continue
        regions, moved = [], False
        for region in track.regions:
            inside = [
                n for n in region.notes
                if aimed.holds(track.id, n.pitch, region.start_beat + n.start_beat)
            ]  # fmt: skip
            notes = rewrite(track, region, inside) if inside else None
            if notes is None:
                regions.append(region)
                continue
            moved = True
            regions.append(region.model_copy(update={"notes": notes}))
        tracks.append(track.model_copy(update={"regions": regions}) if moved else track)
        if moved:
            touched.append(track.id)
    return tracks, touched


def _changed(
    song: SongState, aimed: Mask, change: Callable[[Note], Note | None]
) -> tuple[list[Track], list[str]]:
    """Each note in scope changed one by one (None takes it out)."""

    def rewrite(track: Track, region: Region, inside: list[Note]) -> list[Note]:
        chosen = {id(n) for n in inside}
        notes = [change(n) if id(n) in chosen else n for n in region.notes]
        return [n for n in notes if n is not None]

    return _walk(song, aimed, rewrite)


def _doubled(revision: Revision, aimed: Mask, edit: Edit) -> Revision:
    """Double-time one voice: a stroke between each of its strokes in the scope."""
    song = revision.song

    def rewrite(track: Track, region: Region, inside: list[Note]) -> list[Note] | None:
        mine = sorted(inside, key=lambda n: n.start_beat)
        added = []
        for note, after in zip(mine, [*mine[1:], None], strict=False):
            gap = after.start_beat if after else note.start_beat + _last_gap(mine)
            gap -= note.start_beat
            if gap >= 0.2:
                update = {
                    "start_beat": note.start_beat + gap / 2,
                    "duration_beats": min(note.duration_beats, gap / 2),
                    "velocity": max(1, note.velocity - 12),
                }
                added.append(note.model_copy(update=update))
        added = [n for n in added if n.start_beat < region.length_beats]
        if not added:
            return None
        return sorted([*region.notes, *added], key=lambda n: (n.start_beat, n.pitch))

    tracks, touched = _walk(song, aimed, rewrite)
    if not touched:
        raise EditError(f"{_what(song, edit, aimed)} plays no notes there.")
    revision.song = song.model_copy(update={"tracks": tracks})
    for track_id in touched:
        revision.touch(track_label(revision.song, track_id), "cheap")
        revision.handled.add(track_id)
    revision.sentences.append(
        f"Double-time: {_what(song, edit, aimed)} {_where(song, edit.scope)}."
    )
    return revision


def _thinned(revision: Revision, aimed: Mask, edit: Edit) -> Revision:
    """Fewer strokes of one voice: those off the beat go, or every other one when all are on it."""
    song = revision.song
    beat_of = {
        id(n): r.start_beat + n.start_beat for t in song.tracks for r in t.regions for n in r.notes
    }
    strokes = [
        n for t in song.tracks for r in t.regions for n in r.notes
        if aimed.holds(t.id, n.pitch, r.start_beat + n.start_beat)
    ]  # fmt: skip
    off = {id(n) for n in strokes if abs(beat_of[id(n)] - round(beat_of[id(n)])) > EARLY}
    if not off or len(off) == len(strokes):
        ordered = sorted(strokes, key=lambda n: beat_of[id(n)])
        off = {id(n) for n in ordered[1::2]}
    tracks, touched = _changed(song, aimed, lambda n: None if id(n) in off else n)
    if not off:
        raise EditError(f"{_what(song, edit, aimed)} plays no notes there.")
    revision.song = song.model_copy(update={"tracks": tracks})
    for track_id in touched:
        revision.touch(track_label(revision.song, track_id), "cheap")
    revision.sentences.append(
        f"Fewer strokes: {_what(song, edit, aimed)} {_where(song, edit.scope)}."
    )
    return revision


def _lengths(revision: Revision, aimed: Mask, edit: Edit) -> Revision:
    """Longer notes held up to the next onset (a bar at most); shorter ones at half length."""
    song = revision.song
    if edit.scope.role is None and edit.scope.track is None:
        raise EditError("say which part, e.g. “longer notes in the melody”.")
    onsets: dict[str, list[float]] = {}
    for track in song.tracks:
        found = {r.start_beat + n.start_beat for r in track.regions for n in r.notes}
        onsets[track.id] = sorted(found)
    longer = edit.operation == "longer_notes"
    limit = float(song.beats_per_bar)

    def held(note: Note, start: float, track_id: str) -> Note:
        if not longer:
            return note.model_copy(update={"duration_beats": max(0.05, note.duration_beats / 2)})
        later = [b for b in onsets[track_id] if b > start + EARLY]
        room = (later[0] - start if later else limit) * 0.95
        return note.model_copy(
            update={"duration_beats": max(note.duration_beats, min(room, limit))}
        )

    def rewrite(track: Track, region: Region, inside: list[Note]) -> list[Note]:
        chosen = {id(n) for n in inside}
        start = region.start_beat
        return [
            held(n, start + n.start_beat, track.id) if id(n) in chosen else n for n in region.notes
        ]

    tracks, touched = _walk(song, aimed, rewrite)
    revision.song = song.model_copy(update={"tracks": tracks})
    for track_id in touched:
        revision.touch(track_label(revision.song, track_id), "cheap")
    word = "Longer" if longer else "Shorter"
    revision.sentences.append(
        f"{word} notes: {_what(song, edit, aimed)} {_where(song, edit.scope)}."
    )
    return revision


def _last_gap(notes: Sequence[Note]) -> float:
    if len(notes) < 2:
        return 0.0
    return notes[-1].start_beat - notes[-2].start_beat


def _what(song: SongState, edit: Edit, aimed: Mask) -> str:
    if edit.scope.voice is not None:
        return f"the {edit.scope.voice.replace('_', ' ')}"
    labels = [track_label(song, t.id) for t in song.tracks if t.id in aimed.tracks]
    return f"the {listed(labels)}"


def _where(song: SongState, scope: Scope) -> str:
    if scope.bars is not None:
        first, last = _bar_numbers(scope.bars, sections_of(song)[-1].end_bar)
        return f"in bars {first}–{last}"
    if scope.section is None:
        return "in the whole song"
    if scope.number is not None:
        return f"in {_numbered(song, scope.section, scope.number).name}"
    return f"in every {scope.section.replace('_', '-')}"


def confine(before: SongState, after: SongState, edits: Sequence[Edit]) -> SongState:
    """`after` with every note outside the request's scopes as it was in `before`.

    Only when every edit of the request that touches notes names where (a voice,
    sections, a bar range): then a family that wrote a whole part again ("simpler
    in verse 2", "sevenths in the bridge") changes verse 2 or the bridge alone.
    """
    noted = [e for e in edits if e.operation not in UNNOTED]
    if not noted or not all(e.scope.narrow or e.scope.section is not None for e in noted):
        return after
    if any(e.operation == "build" or e.value == "before" for e in noted):
        return after  # "a build into the chorus" plays in the bars before the chorus
    masks = []
    for edit in noted:
        scope = edit.scope
        if scope.role is None and scope.voice is None and not scope.harmony:
            scope = replace(scope, harmony=True)
        masks.append(mask(before, scope))
    olds = {t.id: t for t in before.tracks}
    tracks = []
    for track in after.tracks:
        old = olds.get(track.id)
        if old is None or not any(track.id in m.tracks for m in masks):
            tracks.append(track)
            continue
        tracks.append(_spliced(old, track, masks))
    kept_ids = {t.id for t in after.tracks}
    for track in before.tracks:  # a part the family removed whole comes back outside the scope
        if track.id not in kept_ids and any(track.id in m.tracks for m in masks):
            empty = track.model_copy(
                update={"regions": [r.model_copy(update={"notes": []}) for r in track.regions]}
            )
            tracks.insert(before.tracks.index(track), _spliced(track, empty, masks))
    return after.model_copy(update={"tracks": tracks})


def _spliced(old: Track, new: Track, masks: Sequence[Mask]) -> Track:
    def inside(track_id: str, pitch: int, beat: float) -> bool:
        return any(m.holds(track_id, pitch, beat) for m in masks)

    layout = [(r.start_beat, r.length_beats) for r in new.regions]
    same_layout = layout == [(r.start_beat, r.length_beats) for r in old.regions]
    base = new if same_layout else old  # the form moved under the part: keep the old layout
    regions = []
    for index, region in enumerate(base.regions):
        start, end = region.start_beat, region.start_beat + region.length_beats
        fresh = [
            n for n in (new.regions[index].notes if base is new else [])
            if inside(new.id, n.pitch, start + n.start_beat)
        ]  # fmt: skip
        if base is old:
            fresh = [
                n.model_copy(update={"start_beat": r.start_beat + n.start_beat - start})
                for r in new.regions
                for n in r.notes
                if start <= r.start_beat + n.start_beat < end
                and inside(new.id, n.pitch, r.start_beat + n.start_beat)
            ]
        kept = [
            n for n in old.regions[index].notes if not inside(old.id, n.pitch, start + n.start_beat)
        ] if index < len(old.regions) else []  # fmt: skip
        notes = sorted([*kept, *fresh], key=lambda n: (n.start_beat, n.pitch))
        regions.append(region.model_copy(update={"notes": notes}))
    settings = {"mute": old.mute, "volume": old.volume}
    return new.model_copy(update={"regions": regions, **settings})


# ── standing: a narrow edit outlives the part written again ─────────────────────────────
def _kept(
    intent: PipelineIntent, song: SongState, edit: Edit, touched: Sequence[str]
) -> PipelineIntent:
    """The intent with the edit kept for each part it changed, so a regeneration plays it too.

    One section of several, or bars said, is kept as its bar range; every section of
    a kind as the kind; a drum voice by name.
    """
    op, scope = edit.operation, edit.scope
    if op in RESTS:
        kind, value = "rest", 1.0
    elif op in OCTAVES:
        kind, value = "octave", OCTAVES[op] / 12
    else:
        kind, value = "level", LOUDNESS[op]
    bars = None
    if scope.bars is not None:
        bars = _bar_numbers(scope.bars, sections_of(song)[-1].end_bar)
    elif scope.section is not None and scope.number is not None:
        section = _numbered(song, scope.section, scope.number)
        bars = (section.start_bar + 1, section.end_bar)
    section_kind = scope.section if bars is None else None
    for role in dict.fromkeys(t.role for t in song.tracks if t.id in touched):
        kept = StandingEdit(
            role=role, kind=kind, value=value, section=section_kind, bars=bars, voice=scope.voice
        )
        intent = with_standing_edit(intent, kept)
    return intent


def scoped_region(region: Region, edit: StandingEdit, beats_per_bar: float) -> Region:
    """A freshly written region with a standing narrow edit played on it again."""
    pitches = frozenset(edit_words().voice_pitches[edit.voice]) if edit.voice else None
    spans = None
    if edit.bars is not None:
        first, last = edit.bars
        spans = ((first - 1) * beats_per_bar, last * beats_per_bar)

    def inside(note: Note) -> bool:
        if pitches is not None and note.pitch not in pitches:
            return False
        beat = region.start_beat + note.start_beat
        return spans is None or spans[0] - EARLY <= beat < spans[1] - EARLY

    notes = []
    for note in region.notes:
        if not inside(note):
            notes.append(note)
        elif edit.kind == "octave":
            pitch = note.pitch + 12 * round(edit.value)
            notes.append(note.model_copy(update={"pitch": pitch}) if 0 <= pitch <= 127 else note)
        elif edit.kind == "level":
            velocity = max(1, min(127, round(note.velocity * edit.value)))
            notes.append(note.model_copy(update={"velocity": velocity}))
    return region.model_copy(update={"notes": notes})
