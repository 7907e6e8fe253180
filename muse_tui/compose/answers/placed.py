"""Answers about where things happen in the open song: a bar, a section, a part's rests.

"what's the chord in bar 9?", "which bars does the bass rest?", "who plays the
melody in the chorus?", "how long is the bridge?", "how long is it in minutes?",
"is there a key change?", "what instrument is the pad?", "how many choruses?".
Each reads the song's notes and arrangement, the same the MIDI files are written
from; nothing is changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from muse_tui.compose.arrangement import chords_in_song
from muse_tui.compose.harmony import song_key
from muse_tui.compose.transposition import shifted_key
from muse_tui.contracts import ComposerPipeline, Section, SongState, Track
from muse_tui.knowledge.edit_words import edit_words
from muse_tui.knowledge.instruments import instrument_table
from muse_tui.knowledge.questions import question_table

from .shape import Answer
from .song import _named_tracks, _says

SECONDS_PER_MINUTE = 60


# ── reading the song ─────────────────────────────────────────────────────────────────
def _sections(song: SongState) -> list[Section]:
    return list(song.arrangement.sections) if song.arrangement else []


def _bar_count(song: SongState) -> int:
    return song.arrangement.total_bars if song.arrangement else 0


def bar_at(song: SongState, beat: float) -> int:
    """The bar (from 0) a beat falls in."""
    if song.has_meter_changes:
        return song.bar_map.bar_at(beat)
    return int(beat // song.beats_per_bar + 1e-9)


def sounding_bars(song: SongState, track: Track) -> set[int]:
    """Bars (from 0) in which the track sounds: a note starts in them or is held into them."""
    bars: set[int] = set()
    for region in track.regions:
        for note in region.notes:
            start = region.start_beat + note.start_beat
            end = start + note.duration_beats
            bars.update(range(bar_at(song, start), bar_at(song, max(start, end - 1e-6)) + 1))
    return bars


def _ranges(bars: Iterable[int]) -> list[tuple[int, int]]:
    """Bars from 0 as 1-based inclusive runs: {0,1,2,7} → [(1, 3), (8, 8)]."""
    runs: list[list[int]] = []
    for bar in sorted(bars):
        if runs and bar == runs[-1][1]:
            runs[-1][1] = bar + 1
        else:
            runs.append([bar + 1, bar + 1])
    return [(a, b) for a, b in runs]


def _said_ranges(runs: list[tuple[int, int]]) -> str:
    said = [f"bar {a}" if a == b else f"bars {a}–{b}" for a, b in runs]
    return ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1] if said else ""


def named_sections(song: SongState, line: str) -> list[Section]:
    """The sections a line names: by their own name ("Head Out", "Chorus 2"), by kind and
    ordinal ("the last chorus", "verse 2", "the second verse"), or every one of a kind."""
    lower = line.lower()
    sections = _sections(song)
    for section in sorted(sections, key=lambda s: -len(s.name)):
        name = re.escape(section.name.lower()).replace(r"\ ", r"[\s-]+")
        if re.search(rf"(?<![\w-]){name}(?![\w-])", lower):
            return [section]
    words = edit_words()
    ordinals = "|".join(sorted(words.ordinals, key=len, reverse=True))
    for word in sorted(words.section_words, key=len, reverse=True):
        found = re.search(
            rf"\b(?:(?P<ord>{ordinals})\s+)?{re.escape(word)}(?:\s+(?P<num>\d{{1,2}}))?\b", lower
        )
        if found is None:
            continue
        of_kind = [s for s in sections if s.kind == words.section_words[word]]
        number = int(found.group("num")) if found.group("num") else None
        if number is None and found.group("ord"):
            number = words.ordinals[found.group("ord")]
        if number is None or not of_kind:
            return of_kind
        index = number - 1 if number > 0 else len(of_kind) + number
        return [of_kind[index]] if 0 <= index < len(of_kind) else []
    return []


def _playing(song: SongState, bars: set[int]) -> list[Track]:
    return [t for t in song.tracks if not t.mute and sounding_bars(song, t) & bars]


def _clock(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // SECONDS_PER_MINUTE}:{whole % SECONDS_PER_MINUTE:02d}"


def _seconds(song: SongState, first_bar: int, end_bar: int) -> float:
    return (song.bar_beat(end_bar) - song.bar_beat(first_bar)) * SECONDS_PER_MINUTE / song.tempo


# ── the answers ──────────────────────────────────────────────────────────────────────
def at_bar(pipeline: ComposerPipeline, bar: int) -> Answer:
    """Bar N: its section, the chords under it, and who plays in it."""
    song = pipeline.song_state
    total = _bar_count(song)
    if not 1 <= bar <= total:
        return Answer("at_bar", f"The song has {total} bars (1–{total}); bar {bar} is not in it.")
    index = bar - 1
    section = next(s for s in _sections(song) if s.start_bar <= index < s.end_bar)
    begin, end = song.bar_beat(index), song.bar_beat(index + 1)
    chords = []
    if song.progression is not None:
        for placed in chords_in_song(song, section, song.progression):
            if placed.start_beat < end - 1e-6 and placed.end_beat > begin + 1e-6:
                chords.append(placed.chord.symbol)
    chords = list(dict.fromkeys(chords))
    players = [t.name for t in _playing(song, {index})]
    text = f"Bar {bar} is in {section.name} (bars {section.start_bar + 1}–{section.end_bar})."
    if chords:
        text += f" The chord{'s' if len(chords) > 1 else ''}: {' then '.join(chords)}."
    text += f" Playing: {', '.join(players)}." if players else " Nothing plays in it."
    facts = {"bar": bar, "section": section.name, "chords": chords, "playing": players}
    return Answer("at_bar", text, facts)


def when(pipeline: ComposerPipeline, line: str) -> Answer:
    """Where a part plays and rests (by bars and sections), or where a section starts."""
    song = pipeline.song_state
    tracks = _named_tracks(song, line)
    if not tracks:
        sections = named_sections(song, line)
        if not sections:
            return Answer("when", _which_part(song), {})
        lines = [
            f"{s.name} starts at bar {s.start_bar + 1} and runs to bar {s.end_bar} ({s.bars} bars)."
            for s in sections
        ]
        facts = {"sections": [{"section": s.name, "bars": [s.start_bar + 1, s.end_bar]}
                              for s in sections]}  # fmt: skip
        return Answer("when", " ".join(lines), facts)
    total = _bar_count(song)
    rows, lines = [], []
    for track in tracks:
        plays = sounding_bars(song, track) & set(range(total))
        rests = set(range(total)) - plays
        silent = [s.name for s in _sections(song) if not plays & set(range(s.start_bar, s.end_bar))]
        if not plays:
            lines.append(f"{track.name} plays nowhere in this song.")
        else:
            said = f"{track.name} comes in at bar {min(plays) + 1} and plays "
            said += f"{_said_ranges(_ranges(plays))}; "
            said += f"it rests in {_said_ranges(_ranges(rests))}" if rests else "it never rests"
            everywhere = "; it plays in every section"
            said += f" (silent through {', '.join(silent)})" if silent else everywhere
            lines.append(said + ".")
        rows.append(
            {
                "track": track.name,
                "plays": _ranges(plays),
                "rests": _ranges(rests),
                "silentSections": silent,
            }
        )
    return Answer("when", "\n".join(lines), {"tracks": rows})


def melody(pipeline: ComposerPipeline, line: str) -> Answer:
    """Who carries the melody in each section named (every section when none is)."""
    song = pipeline.song_state
    sections = named_sections(song, line) or _sections(song)
    order = question_table().melody_roles
    rows, lines = [], []
    for section in sections:
        bars = set(range(section.start_bar, section.end_bar))
        playing = _playing(song, bars)
        ranked = sorted((t for t in playing if t.role in order), key=lambda t: order.index(t.role))
        who = [t.name for t in ranked if t.role == ranked[0].role] if ranked else []
        rows.append({"section": section.name, "melody": who})
        if who:
            lines.append(f"In {section.name} the melody is the {' and the '.join(who)}.")
        else:
            lines.append(f"{section.name} has no melody: nothing plays a line over the parts.")
    return Answer("melody", "\n".join(lines), {"sections": rows})


def length(pipeline: ComposerPipeline, line: str) -> Answer:
    """How long the song (or the sections named) is, in bars and minutes."""
    song = pipeline.song_state
    sections = named_sections(song, line)
    if sections:
        lines = [
            f"{s.name} is {s.bars} bars, {_clock(_seconds(song, s.start_bar, s.end_bar))} "
            f"at {song.tempo:g} BPM (bars {s.start_bar + 1}–{s.end_bar})."
            for s in sections
        ]
        facts = {"sections": [{"section": s.name, "bars": s.bars} for s in sections]}
        return Answer("length", " ".join(lines), facts)
    total = _bar_count(song)
    seconds = _seconds(song, 0, total)
    text = (
        f"{total} bars at {song.tempo:g} BPM in {song.meter.label}: {_clock(seconds)} "
        f"({seconds:.0f} seconds)."
    )
    return Answer("length", text, {"bars": total, "seconds": round(seconds, 1)})


def key_change(pipeline: ComposerPipeline) -> Answer:
    """Whether the key moves, where to, and from where."""
    song = pipeline.song_state
    home = song_key(song)
    moved = [s for s in _sections(song) if s.key_shift]
    if not moved:
        return Answer("key_change", f"No: the whole song stays in {home.name}.", {"key": home.name})
    first = moved[0]
    there = shifted_key(home, first.key_shift)
    steps = abs(first.key_shift)
    way = "up" if first.key_shift > 0 else "down"
    text = (
        f"Yes: {first.name} (bar {first.start_bar + 1}) moves {way} {steps} semitone"
        f"{'s' if steps != 1 else ''} from {home.name} to {there.name}"
    )
    rest = [s.name for s in moved[1:]]
    text += f", and {', '.join(rest)} stay{'s' if len(rest) == 1 else ''} there." if rest else "."
    facts = {"key": home.name, "to": there.name, "sections": [s.name for s in moved]}
    return Answer("key_change", text, facts)


def instrument(pipeline: ComposerPipeline, line: str) -> Answer:
    """The instrument a named track plays: its sound, its GM program and its preset."""
    song = pipeline.song_state
    tracks = _named_tracks(song, line)
    if not tracks:
        return Answer("instrument", _which_part(song), {})
    table = instrument_table()
    rows, lines = [], []
    for track in tracks:
        entry = table.get(track.instrument)
        sound = track.instrument or track.role.replace("_", " ")
        said = f"{track.name} is played by the {sound}"
        if entry is not None and entry.idiom:
            said += f" ({entry.idiom})"
        if track.program is not None:
            said += f" (GM program {track.program + 1})"
        elif track.is_drums:
            said += " on the drum channel"
        if track.preset is not None:
            said += f"; in MPC Beats load {track.preset.name} ({track.preset.engine})"
        lines.append(said + ".")
        rows.append({"track": track.name, "instrument": track.instrument, "program": track.program})
    return Answer("instrument", "\n".join(lines), {"tracks": rows})


def count(pipeline: ComposerPipeline, line: str) -> Answer:
    """How many sections of a kind there are, and which."""
    song = pipeline.song_state
    words = edit_words().section_words
    kinds = [k for w, k in words.items() if _says(line.lower(), w)]
    if not kinds:
        sections = _sections(song)
        return Answer("count", f"{len(sections)} sections: {', '.join(s.name for s in sections)}.")
    kind = kinds[0]
    found = [s for s in _sections(song) if s.kind == kind]
    word = kind.replace("_", "-")
    text = f"{len(found)} {word if len(found) == 1 else _plural(word)}"
    text += f": {', '.join(f'{s.name} (bars {s.start_bar + 1}–{s.end_bar})' for s in found)}."
    return Answer("count", text if found else f"No {word} in this song.", {"count": len(found)})


def _plural(word: str) -> str:
    return f"{word}es" if word.endswith(("ch", "sh", "x", "s")) else f"{word}s"


def _which_part(song: SongState) -> str:
    names = ", ".join(t.name for t in song.tracks)
    return f"Which part? This song has {names}."
