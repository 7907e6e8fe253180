"""The critics' labelled set: good songs from the real pipeline, and spoiled copies of them.

Each good song is a prompt composed at a fixed seed. Each degradation clones its
SongState and spoils one thing a listener would name, unambiguously, so that "good
beats spoiled" holds for any reasonable generator: one chord all song, every repeat a
copy of its first, the requested instrument gone, the pad playing the chords track
note for note, a lead of constant 8ths, another genre's drums. `AXIS` says which
critic should hear each one.
"""

from __future__ import annotations

import itertools
import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from muse_tui.contracts import PipelineConfig
from muse_tui.contracts.base import new_id
from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.song import Note, Region, SongState, Track
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.theory import SCALE_STEPS, key_of, parse_chord


@dataclass(frozen=True)
class Labelled:
    """A good song's prompt and seed, and the prompt whose drums are foreign to it."""

    prompt: str
    seed: int
    foreign: str


#: Good songs: requested instruments, a chords and a pad track, a lead, drums of many families.
GOOD: tuple[Labelled, ...] = (
    Labelled("bossa nova with nylon guitar and flute", 1, "trap in F minor with flute and 808"),
    Labelled("trap in F minor with flute and 808", 1, "bossa nova with nylon guitar and flute"),
    Labelled("pop in C major, 118, piano and strings", 1, "reggaeton in G minor, 95 BPM"),
    Labelled("reggaeton in G minor, 95 BPM", 1, "pop in C major, 118, piano and strings"),
    Labelled("dark phonk with cowbell", 1, "neo soul, Eb minor, 90 BPM, piano and pad"),
    Labelled("neo soul, Eb minor, 90 BPM, piano and pad", 1, "dark phonk with cowbell"),
)


@dataclass(frozen=True)
class Composed:
    """A song as the pipeline finished it, with the intent the critics read beside it."""

    song: SongState
    intent: PipelineIntent


def compose_all(prompts: Iterable[tuple[str, int]]) -> dict[tuple[str, int], Composed]:
    """Compose each (prompt, seed) headless, as `compose --yes` would, in a throwaway folder."""
    shm = Path("/dev/shm")  # the session writer fsyncs: in RAM that costs nothing
    ram = shm if shm.is_dir() else None
    with tempfile.TemporaryDirectory(prefix="muse-labelled-", dir=ram) as folder:
        engine = Orchestrator(product_stages(), Path(folder))
        config = PipelineConfig(approval_gates=[], enable_checkpoints=False)
        found = {}
        for prompt, seed in dict.fromkeys(prompts):
            pipeline = run_blocking(engine.run(prompt, seed=seed, config=config))
            assert pipeline.status == "completed", f"{prompt!r} ended {pipeline.status}"
            assert pipeline.intent is not None
            found[(prompt, seed)] = Composed(pipeline.song_state, pipeline.intent)
    return found


# ── Notes in song time ──────────────────────────────────────────────────────────────


def notes_of(track: Track) -> list[Note]:
    """A track's notes with onsets in song beats (regions flattened)."""
    return [
        moved(n, start_beat=r.start_beat + n.start_beat) for r in track.regions for n in r.notes
    ]


def moved(note: Note, **changes: float | int) -> Note:
    """The note with some fields changed, unvalidated: a song's thousands of copies stay quick.

    `model_copy` and `model_construct` cost tens of microseconds a note; this copies
    the fields a valid note already has and sets only what pydantic keeps beside them.
    """
    copy = Note.__new__(Note)
    object.__setattr__(copy, "__dict__", {**note.__dict__, **changes})
    object.__setattr__(copy, "__pydantic_fields_set__", set(note.__pydantic_fields_set__))
    object.__setattr__(copy, "__pydantic_extra__", None)
    object.__setattr__(copy, "__pydantic_private__", None)
    return copy


def with_notes(track: Track, notes: list[Note], song: SongState) -> Track:
    """The track playing `notes` (song time) from one region as long as the song."""
    bars = song.arrangement.total_bars if song.arrangement else 1
    length = max([bars * song.beats_per_bar, *(n.start_beat + n.duration_beats for n in notes)])
    region = Region(
        id=new_id(random.Random(f"{track.id} spoiled")),
        name=f"{track.name} · spoiled",
        start_beat=0,
        length_beats=length,
    )
    return track.model_copy(update={"regions": [region.model_copy(update={"notes": notes})]})


