"""The listening figures of issues 13 and 14, each a small pure function of heard notes.

Onsets are compared on a 16th-note grid (`STEPS_PER_BEAT`), so humanised timing does not
hide a copy and swung 16ths still land on their step.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from bench.listening.heard import HeardNote, HeardSection, HeardSong, HeardTrack

STEPS_PER_BEAT = 4

# The three voices of a drum bar the issue compares: kick, backbeat, time-keeping cymbal.
KICKS = frozenset({35, 36})
BACKBEATS = frozenset({37, 38, 39, 40})  # side stick, snare, clap, electric snare
TIME_CYMBALS = frozenset({42, 44, 46, 51, 59})  # hats, and the ride that stands in for them
CRASHES = frozenset({49, 52, 55, 57})
CHORUS_NAMES = frozenset({"chorus", "hook", "drop"})
HARMONY_ROLES = ("chords", "keys", "pad", "arp")

DrumBar = frozenset[tuple[str, int]]


def step(beat: float) -> int:
    """The 16th-note step nearest to a beat."""
    return round(beat * STEPS_PER_BEAT)


def jaccard(a: Iterable[object], b: Iterable[object]) -> float:
    """Shared items over all items; two empty sets agree completely (1.0)."""
    a, b = set(a), set(b)
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


# ── Groove ────────────────────────────────────────────────────────────────────────────


def drum_voice(pitch: int) -> str | None:
    """ "kick", "snare" or "hat" for the voices the overlap compares; None for the rest."""
    if pitch in KICKS:
        return "kick"
    if pitch in BACKBEATS:
        return "snare"
    if pitch in TIME_CYMBALS:
        return "hat"
    return None


def drum_bars(drums: Sequence[HeardNote], beats_per_bar: float, bars: int) -> list[DrumBar]:
    """Each bar's kick/snare/hat onsets as (voice, step within the bar)."""
    per_bar: list[set[tuple[str, int]]] = [set() for _ in range(bars)]
    bar_steps = round(beats_per_bar * STEPS_PER_BEAT)
    for note in drums:
        voice = drum_voice(note.pitch)
        at = step(note.start)
        if voice is None or not 0 <= at // bar_steps < bars:
            continue
        per_bar[at // bar_steps].add((voice, at % bar_steps))
    return [frozenset(b) for b in per_bar]


def main_drum_bar(song: HeardSong) -> DrumBar:
    """The song's most frequent non-empty drum bar (the earliest wins a tie); empty if none."""
    bars = [b for b in drum_bars(song.drums, song.beats_per_bar, song.total_bars) if b]
    if not bars:
        return frozenset()
    counts = Counter(bars)
    best = max(counts.values())
    return next(b for b in bars if counts[b] == best)


def genre_pair_overlaps(
    bars: dict[str, tuple[str, DrumBar]],
) -> list[tuple[str, str, float, bool]]:
    """Jaccard of every pair of genres' main bars: (a, b, overlap, same family)."""
    pairs = []
    for (a, (fam_a, bar_a)), (b, (fam_b, bar_b)) in itertools.combinations(bars.items(), 2):
        pairs.append((a, b, jaccard(bar_a, bar_b), fam_a == fam_b))
    return pairs


def distinct(items: Iterable[object]) -> int:
    """How many different things (progressions, drum bars) a set of seeds gave."""
    return len(set(items))


# ── Instruments and roles ─────────────────────────────────────────────────────────────


def instrument_present(
    song: HeardSong,
    *,
    roles: Sequence[str] = (),
    programs: Sequence[int] = (),
    drum_notes: Sequence[int] = (),
) -> bool:
    """Whether an instrument word was honoured: a drum note hit, or a track that plays it.

    A word with drum notes is honoured by a hit on one of them; a word with programs by a
    pitched track with notes on one of them (and one of `roles`, if given); a word with
    only roles by a track of that role with notes.
    """
    if drum_notes and any(n.pitch in drum_notes for n in song.drums):
        return True
    for track in song.tracks:
        if not track.notes or (roles and track.role not in roles):
            continue
        if programs and not track.is_drums and track.program in programs:
            return True
        if not programs and not drum_notes:
            return True
    return False


def listed_roles_match(
    listed: Sequence[str], aliases: dict[str, Sequence[str]], roles: Sequence[str]
) -> bool:
    """Whether the song's roles are exactly the listed instruments, one role per word."""
    if len(listed) != len(roles):
        return False
    return any(
        all(role in aliases.get(word, (word,)) for word, role in zip(listed, order, strict=True))
        for order in itertools.permutations(roles)
    )


# ── Harmony ───────────────────────────────────────────────────────────────────────────


def doubling(a: Sequence[HeardNote], b: Sequence[HeardNote]) -> float:
    """Share of the sparser track's (onset step, pitch) pairs that the other plays too."""
    sa = {(step(n.start), n.pitch) for n in a}
    sb = {(step(n.start), n.pitch) for n in b}
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / min(len(sa), len(sb))


def harmony_doubling(song: HeardSong) -> float | None:
    """The worst doubling between any two harmony tracks; None with fewer than two."""
    tracks = [t for t in song.tracks_with_role(*HARMONY_ROLES) if t.notes]
    pairs = itertools.combinations(tracks, 2)
    values = [doubling(a.notes, b.notes) for a, b in pairs]
    return max(values) if values else None


def most_sounding(tracks: Sequence[HeardTrack]) -> int:
    """The most notes these tracks sound at one instant."""
    events = [(n.start, 1) for t in tracks for n in t.notes]
    events += [(n.start + n.length, -1) for t in tracks for n in t.notes]
    events.sort()  # an ending (-1) sorts before a start at the same instant
    now = peak = 0
    for _, change in events:
        now += change
        peak = max(peak, now)
    return peak


_PC = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}


