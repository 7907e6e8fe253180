"""Sixty everyday edits a producer types after the first compose, each with what it must do
to the MIDI (issue 15).

Shared by `test_everyday_edits.py` and `bench/edits.py`. Four seeded songs are
composed once; every request runs on a fresh copy of its song's session folder
and is judged twice: *understood* (read as a change and applied, or for a vague
wish asked back with three options) and *heard* (its check on the files passes).
Checks read the written files (`midi/*.mid` with mido, the state and notes), not
the engine's own report.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import mido

from muse_tui.contracts import ComposerPipeline, PipelineConfig, SongState
from muse_tui.contracts.editing import ModifySongResult
from muse_tui.engine.editing import modify
from muse_tui.engine.orchestrator import Orchestrator
from muse_tui.engine.registry import product_stages
from muse_tui.store.checkpoint import song_path
from muse_tui.theory import parse_chord

#: name → (prompt, seed); 32 bars each, so every song has an intro and an outro.
SONGS = {
    "soul": ("neo soul, late night, 85 bpm, in Eb minor", 7),
    "trap": ("dark trap beat with 808s, 140 bpm", 3),
    "pop": ("upbeat pop song in C major, 110 bpm: drums, bass, piano and lead", 5),
    "house": ("deep house groove with pads, 122 bpm", 2),
}
KICKS = {35, 36}
BACKBEAT = {37, 38, 39, 40}
HATS = {42, 44, 46}
TOMS = set(range(41, 51)) - HATS
GHOST = 45


def _clock() -> datetime:
    return datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


@dataclass
class Song:
    """A composed session: its pipeline and its folder (never changed; cases copy it)."""

    pipeline: ComposerPipeline
    folder: Path

    @property
    def state(self) -> SongState:
        return self.pipeline.song_state


@dataclass(frozen=True)
class Heard:
    """What a check reads: the song before, the result, and the files before and after."""

    before: Song
    result: ModifySongResult
    folder: Path

    @property
    def after(self) -> SongState:
        return SongState.model_validate_json(song_path(self.folder).read_bytes())

    def notes(self, stem: str, *, old: bool = False) -> list[tuple[float, int, int, float]]:
        return midi_notes((self.before.folder if old else self.folder) / "midi" / f"{stem}.mid")

    def messages(self, stem: str, kind: str, *, old: bool = False) -> list[mido.Message]:
        path = (self.before.folder if old else self.folder) / "midi" / f"{stem}.mid"
        return [m for t in mido.MidiFile(path).tracks for m in t if m.type == kind]


Check = Callable[[Heard], None]


@dataclass(frozen=True)
class Case:
    """One request on one song, and what it must do to the files."""

    song: str
    text: str
    check: Check
    vague: bool = False


@dataclass
class Outcome:
    case: Case
    understood: bool
    heard: bool
    why: str = ""
    summary: str = ""
    files: list[str] = field(default_factory=list)


# ── reading the files ───────────────────────────────────────────────────────────
def midi_notes(path: Path) -> list[tuple[float, int, int, float]]:
    """(beat, pitch, velocity, length in beats) of every note in a MIDI file, in time order."""
    midi = mido.MidiFile(path)
    found: list[tuple[float, int, int, float]] = []
    for track in midi.tracks:
        tick, sounding = 0, {}
        for message in track:
            tick += message.time
            key = (getattr(message, "channel", 0), getattr(message, "note", 0))
            if message.type == "note_on" and message.velocity > 0:
                sounding[key] = (tick, message.velocity)
            elif message.type in ("note_off", "note_on") and key in sounding:
                start, velocity = sounding.pop(key)
                found.append(
                    (
                        start / midi.ticks_per_beat,
                        key[1],
                        velocity,
                        (tick - start) / midi.ticks_per_beat,
                    )
                )
    return sorted(found)


def _hits(notes: list[tuple[float, int, int, float]], pitches: set[int]) -> list[tuple]:
    return [n for n in notes if n[1] in pitches and n[2] >= GHOST]


def _section(song: SongState, kind: str) -> tuple[float, float]:
    section = next(s for s in song.arrangement.sections if s.kind == kind)  # type: ignore[union-attr]
    bar = song.beats_per_bar
    return section.start_bar * bar, section.end_bar * bar


def _groups(notes: list[tuple[float, int, int, float]]) -> list[set[int]]:
    """Pitch classes struck together (within a 16th), for groups of three notes or more."""
    groups: list[list[tuple]] = []
    for note in notes:
        if groups and note[0] - groups[-1][0][0] < 0.25:
            groups[-1].append(note)
        else:
            groups.append([note])
    return [{n[1] % 12 for n in g} for g in groups if len(g) >= 3]


def _chord_stem(song: SongState) -> str:
    return next(t.role for t in song.tracks if t.role in ("chords", "keys"))


def _off_grid(notes: list[tuple[float, int, int, float]]) -> float:
    """Mean distance of onsets from the straight 16th grid, in beats: swing moves it."""
    return statistics.fmean(abs(n[0] * 4 - round(n[0] * 4)) / 4 for n in notes)


# ── the checks ──────────────────────────────────────────────────────────────────
def harder(h: Heard) -> None:
    old = statistics.fmean(n[2] for n in _hits(h.notes("drums", old=True), KICKS | BACKBEAT))
    new = statistics.fmean(n[2] for n in _hits(h.notes("drums"), KICKS | BACKBEAT))
    assert new >= old + 6, f"kick/snare velocity {old:.0f} → {new:.0f}"


def softer_hits(h: Heard) -> None:
    old = statistics.fmean(n[2] for n in _hits(h.notes("drums", old=True), KICKS | BACKBEAT))
    new = statistics.fmean(n[2] for n in _hits(h.notes("drums"), KICKS | BACKBEAT))
    assert new < old, f"kick/snare velocity {old:.0f} → {new:.0f}"


def hat_rolls(h: Heard) -> None:
    def rolled_beats(notes: list[tuple]) -> int:
        hats = sorted({round(n[0], 3) for n in notes if n[1] in HATS})
        beats: dict[int, int] = {}
        for beat in hats:
            beats[int(beat)] = beats.get(int(beat), 0) + 1
        return sum(1 for count in beats.values() if count >= 8)

    old, new = rolled_beats(h.notes("drums", old=True)), rolled_beats(h.notes("drums"))
    assert new >= old + 4, f"beats with a 32nd hat roll {old} → {new}"


def slides(stem: str) -> Check:
    def check(h: Heard) -> None:
        old = len(h.messages(stem, "pitchwheel", old=True))
        new = len(h.messages(stem, "pitchwheel"))
        assert new > old, f"pitch bends in {stem}.mid {old} → {new}"

    return check


def sevenths(h: Heard) -> None:
    chords = h.after.progression.chords  # type: ignore[union-attr]
    assert all(any(d == 7 for d, _ in parse_chord(c.symbol).degrees) for c in chords), [
        c.symbol for c in chords
    ]
    sevenths_of = {}
    for c in chords:
        parsed = parse_chord(c.symbol)
        seventh = next(
            (parsed.root_pc + {0: 11, -1: 10, -2: 9}[a]) % 12 for d, a in parsed.degrees if d == 7
        )
        sevenths_of[(parsed.root_pc, min(parsed.pitch_classes - {parsed.root_pc}))] = seventh
    groups = _groups(h.notes(_chord_stem(h.after)))
    with_seventh = [
        g for g in groups if any(r in g and s in g for (r, _), s in sevenths_of.items())
    ]
    assert len(with_seventh) >= 0.5 * len(groups), f"{len(with_seventh)}/{len(groups)} chords"


def jazzier(h: Heard) -> None:
    def colour(song: SongState) -> int:
        return sum(len(parse_chord(c.symbol).degrees) for c in song.progression.chords)  # type: ignore[union-attr]

    assert colour(h.after) > colour(h.before.state), "no chord gained a tone"
    triads = []
    for chord in h.before.state.progression.chords:  # type: ignore[union-attr]
        parsed = parse_chord(chord.symbol)
        steps = {
            (d, a): (parsed.root_pc + {1: 0, 3: 4, 5: 7}[d] + a) % 12
            for d, a in parsed.degrees
            if d in (1, 3, 5)
        }
        triads.append(set(steps.values()))
    stem = _chord_stem(h.after)

    def coloured(old: bool) -> float:
        groups = _groups(h.notes(stem, old=old))
        plain = sum(1 for g in groups if any(g <= t for t in triads))
        return 1 - plain / len(groups)

    before, after = coloured(True), coloured(False)
    if before < 0.7:
        assert after >= before + 0.3, f"chords beyond a plain triad {before:.0%} → {after:.0%}"
    else:  # coloured already (neo soul's ninths): the voicings themselves must move
        old_groups, new_groups = _groups(h.notes(stem, old=True)), _groups(h.notes(stem))
        moved = sum(1 for a, b in zip(old_groups, new_groups, strict=False) if a != b)
        assert moved >= 0.3 * len(new_groups), f"{moved}/{len(new_groups)} voicings moved"


def mode(third_gone: int, third_in: int, stem: str = "") -> Check:
    """The song's third moves: e.g. C major → C minor loses E and gains Eb in the chords."""

    def check(h: Heard) -> None:
        part = stem or _chord_stem(h.after)
        pcs = [n[1] % 12 for n in h.notes(part)]
        assert pcs.count(third_in) > pcs.count(third_gone), (
            f"{part}: {pcs.count(third_gone)} of the old third, {pcs.count(third_in)} of the new"
        )

    return check


