"""Whole-song edits: tempo, key, meter, mode and genre, each an expensive change the producer
confirms. A meter edit may name sections ("make the bridge 6/8"): they alone change.

"Sadder" and "happier" are mood words: a major song goes minor (and a minor one
major); a song already in the mood asked for gets darker (or brighter) chords.
"""

from __future__ import annotations

from dataclasses import replace

from muse_tui.compose.harmony import song_key
from muse_tui.compose.requests import Edit
from muse_tui.contracts import TEMPO_LIMITS, CreativityDials, GenreDNAVector, Meter, SongState
from muse_tui.knowledge.genres import genre_table
from muse_tui.theory import parse_key

from ..transposition import transposed
from . import chord_edits
from .revision import EditError, Revision, listed, track_label

OPERATIONS = ("key", "transpose", "mode", "tempo", "tempo_by", "meter", "genre")
#: Mood words: the mode they move to, from which modes, and the harmony edit otherwise.
MOODS = {
    "sadder": ("minor", ("major", "lydian", "mixolydian"), "darker"),
    "happier": ("major", ("minor", "aeolian", "dorian", "phrygian"), "brighter"),
}


def handles(edit: Edit) -> bool:
    return edit.operation in OPERATIONS or edit.operation in MOODS


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision moved to another key, tempo or genre."""
    if edit.operation in MOODS:
        mode, moves_from, harmony = MOODS[edit.operation]
        if song_key(revision.song).mode in moves_from:
            return apply(revision, Edit("mode", value=mode))
        recolour = Edit(harmony, replace(edit.scope, harmony=True))  # type: ignore[arg-type]
        return chord_edits.apply(revision, recolour)
    revision = revision.fork()
    if edit.operation in ("key", "transpose", "mode"):
        _key(revision, edit)
    elif edit.operation in ("tempo", "tempo_by"):
        _tempo(revision, edit)
    elif edit.operation == "meter":
        _meter(revision, edit)
    else:
        _genre(revision, str(edit.value))
    return revision


def clamped_tempo(old: float, bpm: float) -> float:
    """`bpm` within the limits a song may be composed with; one already past a limit stays put."""
    low, high = TEMPO_LIMITS
    return round(max(min(low, old), min(max(high, old), bpm)), 1)


def rebased_dials(
    dials: CreativityDials | None, old: GenreDNAVector | None, new: GenreDNAVector
) -> CreativityDials | None:
    """The dials with the mood's nudges kept and the genre's base moved to the new genre's."""
    if dials is None or old is None:
        return dials
    return CreativityDials(
        harmonic=min(
            1.0, max(0.0, dials.harmonic - old.creativity.harmonic + new.creativity.harmonic)
        ),
        rhythmic=min(
            1.0, max(0.0, dials.rhythmic - old.creativity.rhythmic + new.creativity.rhythmic)
        ),
    )


def _key(revision: Revision, edit: Edit) -> None:
    song = revision.song
    old = song_key(song)
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
    intent = revision.intent.model_copy(update={"key": new.tonic, "mode": new.mode})
    if new.mode != old.mode:
        intent = intent.model_copy(update={"explicit_progression": []})
    revision.intent = intent
    revision.song = song.model_copy(update={"key": new.tonic, "mode": new.mode})
    if song.progression is not None and new.mode == old.mode:
        moved = transposed(song.progression, new.tonic_pc - old.tonic_pc, new)
        revision.song = revision.song.model_copy(update={"progression": moved})
        revision.handled.add("progression")
        revision.touch("progression", "expensive")
        _transpose_parts(revision, new.tonic_pc - old.tonic_pc)
    else:
        revision.triggers += [("key", None), ("scale", None)]
    revision.cost = "expensive"
    revision.expensive_subject = "changing the key"
    revision.aim("key", "key", "replace", key=f"{new.tonic} {new.mode}")
    revision.sentences.append(f"Moved the song to {new.tonic} {new.mode}.")


def _transpose_parts(revision: Revision, semitones: int) -> None:
    """Every pitched part moved by the progression's interval: a key change rewrites no note.

    The drums stay; a part whose notes would leave the MIDI range moves the other way.
    """
    shift = semitones % 12
    shift = shift - 12 if shift > 6 else shift
    tracks = []
    for track in revision.song.tracks:
        if track.role in ("drums", "percussion") or not track.regions:
            tracks.append(track)
            continue
        pitches = [n.pitch for r in track.regions for n in r.notes]
        step = shift
        if pitches and not (min(pitches) + step >= 0 and max(pitches) + step <= 127):
            step = shift - 12 if shift > 0 else shift + 12
        regions = [
            r.model_copy(
                update={"notes": [n.model_copy(update={"pitch": n.pitch + step}) for n in r.notes]}
            )
            for r in track.regions
        ]
        tracks.append(track.model_copy(update={"regions": regions}))
        revision.touch(track_label(revision.song, track.id), "moderate")
    revision.song = revision.song.model_copy(update={"tracks": tracks})
    revision.handled.update(("bass", "chords", "lead"))


