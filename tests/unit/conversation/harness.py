"""Issue 31's request table: each producer request, what it must do to the MIDI, and nothing more.

`requests.yaml` holds the songs and the requests as data: the target (a track
role, or a drum voice as `drums:kick`), where (`all`, a section's name as the
song has it, or `bars 9-16`, 1-based and inclusive), and the change the
producer asked for. `check` composes each song once (cached by prompt, seed and
bars), runs a request through `engine.editing.modify` (what `muse-studio
modify` calls) on a fresh copy of the session, and compares the MIDI files
before and after: the change must be heard inside the target and scope, and
every note outside them must be the same note. A request whose scope or target
the song lacks must be asked back: nothing written, one sentence naming the
choices. Shared by `test_requests.py` and `bench/requests.py`.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import statistics
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import mido
import yaml

from muse_tui.contracts import PipelineConfig, SongState
from muse_tui.contracts.editing import ModifySongResult
from muse_tui.engine.editing import modify
from muse_tui.engine.orchestrator import Orchestrator
from muse_tui.engine.protocols import AutoApprove
from muse_tui.engine.registry import product_stages
from muse_tui.store.checkpoint import song_path
from tests.iteration.everyday import Song

TABLE = Path(__file__).with_name("requests.yaml")
FAMILIES = ("drums", "bass and harmony", "lead and parts", "form and scope", "song-wide")
DRUM_ROLES = ("drums", "percussion")
EARLY = 1 / 32

Note = tuple[float, int, int, float]  # beat, pitch, velocity, length in beats


def _clock() -> datetime:
    return datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


@cache
def table() -> dict[str, Any]:
    return yaml.safe_load(TABLE.read_text())


def rows() -> list[dict[str, Any]]:
    return list(table()["requests"])


def row_id(row: dict[str, Any]) -> str:
    return f"{row['song']}: {row['say']}"


def compose_songs(root: Path, specs: dict[str, Any] | None = None) -> dict[str, Song]:
    """Every song of the table (or of `specs`), composed once into `root` (no gates)."""
    songs: dict[str, Song] = {}
    config = PipelineConfig(approval_gates=[])
    for name, spec in (specs or table()["songs"]).items():
        engine = Orchestrator(product_stages(), root / name, clock=_clock)
        pipeline = asyncio.run(
            engine.run(
                spec["prompt"],
                seed=spec["seed"],
                config=config,
                answers={"bars": str(spec["bars"])},
            )
        )
        assert pipeline.status == "completed", name
        songs[name] = Song(pipeline, root / name / pipeline.session_id)
    return songs


# ── reading the files ───────────────────────────────────────────────────────────
def midi_notes(path: Path) -> list[Note]:
    if not path.exists():
        return []
    midi = mido.MidiFile(path)
    found: list[Note] = []
    for track in midi.tracks:
        tick, sounding = 0, {}
        for message in track:
            tick += message.time
            key = (getattr(message, "channel", 0), getattr(message, "note", 0))
            if message.type == "note_on" and message.velocity > 0:
                sounding.setdefault(key, []).append((tick, message.velocity))
            elif message.type in ("note_off", "note_on") and sounding.get(key):
                start, velocity = sounding[key].pop(0)
                found.append(
                    (
                        round(start / midi.ticks_per_beat, 4),
                        key[1],
                        velocity,
                        round((tick - start) / midi.ticks_per_beat, 4),
                    )
                )
    return sorted(found)


def tempos(path: Path) -> list[float]:
    midi = mido.MidiFile(path)
    return [
        round(mido.tempo2bpm(m.tempo), 2) for t in midi.tracks for m in t if m.type == "set_tempo"
    ]


def stems(folder: Path) -> dict[str, list[Note]]:
    return {
        p.stem: midi_notes(p)
        for p in sorted((folder / "midi").glob("*.mid"))
        if p.stem != "full-arrangement"
    }


def midi_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "midi").glob("*.mid"))}


# ── what a row names ───────────────────────────────────────────────────────────
def voices() -> dict[str, set[int]]:
    return {name: set(pitches) for name, pitches in table()["voices"].items()}


@dataclass(frozen=True)
class Target:
    stem: str
    pitches: frozenset[int] | None = None  # a drum voice's notes, or the whole part

    def holds(self, stem: str, pitch: int) -> bool:
        return stem == self.stem and (self.pitches is None or pitch in self.pitches)


def targets(row: dict[str, Any], song: SongState) -> list[Target]:
    named = row.get("target", [])
    named = [named] if isinstance(named, str) else list(named)
    found: list[Target] = []
    for word in named:
        if word == "pitched":
            found += [Target(t.role) for t in song.tracks if t.role not in DRUM_ROLES]
        elif word == "all":
            found += [Target(t.role) for t in song.tracks]
        elif ":" in word:
            stem, voice = word.split(":")
            found.append(Target(stem, frozenset(voices()[voice])))
        else:
            found.append(Target(word))
    return found


def bar_ranges(row: dict[str, Any], song: SongState) -> list[tuple[float, float]]:
    """The beats a row's `where` spans: [start, end) pairs."""
    where = row.get("where", "all")
    said = [where] if isinstance(where, str) else list(where)
    bar = song.beats_per_bar
    spans: list[tuple[float, float]] = []
    for one in said:
        if one == "all":
            spans.append((0.0, 1e9))
        elif m := re.fullmatch(r"bars (\d+)-(\d+)", one):
            spans.append(((int(m.group(1)) - 1) * bar, int(m.group(2)) * bar))
        else:
            section = next(s for s in song.arrangement.sections if s.name == one)  # type: ignore[union-attr]
            spans.append((section.start_bar * bar, section.end_bar * bar))
    return spans


