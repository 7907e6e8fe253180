"""Vibe: tempo against the genre's range, mode and register against the moods."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from muse_tui.compose.critics.harmony import key_name, song_scale
from muse_tui.compose.critics.listening import (
    NEUTRAL,
    Part,
    Verdict,
    clamp,
    is_drums,
    weigh,
    worst_cause,
)
from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.song import SongState
from muse_tui.knowledge.critics import VibeCritic, critic_table
from muse_tui.knowledge.sound import MoodPalette, mood_palette
from muse_tui.theory.scale import SCALE_STEPS, scale_kind

#: A texture's notes trigger a noise bed or a riser: their pitch says nothing of brightness.
REGISTER_IGNORES = frozenset({"bass", "sub_bass", "percussion", "texture"})


def judge_vibe(
    song: SongState,
    intent: PipelineIntent | None,
    parts: Sequence[Part],
    palette: MoodPalette | None = None,
    *,
    critic: VibeCritic | None = None,
    slack: float | None = None,
) -> Verdict:
    """Tempo against the genre's range, mode and register against the moods."""
    palette = palette or mood_palette()
    table = critic_table()
    critic = critic or table.vibe
    slack = table.fault_slack if slack is None else slack
    dna = intent.genre_dna if intent else None
    found = [(m, mood) for m in (intent.mood if intent else []) if (mood := palette.find(m))]
    moods = [m for m, _ in found]
    target = sum(mood.brightness for _, mood in found) / len(found) if found else None
    tempo_score, tempo_note = NEUTRAL, None
    if dna is not None:
        low, high = dna.tempo_range
        tempo_score = max(
            _tempo_fit(song.tempo, low, high),
            0.85 * _tempo_fit(song.tempo * 2, low, high),
            0.85 * _tempo_fit(song.tempo / 2, low, high),
        )
        tempo_note = f"{song.tempo:g} BPM is outside {dna.display_name}'s {low:g}–{high:g} BPM"
    brightness = mode_brightness(song)
    words = " and ".join(m.replace("_", " ") for m in moods)
    usual = dna is not None and song_scale(song)[1] in _kinds(dna.preferred_modes)
    if target is not None:
        mode_score = clamp(1 - max(0.0, abs(brightness - target) - 0.15) / 0.5)
        # A mode the genre habitually uses is never wholly wrong for it.
        mode_score = max(mode_score, critic.usual_mode_floor) if usual else mode_score
        lean = "bright" if brightness > target else "dark"
        mode_note: str | None = f"{key_name(song)} sounds too {lean} for {_a(words)} mood"
    else:
        mode_score = 1.0 if usual else NEUTRAL if dna is None else 0.6
        mode_note = (
            f"{key_name(song)} is not a mode {dna.display_name} usually uses" if dna else None
        )
    register = mean_register(parts)
    register_score, register_note = NEUTRAL, None
    if target is not None and register is not None:
        aim = 58 + 14 * target
        register_score = clamp(1 - max(0.0, abs(register - aim) - 8) / 16)
        height = "high" if register > aim else "low"
        register_note = f"the parts sit {height} (mean pitch {register:.0f}) for {_a(words)} mood"
    causes = [(tempo_score, tempo_note), (mode_score, mode_note), (register_score, register_note)]
    scores = {"tempo": tempo_score, "mode": mode_score, "register": register_score}
    return Verdict(weigh(scores, critic, slack), worst_cause(causes))


def mode_brightness(song: SongState) -> float:
    """0 (locrian) to 1 (lydian): the third decides half, how many degrees are raised the rest."""
    steps = SCALE_STEPS[song_scale(song)[1]]
    major_third = 4 in steps
    if len(steps) != 7:
        return 0.8 if major_third else 0.25
    return 0.5 * major_third + 0.5 * (sum(steps) - 33) / 6


def mean_register(parts: Sequence[Part]) -> float | None:
    """Mean pitch of the melodic and harmonic parts (bass, drums and noise beds left out)."""
    pitches = [
        n[2]
        for p in parts
        if not is_drums(p.track) and p.track.role not in REGISTER_IGNORES
        for n in p.notes
    ]
    return sum(pitches) / len(pitches) if pitches else None


def _kinds(modes: Sequence[str]) -> set[str]:
    kinds = set()
    for mode in modes:
        with contextlib.suppress(ValueError):
            kinds.add(scale_kind(mode))
    return kinds


def _tempo_fit(bpm: float, low: float, high: float) -> float:
    distance = max(low - bpm, bpm - high, 0.0)
    return clamp(1 - distance / 25)


def _a(word: str) -> str:
    """The word with its indefinite article: "a dark", "an epic"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"
