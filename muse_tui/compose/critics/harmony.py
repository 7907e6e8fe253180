"""Harmony: notes in the key, chord tones on strong beats, smooth voice-leading."""

from __future__ import annotations

import contextlib
import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.song import SongState
from muse_tui.knowledge.critics import HarmonyCritic, critic_table
from muse_tui.theory import (
    SCALE_STEPS,
    ChordSyntaxError,
    key_of,
    parse_chord,
    voice_leading_motion,
)

from .listening import NEUTRAL, Part, Verdict, is_drums, percent, step, weigh, worst_cause

Note = tuple[float, float, int, int]

HARMONY_ROLES = frozenset({"chords", "keys", "pad"})
#: Roles whose strong-beat notes should land on chord tones.
LINE_ROLES = frozenset({"bass", "sub_bass", "lead", "arp"})
ON_BEAT = 0.08  # beats of humanised slack around a strong beat


def judge_harmony(
    song: SongState,
    parts: Sequence[Part],
    *,
    intent: PipelineIntent | None = None,
    critic: HarmonyCritic | None = None,
    slack: float | None = None,
) -> Verdict:
    """In-key rate (worst part counts double), chord tones on strong beats, voice-leading,
    how many different chords the song moves through, and harmony parts doubling each other.
    """
    table = critic_table()
    critic = critic or table.harmony
    slack = table.fault_slack if slack is None else slack
    pitched = [p for p in parts if p.notes and not is_drums(p.track)]
    if not pitched:
        return Verdict(0.0, "there are no pitched notes to judge")
    allowed = key_pitch_classes(song) | _progression_pitch_classes(song)
    rates = [sum(n[2] % 12 in allowed for n in p.notes) / len(p.notes) for p in pitched]
    worst = min(range(len(pitched)), key=lambda i: (rates[i], pitched[i].label))
    in_key = 0.5 * sum(rates) / len(rates) + 0.5 * rates[worst]
    coverage = chord_tone_coverage(song, pitched)
    motion = chord_motion(song)
    variety = chord_variety(song, parts)
    doubled = worst_doubling(parts, critic.doubling_roles)
    scores = {
        "inKey": critic.in_key.score(in_key),
        "chordTones": NEUTRAL if coverage is None else critic.chord_tones.score(coverage),
        "voiceLeading": NEUTRAL if motion is None else critic.voice_leading.score(motion),
        "variety": variety_score(variety, intent, critic),
        "doubling": 1.0 if doubled is None else critic.doubling.score(doubled[0]),
    }
    causes = [
        (
            scores["inKey"],
            f"the {pitched[worst].label} leaves the key on {percent(1 - rates[worst])}% of notes",
        ),
        (
            scores["chordTones"],
            f"only {percent(coverage or 0)}% of strong-beat notes are chord tones",
        ),
        (
            scores["voiceLeading"],
            f"the chords jump {motion or 0:.1f} semitones per voice between changes",
        ),
        (scores["variety"], _variety_note(variety)),
        (
            scores["doubling"],
            f"the {doubled[1]} part doubles the {doubled[2]} note for note "
            f"({percent(doubled[0])}% of its notes)"
            if doubled
            else None,
        ),
    ]
    return Verdict(weigh(scores, critic, slack), worst_cause(causes))