def _inside(beat: float, spans: list[tuple[float, float]]) -> bool:
    return any(a - EARLY <= beat < b - EARLY for a, b in spans)  # early notes lead into a bar


# ── the checks ─────────────────────────────────────────────────────────────────
@dataclass
class Outcome:
    row: dict[str, Any]
    passed: bool
    why: str = ""
    summary: str = ""
    status: str = ""

    @property
    def family(self) -> str:
        return self.row["family"]


@dataclass
class Seen:
    before: Song
    after: SongState
    result: ModifySongResult
    folder: Path
    old: dict[str, list[Note]] = field(default_factory=dict)
    new: dict[str, list[Note]] = field(default_factory=dict)


class Failed(AssertionError):
    pass


def _split(seen: Seen, aimed: list[Target], spans: list[tuple[float, float]], notes: str):
    """(in scope, outside) notes of each stem, for the old or the new files."""
    source = seen.old if notes == "old" else seen.new
    inside: dict[str, list[Note]] = {}
    outside: dict[str, list[Note]] = {}
    for stem, found in source.items():
        for note in found:
            aimed_at = any(t.holds(stem, note[1]) for t in aimed) and _inside(note[0], spans)
            (inside if aimed_at else outside).setdefault(stem, []).append(note)
    return inside, outside


def _all(notes: dict[str, list[Note]]) -> list[Note]:
    return [n for found in notes.values() for n in found]


def _mean_velocity(notes: list[Note]) -> float:
    return statistics.fmean(n[2] for n in notes) if notes else 0.0


def _track(song: SongState, role: str):
    return next((t for t in song.tracks if t.role == role), None)


def _same_outside(seen: Seen, aimed, spans, *, shift: int = 0) -> None:
    _, old = _split(seen, aimed, spans, "old")
    _, new = _split(seen, aimed, spans, "new")
    for stem in sorted(set(old) | set(new)):
        if Counter(old.get(stem, [])) != Counter(new.get(stem, [])):
            lost = len(Counter(old.get(stem, [])) - Counter(new.get(stem, [])))
            raise Failed(f"{stem} changed outside the request ({lost} notes moved)")