def more_notes(stem: str, factor: float = 1.05) -> Check:
    def check(h: Heard) -> None:
        old, new = len(h.notes(stem, old=True)), len(h.notes(stem))
        assert new >= old * factor, f"{stem}: {old} → {new} notes"

    return check


def fewer_notes(*stems: str) -> Check:
    def check(h: Heard) -> None:
        old = sum(len(h.notes(s, old=True)) for s in stems)
        new = sum(len(h.notes(s)) for s in stems)
        assert new < 0.9 * old, f"{'+'.join(stems)}: {old} → {new} notes"

    return check


def all_of(*checks: Check) -> Check:
    def check(h: Heard) -> None:
        for one in checks:
            one(h)

    return check


def _backbeats_per_bar(notes: list[tuple], bar: float = 4.0) -> dict[float, int]:
    """How many backbeat hits land on each beat of the bar (0-based), over the song."""
    where: dict[float, int] = {}
    for beat, *_ in _hits(notes, BACKBEAT):
        at = round(beat % bar * 4) / 4
        where[at] = where.get(at, 0) + 1
    return where


def half_time(h: Heard) -> None:
    old, new = _backbeats_per_bar(h.notes("drums", old=True)), _backbeats_per_bar(h.notes("drums"))
    on_three = new.get(2.0, 0)
    assert on_three > 0.8 * sum(new.values()), f"backbeats by beat {new}"
    assert sum(new.values()) < 0.75 * sum(old.values()), f"{old} → {new}"