def _tempo(revision: Revision, edit: Edit) -> None:
    old = revision.song.tempo
    bpm = float(edit.value) if edit.operation == "tempo" else old * float(edit.value or 1)
    bpm = clamped_tempo(old, bpm)
    if abs(bpm - old) < 0.05:
        raise EditError(f"the song is already at {old:g} BPM.")
    revision.song = revision.song.model_copy(update={"tempo": bpm})
    revision.intent = revision.intent.model_copy(update={"tempo": bpm})
    revision.retime_from = old
    revision.triggers.append(("tempo", None))
    revision.cost = "expensive"
    revision.expensive_subject = "changing the tempo"
    revision.aim("tempo", "tempo", "replace", bpm=bpm)
    revision.sentences.append(
        f"Tempo {old:g} → {bpm:g} BPM; tempo-synced delays and pre-delays follow."
    )


def _meter(revision: Revision, edit: Edit) -> None:
    """The whole song, or the sections of one kind, in another meter; the bar count stays."""
    label, _, grouping = str(edit.value).partition(":")
    try:
        meter = Meter.parse(label, tuple(int(n) for n in grouping.split("+")) if grouping else ())
    except ValueError as exc:
        raise EditError(f"cannot read that meter: {exc}") from None
    song = revision.song
    before = song_seconds(song)
    if edit.scope.section is not None:
        _section_meter(revision, edit.scope.section, meter)
    else:
        if song.meter == meter and not song.has_meter_changes:
            raise EditError(f"the song is already in {meter.label}.")
        usual = Meter.parse(meter.label).grouping == meter.grouping
        arrangement = song.arrangement
        if arrangement is not None:  # "put it in 3/4" is the whole song: changes go too
            sections = [s.model_copy(update={"meter": None}) for s in arrangement.sections]
            arrangement = arrangement.model_copy(update={"sections": sections})
        revision.song = song.model_copy(
            update={
                "time_signature": meter.time_signature,
                "grouping": None if usual else meter.grouping,
                "arrangement": arrangement,
            }
        )
        revision.intent = revision.intent.model_copy(
            update={"meter": None if meter.is_common else meter, "section_meters": {}}
        )
        bars = song.arrangement.total_bars if song.arrangement else 0
        revision.sentences.append(
            f"The song is now in {meter.feel_words}; it keeps its {bars} bars, so "
            + _length_words(before, song_seconds(revision.song))
        )
    revision.triggers.append(("meter", None))
    revision.cost = "expensive"
    revision.expensive_subject = "changing the meter"
    revision.aim("meter", "timeSignature", "replace", meter=meter.label)


def _section_meter(revision: Revision, kind: str, meter: Meter) -> None:
    song = revision.song
    if song.arrangement is None:
        raise EditError("the song has no sections yet to put in another meter.")
    names = [s.name for s in song.arrangement.sections if s.kind == kind]
    if not names:
        have = ", ".join(dict.fromkeys(s.name for s in song.arrangement.sections))
        raise EditError(f"the song has no {kind.replace('_', ' ')} (it has {have}).")
    own = None if meter == song.meter else meter
    sections = [
        s.model_copy(update={"meter": own}) if s.kind == kind else s
        for s in song.arrangement.sections
    ]
    if sections == song.arrangement.sections:
        raise EditError(f"the {kind.replace('_', ' ')} is already in {meter.label}.")
    before = song_seconds(song)
    revision.song = song.model_copy(
        update={"arrangement": song.arrangement.model_copy(update={"sections": sections})}
    )
    asked = dict(revision.intent.section_meters)
    if own is None:
        asked.pop(kind, None)  # type: ignore[call-overload]
    else:
        asked[kind] = own  # type: ignore[index]
    revision.intent = revision.intent.model_copy(update={"section_meters": asked})
    revision.sentences.append(
        f"{listed(list(dict.fromkeys(names)))} now in {meter.feel_words}, bar for bar; "
        + _length_words(before, song_seconds(revision.song))
    )


def _length_words(before: float, after: float) -> str:
    if abs(after - before) < 0.5:
        return "the song keeps its length."
    return f"the song runs {after:.0f} s instead of {before:.0f} s."


def song_seconds(song: SongState) -> float:
    """How long the song's bars last at its tempo."""
    bars = song.arrangement.total_bars if song.arrangement else 0
    return song.bar_beat(bars) * 60 / song.tempo


def _genre(revision: Revision, genre: str) -> None:
    table = genre_table()
    if genre not in table:
        raise EditError(f"I do not know the genre {genre!r}.")
    if revision.intent.genre[:1] == [genre]:
        raise EditError(f"it is already {genre.replace('_', ' ')}.")
    dna = table.get(genre)
    dials = rebased_dials(revision.intent.creativity_dials, revision.intent.genre_dna, dna)
    revision.intent = revision.intent.model_copy(
        update={
            "genre": [genre],
            "sub_genre": [],
            "genre_dna": dna,
            "creativity_dials": dials,
            "explicit_progression": [],
        }
    )
    revision.song = revision.song.model_copy(update={"genre": genre})
    revision.triggers.append(("genre", None))
    revision.cost = "expensive"
    revision.expensive_subject = f"changing the genre to {dna.display_name}"
    revision.aim("genre", "genre", "replace", genre=genre)
    revision.sentences.append(f"Genre → {dna.display_name}; the arrangement keeps its length.")