def check_change(seen: Seen, row: dict[str, Any]) -> None:
    song = seen.before.state
    change = str(row["change"])
    aimed = targets(row, song)
    spans = bar_ranges(row, song)
    if change.startswith("tempo"):
        return _tempo(seen, change)
    if change.startswith("transposed"):
        return _transposed(seen, int(change.split(":")[1]))
    if change.startswith(("added", "removed_track")):
        return _track_set(seen, change)
    if change.startswith("form"):
        return _form(seen, row)
    if change == "mix":
        if seen.old != seen.new:
            raise Failed("notes moved in a change of the mix")
        if seen.after.tracks == seen.before.state.tracks:
            raise Failed("the mix did not change")
        return None
    _same_tempo(seen)
    if change in ("sound", "effect", "pan", "muted", "volume_down", "swing", "straighter"):
        return _track_setting(seen, row, change, aimed, spans)
    old_in, _ = _split(seen, aimed, spans, "old")
    new_in, _ = _split(seen, aimed, spans, "new")
    old, new = _all(old_in), _all(new_in)
    if not old and change != "more":
        raise Failed("the table names notes that are not there")
    if change == "louder":
        loud = _mean_velocity(new) >= _mean_velocity(old) + 3
        volume = (
            all(
                (_track(seen.after, t.stem) and _track(song, t.stem))
                and _track(seen.after, t.stem).volume > _track(song, t.stem).volume
                for t in aimed
            )
            and all(t.pitches is None for t in aimed)
            and row.get("where", "all") == "all"
        )
        if not (loud or volume) or len(new) < 0.9 * len(old):
            raise Failed(f"velocity {_mean_velocity(old):.0f} → {_mean_velocity(new):.0f}")
    elif change == "softer":
        soft = _mean_velocity(new) <= _mean_velocity(old) - 3
        volume = (
            all(
                _track(seen.after, t.stem)
                and _track(seen.after, t.stem).volume < _track(song, t.stem).volume
                for t in aimed
            )
            and all(t.pitches is None for t in aimed)
            and row.get("where", "all") == "all"
        )
        if not (soft or volume) or len(new) < 0.9 * len(old):
            raise Failed(f"velocity {_mean_velocity(old):.0f} → {_mean_velocity(new):.0f}")
    elif change == "silent":
        if new:
            raise Failed(f"{len(new)} of {len(old)} notes still play in scope")
    elif change == "fewer":
        if not len(new) <= 0.9 * len(old) or not new:
            raise Failed(f"{len(old)} → {len(new)} notes in scope")
    elif change == "more":
        if not len(new) >= max(1.1 * len(old), len(old) + 2):
            raise Failed(f"{len(old)} → {len(new)} notes in scope")
    elif change == "doubled":
        onsets = lambda ns: len({n[0] for n in ns})  # noqa: E731
        if not onsets(new) >= 1.7 * onsets(old):
            raise Failed(f"{onsets(old)} → {onsets(new)} onsets in scope")
    elif change == "halved":
        onsets = lambda ns: len({n[0] for n in ns})  # noqa: E731
        if not (0 < onsets(new) <= 0.65 * onsets(old)):
            raise Failed(f"{onsets(old)} → {onsets(new)} onsets in scope")
    elif change.startswith("shift:"):
        step = int(change.split(":")[1])
        wanted = Counter((n[0], n[1] + step) for n in old)
        if Counter((n[0], n[1]) for n in new) != wanted:
            raise Failed(f"notes in scope are not the old ones moved {step:+d}")
    elif change == "changed":
        if Counter(new) == Counter(old):
            raise Failed("nothing in scope changed")
    elif change == "longer":
        if not statistics.fmean(n[3] for n in new) > 1.15 * statistics.fmean(n[3] for n in old):
            raise Failed("notes are not longer")
    elif change == "shorter":
        if not statistics.fmean(n[3] for n in new) < 0.87 * statistics.fmean(n[3] for n in old):
            raise Failed("notes are not shorter")
    else:
        raise Failed(f"the table's change {change!r} is unknown")
    _same_outside(seen, aimed, spans)
    _same_tracks(seen)


