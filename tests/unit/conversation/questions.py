"""Issue 31's questions: each answered from its song, each fact read back from the MIDI files.

`questions.yaml` holds the songs and the questions; a question's `fact` names
what its answer must say (`chord_at: 9`, `rests: bass`, `melody: Chorus 1`), and
the check here works that fact out from the session's MIDI files (mido, bar by
bar) or, where the MIDI cannot say it (a section's name, the key's name), from
the arrangement. Nothing here knows the answers' wording beyond the fact itself.
Shared by `test_questions.py` and `bench/questions.py`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import mido
import yaml

from muse_tui.compose.answers import Answer, answer
from muse_tui.compose.harmony import song_key
from muse_tui.compose.transposition import shifted_key
from muse_tui.contracts import SongState
from muse_tui.store.checkpoint import load_checkpoint
from muse_tui.theory import midi_to_name, parse_chord

from .harness import DRUM_ROLES, Song, midi_notes, tempos

TABLE = Path(__file__).with_name("questions.yaml")
#: The parts that sound the harmony a chord names.
HARMONY_ROLES = ("chords", "keys", "pad", "arp")
#: Who carries the melody, first to last: the check's own order, as a producer hears it.
MELODY_ROLES = ("lead", "arp", "keys", "texture")


@cache
def table() -> dict[str, Any]:
    return yaml.safe_load(TABLE.read_text())


def rows() -> list[dict[str, Any]]:
    return list(table()["questions"])


def row_id(row: dict[str, Any]) -> str:
    return f"{row['song']}: {row['ask']}"


@dataclass
class Asked:
    row: dict[str, Any]
    said: Answer
    song: SongState
    folder: Path

    def stem(self, role: str) -> list[tuple[float, int, int, float]]:
        return midi_notes(self.folder / "midi" / f"{role}.mid")

    @property
    def full(self) -> mido.MidiFile:
        return mido.MidiFile(self.folder / "midi" / "full-arrangement.mid")

    @property
    def bar(self) -> float:
        numerator, denominator = self.song.time_signature
        return numerator * 4 / denominator

    def sounding_bars(self, role: str) -> set[int]:
        """Bars (from 0) in which the role's file sounds a note (started or held)."""
        bars: set[int] = set()
        for start, _, _, length in self.stem(role):
            last = math.floor((start + length - 1e-6) / self.bar + 1e-9)
            bars.update(range(math.floor(start / self.bar + 1e-9), max(last, 0) + 1))
        return bars

    def section(self, name: str):
        return next(s for s in self.song.arrangement.sections if s.name == name)  # type: ignore[union-attr]

    def track_name(self, role: str) -> str:
        return next(t.name for t in self.song.tracks if t.role == role)


@dataclass
class Outcome:
    row: dict[str, Any]
    passed: bool
    why: str = ""
    text: str = ""


class Wrong(AssertionError):
    pass


def _has(text: str, *facts: str) -> None:
    missing = [f for f in facts if f.lower() not in text.lower()]
    if missing:
        raise Wrong(f"does not say {missing}")


def _runs(bars: set[int]) -> list[tuple[int, int]]:
    runs: list[list[int]] = []
    for bar in sorted(bars):
        if runs and bar == runs[-1][1]:
            runs[-1][1] = bar + 1
        else:
            runs.append([bar + 1, bar + 1])
    return [(a, b) for a, b in runs]


def _said_runs(text: str) -> list[tuple[int, int]]:
    found = re.findall(r"\bbars? (\d+)(?:[–-](\d+))?", text)
    return [(int(a), int(b or a)) for a, b in found]


# ── the facts ──────────────────────────────────────────────────────────────────────
def key(a: Asked, _: Any) -> None:
    _has(a.said.text, song_key(a.song).name)


def tempo(a: Asked, _: Any) -> None:
    _has(a.said.text, f"{tempos(a.folder / 'midi' / 'full-arrangement.mid')[0]:g} BPM")


def meter(a: Asked, _: Any) -> None:
    sig = next(m for t in a.full.tracks for m in t if m.type == "time_signature")
    _has(a.said.text, f"{sig.numerator}/{sig.denominator}")


def bars(a: Asked, _: Any) -> None:
    last = max(s + n for notes in _stems(a).values() for s, _, _, n in notes)
    _has(a.said.text, f"{math.ceil(last / a.bar - 1e-6)} bars")


def minutes(a: Asked, _: Any) -> None:
    said = re.search(r"\b(\d+):(\d\d)\b", a.said.text)
    if said is None:
        raise Wrong("gives no minutes:seconds")
    seconds = int(said.group(1)) * 60 + int(said.group(2))
    if abs(seconds - a.full.length) > 1.5:
        raise Wrong(f"{said.group(0)} but the MIDI file lasts {a.full.length:.1f} s")