def retouched(song: SongState, change: Callable[[Track], Track | None]) -> SongState:
    """The song with `change` applied to every track (None deletes the track)."""
    tracks = [t for t in (change(track) for track in song.tracks) if t is not None]
    return song.model_copy(update={"tracks": tracks})


def nearest(pitch: int, pitch_classes: Iterable[int]) -> int:
    """The pitch nearest to `pitch` (lower on a tie) whose pitch class is one of these."""
    allowed = set(pitch_classes)
    return min(
        (p for p in range(pitch - 6, pitch + 7) if p % 12 in allowed),
        key=lambda p: (abs(p - pitch), p),
    )


# ── The degradations ────────────────────────────────────────────────────────────────

HARMONY = frozenset({"chords", "keys", "pad", "arp"})
BASS = frozenset({"bass", "sub_bass"})


def one_chord(song: SongState, intent: PipelineIntent, donor: SongState) -> SongState | None:
    """The progression becomes its first chord, repeated; harmony and bass play only it."""
    if song.progression is None:
        return None
    first = song.progression.chords[0]
    chord = set(parse_chord(first.symbol).pitch_classes)
    root = parse_chord(first.symbol).root_pc
    chords = [first.model_copy() for _ in song.progression.chords]

    def flatten(track: Track) -> Track:
        if track.role in HARMONY:
            notes = [moved(n, pitch=nearest(n.pitch, chord)) for n in notes_of(track)]
        elif track.role in BASS:
            notes = [moved(n, pitch=nearest(n.pitch, {root})) for n in notes_of(track)]
        else:
            return track
        return with_notes(track, _unique(notes), song)

    flat = retouched(song, flatten)
    return flat.model_copy(
        update={"progression": song.progression.model_copy(update={"chords": chords})}
    )


def copied_repeats(song: SongState, intent: PipelineIntent, donor: SongState) -> SongState | None:
    """Every repeated section (Chorus 2, Verse 2…) plays its first (Chorus 1) note for note."""
    if song.arrangement is None:
        return None
    bpb = song.beats_per_bar
    firsts: dict[str, tuple[int, int]] = {}
    moves: list[tuple[int, int, int]] = []  # (repeat start bar, its first's start bar, bars)
    for s in song.arrangement.sections:
        base = s.name.rstrip("0123456789 ").lower()
        start, bars = firsts.setdefault(base, (s.start_bar, s.bars))
        if start != s.start_bar and bars == s.bars:
            moves.append((s.start_bar, start, bars))
    if not moves:
        return None

    def paste(track: Track) -> Track:
        played = notes = notes_of(track)
        for at, source, bars in moves:
            lo, hi = at * bpb, (at + bars) * bpb
            notes = [n for n in notes if not lo <= n.start_beat < hi]
            shift = (at - source) * bpb
            notes += [
                moved(n, start_beat=n.start_beat + shift)
                for n in played
                if source * bpb <= n.start_beat < (source + bars) * bpb
            ]
        return with_notes(track, sorted(notes, key=lambda n: (n.start_beat, n.pitch)), song)

    return retouched(song, paste)


def requested_deleted(
    song: SongState, intent: PipelineIntent, donor: SongState
) -> SongState | None:
    """The tracks playing the first requested instrument's role are gone."""
    role = _requested_role(intent, song)
    return None if role is None else retouched(song, lambda t: None if t.role == role else t)


def requested_muted(song: SongState, intent: PipelineIntent, donor: SongState) -> SongState | None:
    """The tracks playing the first requested instrument's role are muted."""
    role = _requested_role(intent, song)
    if role is None:
        return None
    return retouched(song, lambda t: t.model_copy(update={"mute": True}) if t.role == role else t)


def pad_doubles_chords(
    song: SongState, intent: PipelineIntent, donor: SongState
) -> SongState | None:
    """The pad track plays the chords track's notes exactly."""
    chords = next((t for t in song.tracks if t.role in ("chords", "keys") and notes_of(t)), None)
    if chords is None or not any(t.role == "pad" for t in song.tracks):
        return None
    copied = notes_of(chords)
    return retouched(song, lambda t: with_notes(t, copied, song) if t.role == "pad" else t)