def _same_tempo(seen: Seen) -> None:
    before = tempos(seen.before.folder / "midi" / "full-arrangement.mid")
    after = tempos(seen.folder / "midi" / "full-arrangement.mid")
    if before != after:
        raise Failed(f"the tempo moved {before} → {after}")


def _same_tracks(seen: Seen) -> None:
    if set(seen.old) != set(seen.new):
        raise Failed(f"tracks {sorted(seen.old)} → {sorted(seen.new)}")


def _tempo(seen: Seen, change: str) -> None:
    before = tempos(seen.before.folder / "midi" / "full-arrangement.mid")
    after = tempos(seen.folder / "midi" / "full-arrangement.mid")
    if change == "tempo_up":
        ok = after[0] > before[0]
    elif change == "tempo_down":
        ok = after[0] < before[0]
    else:
        ok = abs(after[0] - float(change.split(":")[1])) < 0.6
    if not ok:
        raise Failed(f"tempo {before} → {after}")
    for stem, old in seen.old.items():  # retimed: each note's feel may move a few ms, no more
        onsets: dict[tuple[int, int], list[list[float]]] = {}
        for side, notes in enumerate((old, seen.new.get(stem, []))):
            for n in notes:
                onsets.setdefault((n[1], n[2]), [[], []])[side].append(n[0])
        for a, b in onsets.values():
            if len(a) != len(b) or any(abs(x - y) > EARLY for x, y in zip(a, b, strict=True)):
                raise Failed(f"a tempo change rewrote {stem}")


def _transposed(seen: Seen, step: int) -> None:
    for stem, old in seen.old.items():
        new = seen.new.get(stem, [])
        if _track(seen.before.state, stem) and _track(seen.before.state, stem).role in DRUM_ROLES:
            if Counter(old) != Counter(new):
                raise Failed(f"{stem} (drums) changed in a key change")
            continue
        if sorted(n[0] for n in new) != sorted(n[0] for n in old):
            raise Failed(f"{stem}: notes were rewritten, not transposed ({len(old)} → {len(new)})")
        # each onset's pitch classes moved by the step (a part may fold an octave into its range)
        moved = Counter((n[0], (n[1] + step) % 12) for n in old)
        if Counter((n[0], n[1] % 12) for n in new) != moved:
            wrong = len(moved - Counter((n[0], n[1] % 12) for n in new))
            raise Failed(f"{stem}: {wrong} of {len(old)} notes not moved {step:+d}")


def _track_set(seen: Seen, change: str) -> None:
    kind, role = change.split(":")
    if kind == "added":
        if role in seen.old or not seen.new.get(role):
            raise Failed(f"no new {role} part")
        extra = set(seen.new) - set(seen.old) - {role}
        if extra:
            raise Failed(f"also added {sorted(extra)}")
    else:
        if role in seen.new:
            raise Failed(f"{role} still there")
    for stem in seen.old:
        if stem != role and Counter(seen.old[stem]) != Counter(seen.new.get(stem, [])):
            raise Failed(f"{stem} changed too")


def _section_notes(notes: list[Note], start: float, end: float) -> Counter:
    return Counter(
        (round(n[0] - start, 2), *n[1:]) for n in notes if start - EARLY <= n[0] < end - EARLY
    )