def chord_at(a: Asked, bar: int) -> None:
    """Each chord named for the bar sounds in the harmony parts' notes in that bar."""
    begin, end = (bar - 1) * a.bar, bar * a.bar
    heard = {
        p % 12
        for role in HARMONY_ROLES
        for s, p, _, n in a.stem(role)
        if s < end - 1e-6 and s + n > begin + 1e-6
    }
    named = re.findall(r"chords?: ([^.]+)\.", a.said.text)
    if not named:
        raise Wrong("names no chord")
    for symbol in named[0].split(" then "):
        chord = parse_chord(symbol.strip())
        tones = set(chord.pitch_classes)
        if chord.root_pc not in heard or len(tones & heard) < 0.6 * len(tones):
            raise Wrong(f"{symbol} does not sound in bar {bar} (heard {sorted(heard)})")


def playing_at(a: Asked, bar: int) -> None:
    heard = {a.track_name(role) for role in _stems(a) if bar - 1 in a.sounding_bars(role)}
    listed = re.search(r"Playing: ([^.]+)\.", a.said.text)
    said = {n.strip() for n in listed.group(1).split(",")} if listed else set()
    if said != heard:
        raise Wrong(f"says {sorted(said)}; the MIDI has {sorted(heard)} in bar {bar}")


def rests(a: Asked, role: str) -> None:
    total = a.song.arrangement.total_bars  # type: ignore[union-attr]
    resting = set(range(total)) - a.sounding_bars(role)
    part = a.said.text.split("rests in", 1)
    said = _said_runs(part[1].split("(")[0].split(";")[0]) if len(part) > 1 else []
    if said != _runs(resting):
        raise Wrong(f"rests said {said}; the MIDI rests in {_runs(resting)}")
    _has(a.said.text, a.track_name(role))


def enters(a: Asked, role: str) -> None:
    first = min(math.floor(s / a.bar + 1e-9) for s, *_ in a.stem(role)) + 1
    _has(a.said.text, f"in at bar {first}")


def silent_sections(a: Asked, role: str) -> None:
    plays = a.sounding_bars(role)
    silent = [
        s.name
        for s in a.song.arrangement.sections  # type: ignore[union-attr]
        if not plays & set(range(s.start_bar, s.end_bar))
    ]
    if silent:
        _has(a.said.text.split("silent through", 1)[-1], *silent)
    else:
        _has(a.said.text, "every section")


def melody(a: Asked, name: str) -> None:
    section = a.section(name)
    span = set(range(section.start_bar, section.end_bar))
    playing = [r for r in MELODY_ROLES if r in _stems(a) and a.sounding_bars(r) & span]
    line = next((ln for ln in a.said.text.splitlines() if name in ln), "")
    if not playing:
        _has(line, "no melody")
        return
    _has(line, a.track_name(playing[0]))
    others = [a.track_name(r) for r in MELODY_ROLES if r in _stems(a) and r not in playing]
    if any(o in line for o in others):
        raise Wrong(f"names a part silent in {name}: {line!r}")


def section_bars(a: Asked, name: str) -> None:
    section = a.section(name)
    _has(a.said.text, f"{name} is {section.bars} bars")


def starts(a: Asked, name: str) -> None:
    _has(a.said.text, f"{name} starts at bar {a.section(name).start_bar + 1}")


def instrument(a: Asked, role: str) -> None:
    program = next(
        (m.program for m in mido.MidiFile(a.folder / "midi" / f"{role}.mid").tracks[-1]
         if m.type == "program_change"),
        None,
    )  # fmt: skip
    if program is None:
        raise Wrong(f"{role}.mid sets no program")
    _has(a.said.text, a.track_name(role), f"GM program {program + 1}")


def key_change(a: Asked, _: Any) -> None:
    """Yes and where to, when a section's notes fit another key better; else no."""
    home = song_key(a.song)
    moved = [s for s in a.song.arrangement.sections if s.key_shift]  # type: ignore[union-attr]
    if not moved:
        _has(a.said.text, "no", home.name)
        return
    first = moved[0]
    there = shifted_key(home, first.key_shift)
    begin, end = first.start_bar * a.bar, first.end_bar * a.bar
    pcs = [
        p % 12
        for role, notes in _stems(a).items()
        if role not in DRUM_ROLES
        for s, p, _, _ in notes
        if begin <= s < end
    ]
    fits = lambda key: sum(pc in key.pitch_classes for pc in pcs)  # noqa: E731
    if not fits(there) > fits(home):
        raise Wrong(f"{first.name}'s notes do not fit {there.name} better than {home.name}")
    _has(a.said.text, "yes", first.name, there.name)


def count(a: Asked, kind: str) -> None:
    found = [s for s in a.song.arrangement.sections if s.kind == kind]  # type: ignore[union-attr]
    _has(a.said.text, f"{len(found)} {kind.replace('_', '-')}")
    _has(a.said.text, *(s.name for s in found))


def notes_of(a: Asked, role: str) -> None:
    _has(a.said.text, a.track_name(role), f"{len(a.stem(role))} notes")


def top_note(a: Asked, role: str) -> None:
    from muse_tui.theory import midi_to_name

    _has(a.said.text, midi_to_name(max(p for _, p, _, _ in a.stem(role))))


