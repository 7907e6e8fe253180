"""Tempo, length and progressions written out in a prompt ("140bpm", "32 bars", "I vi IV V")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from muse_tui.compose.intent.text import PromptText
from muse_tui.contracts import TEMPO_LIMITS
from muse_tui.knowledge.progressions import MOST_CHORDS
from muse_tui.theory import parse_chord, parse_roman

_NUM = r"(\d{2,3}(?:\.\d+)?)"
_UNIT = r"(?:b\.?\s?p\.?\s?m\.?'?s?|bmp'?s?|pbm|beats?\s?(?:per|a|/)\s?min(?:ute)?s?|bpn)"
_ABOUT = r"(?:~\s?|around\s|about\s|roughly\s|approx\.?\s|approximately\s|like\s)?"
_NOT_A_LENGTH = r"(?!['\w%/:.]|\s?(?:bars?|min|mins|minutes?|sec|secs|seconds?|%|hz|k)\b)"
#: Drum machines and synths named by number, never tempos.
_MACHINES = {808, 909, 303, 606, 707, 101}

_TEMPO_RANGE = re.compile(rf"(?<!\w){_NUM}\s?(?:-|to)\s?{_NUM}\s?-?\s?{_UNIT}(?!\w)", re.I)
_TEMPO_HALVED = re.compile(rf"(?<!\w){_NUM}\s?/\s?{_NUM}(?:\s?-?\s?{_UNIT})?(?!\w)", re.I)
_TEMPO_WITH_UNIT = [
    re.compile(rf"(?<!\w){_ABOUT}{_NUM}\s?-?\s?{_UNIT}(?!\w)", re.I),
    re.compile(rf"(?<!\w){_UNIT}\s?(?:of|is|at|=|:)?\s?{_ABOUT}{_NUM}(?!\w)", re.I),
    re.compile(
        rf"(?<!\w)(?:tempo|speed)\s?(?:of|is|at|=|:)?\s?{_ABOUT}{_NUM}(?:\s?ish)?{_NOT_A_LENGTH}",
        re.I,
    ),
    re.compile(rf"(?:@|(?<!\w)at)\s?{_ABOUT}{_NUM}(?:\s?ish)?{_NOT_A_LENGTH}", re.I),
    re.compile(rf"(?<![\w~])(?:~\s?|around\s|roughly\s){_NUM}(?:\s?ish)?{_NOT_A_LENGTH}", re.I),
    re.compile(rf"(?<![\w#./:-]){_NUM}\s?ish(?!\w)", re.I),
]
_BARE_NUMBER = re.compile(rf"(?<![\w#./:'-])(\d{{2,3}}){_NOT_A_LENGTH}")

_SECTION_WORDS = r"(?:intro|outro|hook|chorus|verse|break\w*|build\w*|drop|section|bridge|solo)"
#: "drop at 64" is a bar number, not a tempo.
_SECTION_BEFORE = re.compile(rf"(?<!\w){_SECTION_WORDS}\s?$", re.I)
_BAR_RANGE = re.compile(r"(?<!\w)(\d{1,3})\s?(?:-|to)\s?(\d{1,3})[\s-]?bars?(?!\w)", re.I)
_BARS = re.compile(
    rf"(?<![\w/])(\d{{1,3}})[\s-]?bars?(?:\s(?:long|total|in total))?(?!\w)(?!\s?{_SECTION_WORDS})",
    re.I,
)
_MINUTE = r"(?:min|mins|minutes?)"
_MINUTE_RANGE = re.compile(
    rf"(?<!\w)(\d{{1,2}}(?:\.\d+)?)\s?(?:-|to)\s?(\d{{1,2}}(?:\.\d+)?)\s?{_MINUTE}(?!\w)", re.I
)
_MINUTES = re.compile(
    rf"(?<!\w)(\d{{1,2}}(?:\.\d+)?|one|two|three|four|five|six)\s?-?{_MINUTE}(?!\w)", re.I
)
_CLOCK = re.compile(r"(?<![\w:])(\d{1,2}):([0-5]\d)(?![\w:])")
_SECONDS = re.compile(r"(?<!\w)(\d{2,3})\s?(?:sec|secs|seconds)(?!\w)", re.I)
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}

#: What a chord name or a numeral starts with; the theory parsers decide the rest.
_LOOKS_LIKE = {"chord": re.compile(r"^[A-G][#b]?"), "roman": re.compile(r"^[b#]?[IViv]")}
_PROGRESSION_CUE = re.compile(r"(?<!\w)(?:progression|chords|changes)(?!\w)", re.I)
_TOKEN = re.compile(r"[^\s,|;>]+")
_SEPARATORS = re.compile(r"^[\s,|;>\-→]*$")
#: Past this many characters a prompt is prose: chord names in it count only where
#: the prompt says "progression", "chords" or "changes" ("Am, F, C and G are fine" is talk).
_PROSE_CHARS = 300


@dataclass(frozen=True)
class TempoRequest:
    """The BPM(s) written in the prompt."""

    bpms: tuple[float, ...]
    half_time: bool = False


@dataclass(frozen=True)
class LengthRequest:
    """How long the song should be, in bars or minutes, as a range."""

    low: float
    high: float
    unit: str  # "bars" or "minutes"


def read_tempo(prompt: PromptText) -> TempoRequest | None:
    """Explicit BPMs: "140 BPM", "140bpm", "tempo 140", "@ 140", "at 90", "~130", "85-90 bpm"."""
    found: list[tuple[int, float]] = []
    half_time = False
    for match in prompt.free_matches(_TEMPO_RANGE):
        low, high = float(match.group(1)), float(match.group(2))
        if _plausible(low) and _plausible(high):
            prompt.claim(match.start(), match.end())
            found.append((match.start(), (low + high) / 2))
    for match in prompt.free_matches(_TEMPO_HALVED):
        fast, slow = float(match.group(1)), float(match.group(2))
        if _plausible(fast) and abs(fast / 2 - slow) <= 1:
            prompt.claim(match.start(), match.end())
            found.append((match.start(), fast))
            half_time = True
    for pattern in _TEMPO_WITH_UNIT:
        for match in prompt.free_matches(pattern):
            value = float(match.group(1))
            if _plausible(value) and not _SECTION_BEFORE.search(prompt.text[: match.start()]):
                prompt.claim(match.start(), match.end())
                found.append((match.start(), value))
    if not found:
        return None
    return TempoRequest(tuple(bpm for _, bpm in sorted(found)), half_time)


def read_bare_tempo(prompt: PromptText) -> TempoRequest | None:
    """A lone number that can only be a tempo ("dark trap, 140, key of Am")."""
    found = []
    for match in prompt.free_matches(_BARE_NUMBER):
        value = int(match.group(1))
        if 50 <= value <= 220 and value not in _MACHINES:
            prompt.claim(match.start(), match.end())
            found.append(float(value))
    return TempoRequest(tuple(found)) if found else None


def read_length(prompt: PromptText) -> LengthRequest | None:
    """A song length: "32 bars", "16-32 bars", "2 minutes", "2-3 min", "2:30", "90 seconds"."""
    for pattern, unit in ((_BAR_RANGE, "bars"), (_MINUTE_RANGE, "minutes")):
        for match in prompt.free_matches(pattern):
            low, high = sorted((float(match.group(1)), float(match.group(2))))
            if low > 0:
                prompt.claim(match.start(), match.end())
                return LengthRequest(low, high, unit)
    for match in prompt.free_matches(_BARS):
        bars = float(match.group(1))
        if bars >= 1:
            prompt.claim(match.start(), match.end())
            return LengthRequest(bars, bars, "bars")
    for match in prompt.free_matches(_MINUTES):
        word = match.group(1).lower()
        minutes = float(_WORD_NUMBERS.get(word, 0) or word)
        prompt.claim(match.start(), match.end())
        return LengthRequest(minutes, minutes, "minutes")
    for match in prompt.free_matches(_CLOCK):
        minutes = int(match.group(1)) + int(match.group(2)) / 60
        prompt.claim(match.start(), match.end())
        return LengthRequest(minutes, minutes, "minutes")
    for match in prompt.free_matches(_SECONDS):
        seconds = int(match.group(1))
        if seconds >= 20:
            prompt.claim(match.start(), match.end())
            return LengthRequest(seconds / 60, seconds / 60, "minutes")
    return None


def read_progression(prompt: PromptText) -> list[str]:
    """A progression written as numerals ("I vi IV V") or chord names ("Cm Ab Eb Bb").

    The chords must be written side by side: any other word ends the run, so
    "Am F C G, key of Am" is four chords and a key. A run naming more than
    `MOST_CHORDS` chords keeps its first ones; a long prompt names chords only
    where it says it does.
    """
    text = prompt.free_text()
    cued = bool(_PROGRESSION_CUE.search(prompt.text))
    if len(text) > _PROSE_CHARS and not cued:
        return []
    runs: list[tuple[str, list[tuple[int, int, str]]]] = []
    last_end, broken = 0, True
    for token in _TOKEN.finditer(text):
        parts = _chord_parts(token.group())
        if parts is None:
            broken = broken or not _SEPARATORS.match(token.group())  # "Am - F" runs on
            continue
        kind, symbols = parts
        gap = text[last_end : token.start()]
        joined = not broken and runs and runs[-1][0] == kind and _SEPARATORS.match(gap)
        if not joined:
            runs.append((kind, []))
        runs[-1][1].extend((token.start(), token.end(), s) for s in symbols)
        last_end, broken = token.end(), False
    for kind, chords in runs:
        chords = chords[:MOST_CHORDS]
        symbols = [s for _, _, s in chords]
        if not _is_progression(kind, symbols, cued):
            continue
        prompt.claim(chords[0][0], chords[-1][1])
        return symbols
    return []


def _chord_parts(token: str) -> tuple[str, list[str]] | None:
    token = token.strip(".!?:()\"'")
    if token in {"-", "→", ""}:
        return None
    parts = [p for p in re.split(r"[-→]", token) if p]
    for kind in ("roman", "chord"):
        if parts and all(_reads_as(kind, p) for p in parts):
            return kind, parts
    return None


def _reads_as(kind: str, part: str) -> bool:
    """The theory parser reads `part` as a numeral or a chord name ("E7#9", "bVII7", "V7/V")."""
    if not _LOOKS_LIKE[kind].match(part):
        return False
    try:
        parse_roman(part, "C") if kind == "roman" else parse_chord(part)
    except ValueError:
        return False
    return True


def _is_progression(kind: str, symbols: list[str], cued: bool) -> bool:
    if len(symbols) < (2 if cued else 3) or len(set(symbols)) == 1:
        return False  # "Am Am Am" is a word repeated, not a progression
    if kind == "roman":
        return True
    # "A B C" in plain words is rarely a progression; a quality or accidental says it is.
    return cued or any(len(s) > 1 for s in symbols)


def _plausible(bpm: float) -> bool:
    return TEMPO_LIMITS[0] <= bpm <= TEMPO_LIMITS[1]