def parse_key(text: str) -> tuple[int, str]:
    """(tonic pitch class, "major"/"minor") from "C# minor", "Am", "Eb", "f# minor"."""
    words = text.replace("-", "b").split()
    name = words[0]
    mode = words[1].lower() if len(words) > 1 else "major"
    if len(words) == 1 and name.endswith("m") and len(name) > 1:
        name, mode = name[:-1], "minor"
    pc = _PC[name[0].upper()]
    for accidental in name[1:]:
        pc += {"#": 1, "b": -1}.get(accidental, 0)
    return pc % 12, mode


def heard_key(song: HeardSong) -> tuple[int, str] | None:
    """music21's key (its default `analyze("key")`) for the song's pitched notes.

    The weights are every pitch class's total duration, exactly what music21 sums
    from the full score, so one note per pitch class gives the same answer much faster.
    """
    from music21 import note, stream  # imported late: it takes a second or two

    weights = [0.0] * 12
    for track in song.tracks:
        if not track.is_drums:
            for n in track.notes:
                weights[n.pitch % 12] += n.length
    if not any(weights):
        return None
    score = stream.Stream()
    for pc, weight in enumerate(weights):
        if weight > 0:
            score.append(note.Note(60 + pc, quarterLength=round(weight * 4) / 4 or 0.25))
    found = score.analyze("key")
    return found.tonic.pitchClass, found.mode


# ── Melody ────────────────────────────────────────────────────────────────────────────


def lead_notes(song: HeardSong) -> list[HeardNote]:
    """The notes of the song's lead tracks (role "lead"), in onset order."""
    return sorted(
        (n for t in song.tracks_with_role("lead") for n in t.notes), key=lambda n: n.start
    )


def lead_present(song: HeardSong, minimum_notes: int = 8) -> bool:
    """Whether a lead plays (at least a few notes, not a stray one)."""
    return len(lead_notes(song)) >= minimum_notes


def rest_share(notes: Sequence[HeardNote], sections: Sequence[HeardSection], bpb: float) -> float:
    """Share of the time the lead is silent, over the sections in which it plays at all."""
    spans = []
    for s in sections:
        lo, hi = s.start_bar * bpb, (s.start_bar + s.bars) * bpb
        if any(lo <= n.start < hi for n in notes):
            spans.append((lo, hi))
    total = sum(hi - lo for lo, hi in spans)
    if not total:
        return 1.0
    sounding, reach = 0.0, 0.0
    for n in sorted(notes, key=lambda n: n.start):
        begin, end = max(n.start, reach), n.start + n.length
        if any(lo <= n.start < hi for lo, hi in spans) and end > begin:
            sounding += end - begin
        reach = max(reach, end)
    return max(0.0, 1 - sounding / total)