def double_time(h: Heard) -> None:
    old = sum(_backbeats_per_bar(h.notes("drums", old=True)).values())
    new = sum(_backbeats_per_bar(h.notes("drums")).values())
    assert new >= 1.6 * old, f"backbeats {old} → {new}"


def new_part(stem: str, count: int = 16) -> Check:
    def check(h: Heard) -> None:
        assert not (h.before.folder / "midi" / f"{stem}.mid").exists(), f"{stem}.mid was there"
        notes = h.notes(stem)
        assert len(notes) >= count, f"{stem}.mid has {len(notes)} notes"
        full = mido.MidiFile(h.folder / "midi" / "full-arrangement.mid")
        names = {m.name for t in full.tracks for m in t if m.type == "track_name"}
        wanted = next(t.name for t in h.after.tracks if t.role == stem)
        assert wanted in names, f"{wanted} not in full-arrangement.mid ({names})"

    return check


def removed(stem: str) -> Check:
    def check(h: Heard) -> None:
        gone = next(t for t in h.before.state.tracks if t.role == stem)
        assert not (h.folder / "midi" / f"{stem}.mid").exists(), f"{stem}.mid still there"
        patterns = sorted(p.name for p in (h.folder / "mpc").glob(f"*-{stem}.mpcpattern"))
        assert not patterns, f"its MPC patterns are still there: {patterns}"
        assert all(t.role != stem for t in h.after.tracks)
        full = mido.MidiFile(h.folder / "midi" / "full-arrangement.mid")
        names = {m.name for t in full.tracks for m in t if m.type == "track_name"}
        assert gone.name not in names, f"{gone.name} still in full-arrangement.mid"
        channels = {m.channel for t in full.tracks for m in t if m.type == "note_on"}
        if gone.channel != 9:
            assert gone.channel not in channels, "its channel still plays"
        named = re.compile(rf"\b{re.escape(gone.name)}\b(?! Perform)")  # MPC's Pad Perform
        for page in sorted((h.folder / "notes").glob("*.md")):
            assert not named.search(page.read_text()), f"{page.name} still mentions {gone.name}"

    return check