def lead_in_eighths(song: SongState, intent: PipelineIntent, donor: SongState) -> SongState | None:
    """The lead plays unbroken 8th notes up and down the scale through every section it was in."""
    leads = [t for t in song.tracks if t.role == "lead" and notes_of(t)]
    if not leads or song.arrangement is None:
        return None
    bpb = song.beats_per_bar
    key = key_of(song.key, song.mode)
    scale = [60 + key.tonic_pc + s for s in SCALE_STEPS[key.mode]]
    walk = [*scale, scale[0] + 12, *reversed(scale[1:])]
    played = {int(n.start_beat // bpb) for t in leads for n in notes_of(t)}
    bars = [
        bar
        for s in song.arrangement.sections
        if played & set(range(s.start_bar, s.end_bar))
        for bar in range(s.start_bar, s.end_bar)
    ]
    steps = itertools.cycle(walk)
    eighths = [
        Note(pitch=next(steps), velocity=90, start_beat=bar * bpb + i / 2, duration_beats=0.5)
        for bar in bars
        for i in range(int(bpb * 2))
    ]
    return retouched(song, lambda t: with_notes(t, eighths, song) if t.role == "lead" else t)


def foreign_drums(song: SongState, intent: PipelineIntent, donor: SongState) -> SongState | None:
    """The drum kit plays the donor song's drum bars (another genre's) in every bar it played."""
    bpb = song.beats_per_bar
    donated = [
        [moved(n, start_beat=n.start_beat - bar * bpb) for n in notes]
        for bar, notes in _bars(
            [n for t in donor.tracks if t.role == "drums" for n in notes_of(t)], bpb
        )
    ]
    if not donated or not any(t.role == "drums" for t in song.tracks):
        return None

    def swap(track: Track) -> Track:
        if track.role != "drums":
            return track
        bars = [bar for bar, _ in _bars(notes_of(track), bpb)]
        notes = [
            moved(n, start_beat=bar * bpb + n.start_beat)
            for bar, pattern in zip(bars, itertools.cycle(donated))
            for n in pattern
        ]
        return with_notes(track, notes, song)

    return retouched(song, swap)


Degradation = Callable[[SongState, PipelineIntent, SongState], SongState | None]

#: Each degradation and the axis that should hear it.
AXIS: dict[str, tuple[Degradation, str]] = {
    "one chord": (one_chord, "harmony"),
    "copied repeats": (copied_repeats, "arrangement"),
    "requested track deleted": (requested_deleted, "arrangement"),
    "requested track muted": (requested_muted, "arrangement"),
    "pad doubles chords": (pad_doubles_chords, "harmony"),
    "lead in constant 8ths": (lead_in_eighths, "rhythm"),
    "foreign drums": (foreign_drums, "rhythm"),
}


def spoils(good: SongState, degraded: SongState) -> bool:
    """Whether a degradation changed what is heard (copying a chorus that was a copy does not)."""

    def heard(song: SongState) -> list[tuple[str, bool, list[tuple[int, int]]]]:
        """Each track's (16th step, pitch): what the critics compare, timing nudges aside."""
        return sorted(
            (
                t.role,
                t.mute,
                sorted(
                    (round((r.start_beat + n.start_beat) * 4), n.pitch)
                    for r in t.regions
                    for n in r.notes
                ),
            )
            for t in song.tracks
        )

    chords = [c.symbol for c in good.progression.chords] if good.progression else []
    spoiled = [c.symbol for c in degraded.progression.chords] if degraded.progression else []
    return heard(good) != heard(degraded) or chords != spoiled


def _requested_role(intent: PipelineIntent, song: SongState) -> str | None:
    from muse_tui.knowledge import intent_lexicon

    words = intent_lexicon().instruments
    playing = {t.role for t in song.tracks if not t.mute and any(r.notes for r in t.regions)}
    roles = [words[w].role for w in intent.instrument_requests if w in words]
    return next((r for r in roles if r in playing and r != "drums"), None)


def _bars(notes: list[Note], bpb: float) -> list[tuple[int, list[Note]]]:
    by_bar: dict[int, list[Note]] = {}
    for n in sorted(notes, key=lambda n: (n.start_beat, n.pitch)):
        by_bar.setdefault(int(n.start_beat // bpb), []).append(n)
    return sorted(by_bar.items())


def _unique(notes: list[Note]) -> list[Note]:
    """One note per (onset, pitch): a chord squeezed onto fewer tones loses its duplicates."""
    seen: dict[tuple[float, int], Note] = {}
    for n in notes:
        seen.setdefault((n.start_beat, n.pitch), n)
    return sorted(seen.values(), key=lambda n: (n.start_beat, n.pitch))