# ── why, and advice: the reason named, read back from the prompt, the MIDI and skills/ ──
SKILLS = Path(__file__).parents[3] / "skills"
#: General MIDI programs (0-based) an instrument word covers.
GM_FAMILIES = {"piano": range(0, 8), "organ": range(16, 24), "guitar": range(24, 32)}


def _skill(relative: str) -> Any:
    return json.loads((SKILLS / relative).read_text())


def _genre(a: Asked) -> str:
    return load_checkpoint(a.folder).intent.genre[0]  # type: ignore[union-attr]


def _prompt(a: Asked) -> str:
    return table()["songs"][a.row["song"]]["prompt"]


def why_tempo(a: Asked, _: Any) -> None:
    """The tempo heard, and the prompt's word for it or the genre's default with its value."""
    bpm = tempos(a.folder / "midi" / "full-arrangement.mid")[0]
    _has(a.said.text, f"{bpm:g} BPM")
    if re.search(rf"\b{bpm:g}\b", _prompt(a)):
        _has(a.said.text, "asked")
    else:
        default = _skill("harmony/genre-dna.json")["genres"][_genre(a)]["tempoDefault"]
        _has(a.said.text, "genre-dna.json", "tempoDefault", f"= {default:g}")


def why_key(a: Asked, _: Any) -> None:
    """The key heard, and the prompt's word for it or the genre's preferred keys."""
    named = song_key(a.song)
    _has(a.said.text, named.name)
    if re.search(rf"\b{named.tonic_name}(m\b| major| minor)", _prompt(a), re.I):
        _has(a.said.text, "asked")
    else:
        _has(a.said.text, "genre-dna.json", "preferredKeys")


def why_register(a: Asked, role: str) -> None:
    """The part's lowest note as the MIDI has it, inside the register said, and the rule's file."""
    pitches = [n[1] for n in a.stem(role)]
    _has(a.said.text, midi_to_name(min(pitches)), "tracks.json", "pitchRange")
    said = re.search(r"MIDI (\d+)-(\d+)", a.said.text)
    if said is None or not int(said[1]) <= min(pitches) <= max(pitches) <= int(said[2]):
        raise Wrong(f"the register said does not hold the notes {min(pitches)}-{max(pitches)}")


def why_missing(a: Asked, word: str) -> None:
    """Whether a part's GM program is the instrument; if none is, the band's reason."""
    programs = {
        m.program for t in a.full.tracks for m in t if m.type == "program_change" and m.channel != 9
    }
    if programs & set(GM_FAMILIES[word]):
        _has(a.said.text, f"there is a {word}")
    else:
        _has(a.said.text, f"no part plays a {word}", "genre-dna.json")


def _style(a: Asked) -> dict[str, Any]:
    styles = _skill("sound/mix-advice.json")["styles"]
    return next((s for s in styles.values() if _genre(a) in s["genres"]), styles["default"])


def mix_advice(a: Asked, _: Any) -> None:
    """The bass tuned to the key's root, sidechain amounts of the genre's style, a release
    timed to the tempo heard, and sources."""
    style = _style(a)
    bpm = tempos(a.folder / "midi" / "full-arrangement.mid")[0]
    beats = {"32nd": 0.125, "16th": 0.25, "8th": 0.5, "quarter": 1.0}[style["release"]]
    low, high = style["sidechainDb"]
    root = song_key(a.song).tonic_name
    _has(a.said.text, f"to {root} (", f"{low:g}-{high:g} dB", f"{beats * 60000 / bpm:.0f} ms")
    if not all(s.startswith("http") for s in a.said.facts.get("sources", [None])):
        raise Wrong("no sources")


def sample_advice(a: Asked, _: Any) -> None:
    bpm = tempos(a.folder / "midi" / "full-arrangement.mid")[0]
    _has(a.said.text, f"{bpm:g} BPM", song_key(a.song).name, f"{bpm / 2:g}", "mix-advice.json")


def _stems(a: Asked) -> dict[str, list[tuple[float, int, int, float]]]:
    return {
        p.stem: midi_notes(p)
        for p in sorted((a.folder / "midi").glob("*.mid"))
        if p.stem != "full-arrangement"
    }


FACTS: dict[str, Callable[[Asked, Any], None]] = {
    f.__name__: f
    for f in (key, tempo, meter, bars, minutes, chord_at, playing_at, rests, enters,
              silent_sections, melody, section_bars, starts, instrument, key_change, count,
              notes_of, top_note, why_tempo, why_key, why_register, why_missing, mix_advice,
              sample_advice)
}  # fmt: skip


def ask(row: dict[str, Any], songs: dict[str, Song]) -> Outcome:
    """The question answered from its session as read from disk, and its fact checked."""
    folder = songs[row["song"]].folder
    pipeline = load_checkpoint(folder)
    said = answer(row["ask"], pipeline, folder)
    fact = row["fact"] if isinstance(row["fact"], dict) else {row["fact"]: None}
    ((name, value),) = fact.items()
    try:
        FACTS[name](Asked(row, said, pipeline.song_state, folder), value)
    except Wrong as exc:
        return Outcome(row, False, f"{exc} — answered ({said.topic})", said.text)
    return Outcome(row, True, text=said.text)