def swapped(stem: str, name: str, program: int) -> Check:
    def check(h: Heard) -> None:
        track = next(t for t in h.after.tracks if t.role == stem)
        old = next(t for t in h.before.state.tracks if t.role == stem)
        assert (track.name, track.program) == (name, program), (track.name, track.program)
        assert track.preset != old.preset, "the preset stayed"
        programs = {m.program for m in h.messages(stem, "program_change")}
        assert programs == {program}, f"{stem}.mid programs {programs}"
        assert h.notes(stem) == h.notes(stem, old=True), "the notes moved"

    return check


def fills(h: Heard) -> None:
    song = h.after
    bar = song.beats_per_bar
    drums = h.notes("drums")
    filled = 0
    for section in song.arrangement.sections:  # type: ignore[union-attr]
        end = section.end_bar * bar
        last = [n for n in drums if end - 1 <= n[0] < end and n[1] in TOMS]
        filled += len(last) >= 2
    playing = sum(
        1
        for s in song.arrangement.sections  # type: ignore[union-attr]
        if any(s.start_bar * bar <= n[0] < s.end_bar * bar for n in drums)
    )
    assert filled >= max(1, playing - 1), f"{filled} of {playing} sections end with a tom fill"


def swing(more: bool) -> Check:
    def check(h: Heard) -> None:
        old, new = _off_grid(h.notes("drums", old=True)), _off_grid(h.notes("drums"))
        assert (new > old + 0.003) if more else (new < old - 0.003), (
            f"off grid {old:.4f} → {new:.4f}"
        )

    return check


def tone(param: str, up: bool) -> Check:
    def check(h: Heard) -> None:
        gains = [
            float(e.parameters.get(param, 0))
            for t in h.after.tracks
            if t.effect_chain
            for e in t.effect_chain.effects
            if e.kind == "eq"
        ]
        assert gains and (max(gains) > 0 if up else min(gains) < 0), f"{param} gains {gains}"
        assert "notes/effect-chains.md" in h.result.updated_files

    return check


def build(before_kind: str) -> Check:
    def check(h: Heard) -> None:
        _, end = _section(h.after, before_kind)
        bar = h.after.beats_per_bar
        rolled = [n for n in h.notes("drums") if end - bar <= n[0] < end and n[1] in BACKBEAT]
        old = [
            n for n in h.notes("drums", old=True) if end - bar <= n[0] < end and n[1] in BACKBEAT
        ]
        assert len(rolled) >= 12 and len(rolled) > len(old), f"{len(old)} → {len(rolled)} snares"
        velocities = [n[2] for n in rolled]
        assert velocities[-1] > velocities[0], "the roll does not swell"

    return check


def rests_in(kind: str, stem: str = "drums") -> Check:
    def check(h: Heard) -> None:
        start, end = _section(h.after, kind)
        played = [n for n in h.notes(stem, old=True) if start <= n[0] < end]
        assert played, f"the {stem} did not play in the {kind} to begin with"
        inside = [n for n in h.notes(stem) if start <= n[0] < end]
        assert not inside, f"{len(inside)} {stem} notes in the {kind}"
        assert len(h.notes(stem)) > 0, f"the {stem} vanished everywhere"

    return check


def ghosts(h: Heard) -> None:
    def count(notes: list[tuple]) -> int:
        return sum(1 for n in notes if n[1] in BACKBEAT and n[2] < GHOST)

    old, new = count(h.notes("drums", old=True)), count(h.notes("drums"))
    assert new > old + 8, f"ghost snares {old} → {new}"


def cc(stem: str, control: int, up: bool | None = None, value: int | None = None) -> Check:
    def check(h: Heard) -> None:
        def first(old: bool) -> int:
            found = [
                m.value for m in h.messages(stem, "control_change", old=old) if m.control == control
            ]
            return found[0]

        old, new = first(True), first(False)
        if value is not None:
            assert new == value, f"CC{control} {old} → {new}"
        else:
            assert (new > old) if up else (new < old), f"CC{control} {old} → {new}"

    return check