def lead_bar_variety(notes: Sequence[HeardNote], bpb: float) -> tuple[int, int]:
    """(different bar shapes, bars with notes) of a lead: 18 of 20 means no motif comes back.

    A bar's shape ignores transposition, so a sequence counts as the same bar.
    """
    by_bar: dict[int, list[HeardNote]] = {}
    for n in notes:
        by_bar.setdefault(int(n.start // bpb), []).append(n)
    shapes = {shape(ns, bar * bpb) for bar, ns in by_bar.items()}
    return len(shapes), len(by_bar)


def lead_bar_contours(notes: Sequence[HeardNote], bpb: float) -> tuple[int, int]:
    """(different bar contours, bars with notes) of a lead: a bar's rhythm and the way each
    note moves from the one before (up, down, same), as a listener recognises a motif.

    Listeners know a melody by its contour and rhythm more than by its exact intervals
    (Dowling & Fujitani 1971, "Contour, interval, and pitch recognition in memory for
    melodies"): a sequence moved along the scale (a major third become a minor one), or a
    second verse's line on the same rhythm and shape, is the same motif come back.
    """
    by_bar: dict[int, list[HeardNote]] = {}
    for n in notes:
        by_bar.setdefault(int(n.start // bpb), []).append(n)
    shapes = {contour(ns, bar * bpb) for bar, ns in by_bar.items()}
    return len(shapes), len(by_bar)


def contour(notes: Sequence[HeardNote], origin: float) -> tuple[tuple[int, int], ...]:
    """Onset steps from `origin`, each with its move from the note before (1, -1, 0)."""
    moves = [0] + [(b.pitch > a.pitch) - (b.pitch < a.pitch) for a, b in itertools.pairwise(notes)]
    return tuple((step(n.start - origin), move) for n, move in zip(notes, moves, strict=True))


def section_notes(notes: Sequence[HeardNote], section: HeardSection, bpb: float) -> list[HeardNote]:
    """Notes that start inside a section, with onsets made relative to its first beat."""
    lo, hi = section.start_bar * bpb, (section.start_bar + section.bars) * bpb
    return [
        HeardNote(n.start - lo, n.length, n.pitch, n.velocity) for n in notes if lo <= n.start < hi
    ]


def shape(notes: Sequence[HeardNote], origin: float) -> tuple[tuple[int, int], ...]:
    """Onset steps from `origin` and pitches from the first note: a unit, transposition-free."""
    if not notes:
        return ()
    first = notes[0].pitch
    return tuple((step(n.start - origin), n.pitch - first) for n in notes)


def motif_recurs(notes: Sequence[HeardNote], bars: int, bpb: float, unit_bars: int = 2) -> bool:
    """Whether some non-empty `unit_bars` unit recurs (exact or transposed) at least twice."""
    units = []
    for first_bar in range(0, bars - unit_bars + 1, unit_bars):
        lo, hi = first_bar * bpb, (first_bar + unit_bars) * bpb
        unit = shape([n for n in notes if lo <= n.start < hi], lo)
        if unit:
            units.append(unit)
    return any(count >= 2 for count in Counter(units).values())


def choruses(song: HeardSong) -> list[HeardSection]:
    """The chorus-like sections (Chorus, Hook, Drop), in order."""
    return [s for s in song.sections if s.base in CHORUS_NAMES]


def hook_agreement(first: Sequence[HeardNote], second: Sequence[HeardNote], hook_beats: float):
    """Jaccard of the lead's (step, pitch) in the first `hook_beats` of two choruses."""
    return jaccard(
        {(step(n.start), n.pitch) for n in first if n.start < hook_beats},
        {(step(n.start), n.pitch) for n in second if n.start < hook_beats},
    )


def section_difference(song: HeardSong, a: HeardSection, b: HeardSection) -> float:
    """1 - Jaccard of every track's (track, step, pitch) in two sections: 0.0 is a copy."""

    def heard(section: HeardSection) -> set[tuple[str, int, int]]:
        return {
            (t.name, step(n.start), n.pitch)
            for t in song.tracks
            for n in section_notes(t.notes, section, song.beats_per_bar)
        }

    return 1 - jaccard(heard(a), heard(b))


def copied_sections(song: HeardSong) -> int:
    """How many repeats of a section (same name, any number) are note-for-note copies."""
    copies = 0
    by_name: dict[str, list[HeardSection]] = {}
    for s in song.sections:
        by_name.setdefault(s.base, []).append(s)
    for repeats in by_name.values():
        first = repeats[0]
        copies += sum(
            1
            for s in repeats[1:]
            if s.bars == first.bars and not section_difference(song, first, s)
        )
    return copies


# ── Form ──────────────────────────────────────────────────────────────────────────────


def section_length_ok(bars: int) -> bool:
    """Idiomatic length: a multiple of 4 bars and at most 16."""
    return bars % 4 == 0 and 0 < bars <= 16


def crashes_on_starts(song: HeardSong) -> tuple[int, int]:
    """(starts with a crash on the downbeat, starts where drums play) after the first section."""
    bpb, hits, starts = song.beats_per_bar, 0, 0
    drums = song.drums
    for s in song.sections[1:]:
        lo = s.start_bar * bpb
        if not any(lo <= n.start < lo + bpb for n in drums):
            continue
        starts += 1
        hits += any(n.pitch in CRASHES and abs(n.start - lo) <= 0.125 for n in drums)
    return hits, starts


def build_density_ratio(song: HeardSong, section: HeardSection) -> float | None:
    """Onsets in the last quarter of a section over its first quarter (≥ 1 bar each)."""
    quarter = max(1, section.bars // 4)
    bpb = song.beats_per_bar
    every = [n for t in song.tracks for n in section_notes(t.notes, section, bpb)]
    start = sum(1 for n in every if n.start < quarter * bpb)
    end = sum(1 for n in every if n.start >= (section.bars - quarter) * bpb)
    if not start:
        return None if not end else float("inf")
    return end / start


def builds(song: HeardSong) -> list[HeardSection]:
    """The build-ups (sections named Build, Build-up, Riser)."""
    return [s for s in song.sections if s.base.startswith(("build", "riser"))]