def chord_variety(song: SongState, parts: Sequence[Part]) -> tuple[float, str] | None:
    """The effective number of chords the song moves through, and the one it leans on most.

    Effective count: 1 / Σ share², each chord's share of the time. Four equal chords
    count 4, a 65-chord progression of Am with one A in it counts 1.0. Taken both as
    written (the progression, by beats) and as heard (each bar's pitch classes in the
    harmony parts); the smaller wins, so four chords played as one are one.
    """
    found: list[tuple[float, str]] = []
    if song.progression is not None:
        beats: dict[str, float] = {}
        for chord in song.progression.chords:
            symbol = chord.symbol.strip()
            beats[symbol] = beats.get(symbol, 0.0) + chord.beats
        found.append((_effective(beats), max(beats, key=lambda c: beats[c])))
    bpb = song.beats_per_bar
    bars: dict[int, set[int]] = {}
    for part in parts:
        if part.track.role in HARMONY_ROLES:
            for start, _, pitch, _ in part.notes:
                bars.setdefault(int(start // bpb), set()).add(pitch % 12)
    heard = Counter(frozenset(pcs) for pcs in bars.values() if len(pcs) >= 2)
    if heard:
        found.append((_effective(heard), found[0][1] if found else "one chord"))
    return min(found, default=None)


def _effective(weights: Mapping[str, float] | Mapping[frozenset[int], int]) -> float:
    total = sum(weights.values())
    return 1 / sum((w / total) ** 2 for w in weights.values())


def variety_score(
    variety: tuple[float, str] | None, intent: PipelineIntent | None, critic: HarmonyCritic
) -> float:
    """Variety from the effective chord count; in a genre that vamps one chord is the idiom."""
    genres = set(intent.genre) if intent else set()
    if intent and intent.genre_dna:
        genres.add(intent.genre_dna.genre)
    if variety is None or genres & set(critic.vamping_genres):
        return 1.0
    return critic.variety.score(variety[0])


def _variety_note(variety: tuple[float, str] | None) -> str | None:
    if variety is None:
        return None
    count, leaned_on = variety
    if count < 1.5:
        return f"the harmony never really leaves {leaned_on}: one chord all song"
    return f"the harmony only moves between about {count:.0f} chords, mostly {leaned_on}"


def doubling(a: Sequence[Note], b: Sequence[Note]) -> float:
    """Share of the sparser part's (onset step, pitch) pairs that the other plays too."""
    sa = {(step(n[0]), n[2]) for n in a}
    sb = {(step(n[0]), n[2]) for n in b}
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / min(len(sa), len(sb))


def worst_doubling(parts: Sequence[Part], roles: Sequence[str]) -> tuple[float, str, str] | None:
    """The most doubled pair of harmony parts: (share, the sparser part, the other)."""
    harmony = [p for p in parts if p.track.role in roles and p.notes]
    pairs = []
    for a, b in itertools.combinations(harmony, 2):
        # The sparser part doubles the other; on a tie, the one listed later (pad, not chords).
        sparser, other = (a, b) if len(a.notes) < len(b.notes) else (b, a)
        names = sparser.track.name.lower(), other.track.name.lower()
        if names[0] == names[1]:  # two "Piano" tracks: say which part each plays
            names = sparser.label, other.label
        pairs.append((doubling(a.notes, b.notes), *names))
    return max(pairs, default=None)


def song_scale(song: SongState) -> tuple[int, str]:
    """The tonic pitch class and scale kind: a mode in the key text ("Am") wins over `mode`."""
    key = key_of(song.key, song.mode)
    return key.tonic_pc, key.mode


def key_name(song: SongState) -> str:
    """The key as a musician says it: "A minor", "D dorian"."""
    return key_of(song.key, song.mode).name


def key_pitch_classes(song: SongState) -> frozenset[int]:
    """The song's scale; minor keys also allow their raised sixth and seventh."""
    tonic, kind = song_scale(song)
    pcs = {(tonic + step) % 12 for step in SCALE_STEPS[kind]}
    if kind in ("minor", "aeolian", "harmonic minor", "melodic minor"):
        pcs |= {(tonic + 9) % 12, (tonic + 11) % 12}
    return frozenset(pcs)


def chord_tone_coverage(song: SongState, parts: Sequence[Part]) -> float | None:
    """Share of bass, lead and arp notes on strong beats that belong to the sounding chord."""
    sounding = _harmony_timeline(parts)
    chords = song.progression.chords if song.progression else []
    written = [(c.beats, _chord_pitch_classes(c.symbol, c.voicing)) for c in chords]
    bar = song.beats_per_bar
    strong = (0.0, bar / 2) if bar % 2 == 0 else (0.0,)
    hits = total = 0
    for part in parts:
        if part.track.role not in LINE_ROLES:
            continue
        for start, _, pitch, _ in part.notes:
            # Distance to the nearest strong beat, so a note pushed just ahead of the bar counts.
            if min(abs((start - b + bar / 2) % bar - bar / 2) for b in strong) > ON_BEAT:
                continue
            chord = _chord_at(start, sounding, written)
            if chord:
                total += 1
                hits += pitch % 12 in chord
    return hits / total if total else None


def chord_motion(song: SongState) -> float | None:
    """Mean semitones each voice moves between consecutive progression voicings (looping)."""
    if song.progression is None or len(song.progression.chords) < 2:
        return None
    voicings = [c.voicing for c in song.progression.chords]
    moves = [_motion(a, b) for a, b in zip(voicings, [*voicings[1:], voicings[0]], strict=True)]
    return sum(moves) / len(moves)


def _motion(a: Sequence[int], b: Sequence[int]) -> float:
    if len(a) == len(b):
        return voice_leading_motion(a, b) / len(a)
    # Voices appear or vanish: each note moves to the nearest note of the other chord.
    forward = sum(min(abs(x - y) for y in a) for x in b) / len(b)
    backward = sum(min(abs(x - y) for y in b) for x in a) / len(a)
    return (forward + backward) / 2


def _harmony_timeline(parts: Sequence[Part]) -> dict[int, list[tuple[float, float, int]]]:
    by_beat: dict[int, list[tuple[float, float, int]]] = defaultdict(list)
    for part in parts:
        if part.track.role in HARMONY_ROLES:
            for start, end, pitch, _ in part.notes:
                for beat in range(int(start), math.ceil(end)):
                    by_beat[beat].append((start, end, pitch % 12))
    return by_beat


def _chord_at(
    beat: float,
    sounding: dict[int, list[tuple[float, float, int]]],
    written: Sequence[tuple[float, set[int]]],
) -> set[int] | None:
    """The pitch classes sounding in the harmony parts at `beat`, else the progression's chord.

    `written` is the progression as (beats, pitch classes), looping.
    """
    pcs = {pc for s, e, pc in sounding.get(int(beat), ()) if s <= beat + 0.125 and e > beat}
    if len(pcs) >= 2:
        return pcs
    if not written:
        return None
    at = beat % sum(beats for beats, _ in written)
    for beats, chord in written:
        if at < beats:
            return chord
        at -= beats
    return None


def _chord_pitch_classes(symbol: str, voicing: Sequence[int]) -> set[int]:
    pcs = {n % 12 for n in voicing}
    with contextlib.suppress(ChordSyntaxError, ValueError):
        pcs |= set(parse_chord(symbol).pitch_classes)
    return pcs


def _progression_pitch_classes(song: SongState) -> frozenset[int]:
    if song.progression is None:
        return frozenset()
    return frozenset().union(
        *(_chord_pitch_classes(c.symbol, c.voicing) for c in song.progression.chords)
    )