def tempo(faster: bool) -> Check:
    def check(h: Heard) -> None:
        def bpm(folder: Path) -> float:
            full = mido.MidiFile(folder / "midi" / "full-arrangement.mid")
            return mido.tempo2bpm(
                next(m.tempo for t in full.tracks for m in t if m.type == "set_tempo")
            )

        old, new = bpm(h.before.folder), bpm(h.folder)
        assert (new > old + 1) if faster else (new < old - 1), f"{old:.1f} → {new:.1f} BPM"

    return check


def chord_is(index: int, symbol: str) -> Check:
    def check(h: Heard) -> None:
        assert h.after.progression.chords[index].symbol == symbol  # type: ignore[union-attr]
        stem = _chord_stem(h.after)
        assert h.notes(stem) != h.notes(stem, old=True), f"{stem}.mid did not follow"

    return check


def muted(stem: str) -> Check:
    def check(h: Heard) -> None:
        track = next(t for t in h.after.tracks if t.role == stem)
        assert track.mute, f"{stem} not muted"

    return check


def effect_more(stem: str, kind: str) -> Check:
    def check(h: Heard) -> None:
        def amount(song: SongState) -> float:
            track = next(t for t in song.tracks if t.role == stem)
            sends = track.effect_chain.sends if track.effect_chain else {}
            return sum(sends.values()) + sum(
                1
                for e in (track.effect_chain.effects if track.effect_chain else [])
                if e.kind == kind
            )

        assert amount(h.after) > amount(h.before.state), f"no more {kind} on the {stem}"

    return check


def section_bars(kind: str, change: int) -> Check:
    """The section grew by `change` bars, or (negative) shrank by up to that, never to nothing.

    A 4-bar outro made shorter keeps half of it: taking all 4 would be "cut the outro".
    """

    def check(h: Heard) -> None:
        old = next(s for s in h.before.state.arrangement.sections if s.kind == kind)  # type: ignore[union-attr]
        new = next(s for s in h.after.arrangement.sections if s.kind == kind)  # type: ignore[union-attr]
        moved = new.bars - old.bars
        if change > 0:
            assert moved == change, f"{kind} {old.bars} → {new.bars} bars"
        else:
            assert change <= moved < 0 and new.bars >= 1, f"{kind} {old.bars} → {new.bars} bars"
        before = h.before.state.arrangement.total_bars  # type: ignore[union-attr]
        after = h.after.arrangement.total_bars  # type: ignore[union-attr]
        assert after - before == moved, "the rest of the song moved with it"

    return check


def nothing_changed(h: Heard) -> None:
    assert h.result.status == "no_change" and not h.result.updated_files
    assert h.result.summary.count("“") >= 3, h.result.summary