def _form(seen: Seen, row: dict[str, Any]) -> None:
    """`form: NAME=BARS` (the section now that long; 0 = gone); every other section as it was."""
    wanted = dict(
        (name, int(bars)) for name, bars in (p.split("=") for p in row["change"][5:].split(","))
    )
    before = seen.before.state.arrangement.sections  # type: ignore[union-attr]
    after = seen.after.arrangement.sections  # type: ignore[union-attr]
    now = {s.name: s for s in after}
    for name, bars in wanted.items():
        if bars == 0:
            if name in now:
                raise Failed(f"{name} is still there")
        elif name not in now or now[name].end_bar - now[name].start_bar != bars:
            got = now[name].end_bar - now[name].start_bar if name in now else None
            raise Failed(f"{name} has {got} bars, not {bars}")
    bar = seen.before.state.beats_per_bar
    for old in before:
        if old.name in wanted or old.name not in now:
            if old.name not in wanted:
                raise Failed(f"{old.name} is gone")
            continue
        new = now[old.name]
        for stem, notes in seen.old.items():
            a = _section_notes(notes, old.start_bar * bar, old.end_bar * bar)
            b = _section_notes(seen.new.get(stem, []), new.start_bar * bar, new.end_bar * bar)
            if a != b:
                raise Failed(f"{stem} in {old.name} changed")


def _track_setting(seen: Seen, row, change: str, aimed, spans) -> None:
    for target in aimed:
        old, new = _track(seen.before.state, target.stem), _track(seen.after, target.stem)
        if new is None:
            raise Failed(f"{target.stem} is gone")
        if change == "sound" and (new.preset == old.preset and new.program == old.program):
            raise Failed(f"{target.stem}'s sound stayed")
        if change == "effect" and new.effect_chain == old.effect_chain:
            raise Failed(f"{target.stem}'s effects stayed")
        if change == "pan" and new.pan == old.pan:
            raise Failed(f"{target.stem}'s pan stayed")
        if change == "muted" and not new.mute:
            raise Failed(f"{target.stem} is not muted")
        if change == "volume_down" and not new.volume < old.volume:
            raise Failed(f"{target.stem} volume {old.volume} → {new.volume}")
    if change in ("swing", "straighter"):
        old_in, _ = _split(seen, aimed, spans, "old")
        new_in, _ = _split(seen, aimed, spans, "new")

        def off(ns: list[Note]) -> float:
            return statistics.fmean(abs(n[0] * 4 - round(n[0] * 4)) / 4 for n in ns) if ns else 0

        a, b = off(_all(old_in)), off(_all(new_in))
        if (change == "swing" and not b > a + 0.003) or (
            change == "straighter" and not b < a - 0.003
        ):
            raise Failed(f"off grid {a:.4f} → {b:.4f}")
        _same_outside(seen, aimed, spans)
    elif seen.old != seen.new:
        raise Failed("notes moved in a change of sound or mix")


def check_asked(seen: Seen, row: dict[str, Any], untouched: bool) -> None:
    if seen.result.status == "applied" or not untouched:
        raise Failed(f"not asked back: {seen.result.status} “{seen.result.summary}”")
    sentence = seen.result.summary
    if not sentence.strip():
        raise Failed("asked back with no sentence")
    for name in row.get("names", []):
        if name.lower() not in sentence.lower():
            raise Failed(f"the question does not name {name}: “{sentence}”")


def run_row(row: dict[str, Any], songs: dict[str, Song], scratch: Path, index: int) -> Outcome:
    song = songs[row["song"]]
    folder = scratch / f"r{index:03d}" / song.folder.name
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(song.folder, folder)
    before = midi_bytes(folder)
    result = asyncio.run(
        modify(song.pipeline, row["say"], session_dir=folder, gate=AutoApprove(), clock=_clock)
    )
    after = SongState.model_validate_json(song_path(folder).read_bytes())
    seen = Seen(song, after, result, folder, stems(song.folder), stems(folder))
    outcome = Outcome(row, False, summary=result.summary, status=result.status)
    try:
        if row.get("expect") == "asked":
            check_asked(seen, row, midi_bytes(folder) == before)
        else:
            if result.status != "applied":
                raise Failed(f"{result.status}: “{result.summary}”")
            check_change(seen, row)
    except Failed as exc:
        outcome.why = str(exc)
        return outcome
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)
    outcome.passed = True
    return outcome