# ── the set ─────────────────────────────────────────────────────────────────────
EVERYDAY: tuple[Case, ...] = (
    # the thirteen refused before issue 15
    Case("trap", "make the drums harder", harder),
    Case("soul", "punchier drums", harder),
    Case("trap", "add hi-hat rolls", hat_rolls),
    Case("trap", "can you add some hat rolls", hat_rolls),
    Case("trap", "808 slides", slides("sub_bass")),
    Case("soul", "add slides to the bass", slides("bass")),
    Case("soul", "jazzier chords", jazzier),
    Case("pop", "make the chords jazzier", jazzier),
    Case("pop", "add 7ths", sevenths),
    Case("pop", "add sevenths to the chords", sevenths),
    Case("pop", "sadder", mode(4, 3)),
    Case("pop", "make it a bit sadder", mode(4, 3)),
    Case("soul", "happier", mode(6, 7)),
    Case("trap", "more energy", all_of(more_notes("drums"), harder)),
    Case("soul", "way more energy", all_of(more_notes("drums"), harder)),
    Case("soul", "less energy", all_of(fewer_notes("drums", "bass", "keys"), softer_hits)),
    Case("trap", "half time", half_time),
    Case("pop", "half-time drums", half_time),
    Case("house", "double time", double_time),
    Case("soul", "double-time drums", double_time),
    Case("pop", "longer intro", section_bars("intro", 4)),
    Case("soul", "shorter outro", section_bars("outro", -4)),
    Case("pop", "add a pad", new_part("pad")),
    Case("house", "add a lead", new_part("lead")),
    Case("house", "could you add a lead line?", new_part("lead")),
    Case("pop", "make this more interesting", nothing_changed, vague=True),
    Case("soul", "make it better", nothing_changed, vague=True),
    Case("soul", "I don't like it", nothing_changed, vague=True),
    # instruments and tracks
    Case("pop", "swap the piano for a Rhodes", swapped("chords", "Rhodes", 4)),
    Case("pop", "replace the piano with an organ", swapped("chords", "Organ", 16)),
    Case("soul", "swap the rhodes for a piano", swapped("keys", "Piano", 0)),
    Case("soul", "remove the lead", removed("lead")),
    Case("trap", "get rid of the pad", removed("pad")),
    Case("pop", "add some strings", new_part("pad")),
    # groove
    Case("soul", "add fills", fills),
    Case("pop", "more drum fills", fills),
    Case("soul", "more swing", swing(more=True)),
    Case("soul", "a bit less swing", swing(more=False)),
    Case("trap", "hit softer", softer_hits),
    Case("soul", "ghost notes on the snare", ghosts),
    Case("trap", "busier hi-hats", more_notes("drums")),
    # tone and space
    Case("pop", "brighter", tone("air_db", up=True)),
    Case("soul", "darker", tone("air_db", up=False)),
    Case("pop", "warmer", tone("low_mid_db", up=True)),
    Case("soul", "more space", fewer_notes("drums", "bass", "keys")),
    Case("pop", "give it more space", fewer_notes("drums", "bass", "chords")),
    Case("trap", "more reverb on the lead", effect_more("lead", "reverb")),
    # form and energy
    Case("house", "build more", build("verse")),
    Case("pop", "bigger build into the chorus", build("verse")),
    Case("house", "drop the drums in the intro", rests_in("intro")),
    Case("pop", "no drums in the outro", rests_in("outro")),
    Case("soul", "make the bass simpler", fewer_notes("bass")),
    # mix, key, tempo
    Case("soul", "turn the pad down", cc("pad", 7, up=False)),
    Case("trap", "make the 808 a bit louder", cc("sub_bass", 7, up=True)),
    Case("soul", "pan the lead left", cc("lead", 10, value=32)),
    Case("house", "faster", tempo(faster=True)),
    Case("soul", "slow it down a bit", tempo(faster=False)),
    Case("pop", "make it minor", mode(4, 3)),
    Case("soul", "change the 2nd chord to Abm7", chord_is(1, "Abm7")),
    Case("trap", "mute the pad", muted("pad")),
)


def compose_songs(root: Path, prompts: dict[str, tuple[str, int]] = SONGS) -> dict[str, Song]:
    """The songs (name → prompt, seed), composed once with their seeds (32 bars, no gates)."""
    engine = Orchestrator(product_stages(), root, clock=_clock)
    config = PipelineConfig(approval_gates=[])
    songs = {}
    for name, (prompt, seed) in prompts.items():
        pipeline = asyncio.run(engine.run(prompt, seed=seed, config=config, answers={"bars": "32"}))
        assert pipeline.status == "completed", name
        songs[name] = Song(pipeline, root / pipeline.session_id)
    return songs


def run_case(case: Case, songs: dict[str, Song], scratch: Path) -> Outcome:
    """The request on a copy of its song: understood? heard in the files?"""
    song = songs[case.song]
    folder = scratch / f"{abs(hash((case.song, case.text))):x}" / song.folder.name
    shutil.copytree(song.folder, folder)
    result = asyncio.run(modify(song.pipeline, case.text, session_dir=folder, clock=_clock))
    if case.vague:
        understood = result.status == "no_change" and result.summary.count("“") >= 3
    else:
        understood = result.status == "applied"
    outcome = Outcome(case, understood, False, summary=result.summary, files=result.updated_files)
    if not understood:
        outcome.why = result.summary
        return outcome
    try:
        case.check(Heard(song, result, folder))
    except AssertionError as exc:
        outcome.why = f"not heard: {exc}"
        return outcome
    outcome.heard = True
    return outcome
