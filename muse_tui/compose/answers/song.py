"""Answers about the open song, read from the session's record: key, chords, form, sounds, MPC.

Every answer is a pure function of the pipeline (and, for loading into MPC
Beats, the session's own `producer-notes.md`): asking never changes anything.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from muse_tui.compose.assembly import song_end_beat
from muse_tui.compose.harmony import song_key
from muse_tui.contracts import ComposerPipeline, PresetAssignment, SongState, Track
from muse_tui.knowledge.edit_words import edit_words
from muse_tui.theory import midi_to_name

from .shape import Answer

#: What the key's source means, in the producer's words.
_KEY_SOURCES = {
    "explicit": "you asked for it",
    "genre_convention": "it is a usual key for the genre",
    "mood_mapping": "it suits the mood you described",
    "random": "nothing in the prompt pointed to a key, so it was picked at random",
}
_QUICK_START = re.compile(r"^## Quick Start.*?$(.*?)(?=^## |\Z)", re.M | re.S)


def key(pipeline: ComposerPipeline) -> Answer:
    """The song's key and why it was chosen."""
    song = pipeline.song_state
    the_key = song_key(song)
    analysis = pipeline.intent.key_analysis if pipeline.intent else None
    why = ""
    if analysis is not None:
        why = _KEY_SOURCES.get(analysis.source, analysis.source)
        if analysis.reasoning and analysis.source != "explicit":
            why += f" ({analysis.reasoning.rstrip('.')})"
    tonic = song.progression.chords[0].symbol if song.progression else the_key.tonic_name
    text = f"The song is in {the_key.name}."
    if why:
        text += f" Why: {why}."
    text += (
        f" Its scale: {' '.join(the_key.note_names)}; the relative key is {the_key.relative.name}."
    )
    facts = {
        "key": the_key.name,
        "source": analysis.source if analysis else None,
        "why": why or None,
        "scale": list(the_key.note_names),
        "firstChord": tonic,
    }
    return Answer("key", text, facts)


def chords(pipeline: ComposerPipeline) -> Answer:
    """The progression: each chord with its Roman numeral, function and length."""
    song = pipeline.song_state
    progression = song.progression
    if progression is None:
        return Answer("chords", "This song has no chord progression yet.", {})
    rows = [
        {"chord": c.symbol, "numeral": c.roman, "function": c.function, "beats": c.beats}
        for c in progression.chords
    ]
    listed = " – ".join(f"{r['chord']} ({r['numeral']}, {r['function']})" for r in rows)
    bars = progression.total_beats / song.beats_per_bar
    kinds = dict.fromkeys(s.kind for s in song.arrangement.sections) if song.arrangement else {}
    own = {k: p for k, p in progression.sections.items() if k in kinds}
    text = f"In {song_key(song).name}: {listed}. The loop is {_count(bars, 'bar')} long"
    if own:
        main = [k.replace("_", "-") for k in kinds if k not in own] or ["intro"]
        text += f"; the {' and '.join(main)} play it, and "
        text += "; ".join(
            f"the {kind.replace('_', '-')} plays {' – '.join(c.symbol for c in p.chords)}"
            for kind, p in own.items()
        )
        text += "."
    else:
        text += " and the sections cycle it as the arrangement says."
    facts: dict[str, Any] = {"key": song_key(song).name, "chords": rows}
    if own:
        facts["sections"] = {k: [c.symbol for c in p.chords] for k, p in own.items()}
    return Answer("chords", text, facts)


def tempo(pipeline: ComposerPipeline) -> Answer:
    """The tempo and meter, beside the genre's usual range."""
    song = pipeline.song_state
    meter = song.meter
    text = f"{song.tempo:g} BPM in {meter.feel_words}."
    facts: dict[str, Any] = {
        "tempo": song.tempo,
        "timeSignature": meter.label,
        "grouping": "+".join(map(str, meter.grouping)),
    }
    changes = meter_changes(song)
    if changes:
        text += " " + " ".join(f"{name} is in {label}." for name, label in changes)
        facts["meterChanges"] = [{"section": name, "meter": label} for name, label in changes]
    dna = pipeline.intent.genre_dna if pipeline.intent else None
    if dna is not None:
        low, high = dna.tempo_range
        text += f" {dna.display_name} usually sits between {low:g} and {high:g} BPM."
        facts["genreRange"] = [low, high]
    return Answer("tempo", text, facts)


def meter_changes(song: SongState) -> list[tuple[str, str]]:
    """(section name, meter) of every section in a meter of its own."""
    if song.arrangement is None:
        return []
    return [(s.name, s.meter.label) for s in song.arrangement.sections if s.meter is not None]


def sections(pipeline: ComposerPipeline) -> Answer:
    """The form: each section's bars and who plays in it."""
    song = pipeline.song_state
    if song.arrangement is None:
        return Answer("sections", "This song has no arrangement yet.", {})
    rows = []
    for section in song.arrangement.sections:
        playing = [
            t.name for t in song.tracks if _plays_in(t, song, section.start_bar, section.end_bar)
        ]
        rows.append(
            {
                "section": section.name,
                "bars": [section.start_bar + 1, section.end_bar],
                "energy": round(section.energy, 2),
                "playing": playing,
            }
        )
    lines = [
        f"{r['section']} (bars {r['bars'][0]}–{r['bars'][1]}): "
        + (", ".join(r["playing"]) or "silence")
        for r in rows
    ]
    total = song.arrangement.sections[-1].end_bar
    text = f"{_count(total, 'bar')} in {len(rows)} sections:\n" + "\n".join(lines)
    return Answer("sections", text, {"bars": total, "sections": rows})


def tracks(pipeline: ComposerPipeline, line: str = "") -> Answer:
    """The tracks: name, role, MIDI channel and how many notes each plays.

    A line naming tracks ("what's the 808 doing?") gets those tracks in detail:
    their register, how busy they are, and the sections they play in.
    """
    song = pipeline.song_state
    if named := _named_tracks(song, line):
        return _track_detail(song, named)
    rows = [
        {
            "track": t.name,
            "role": t.role,
            "channel": t.channel + 1,
            "notes": sum(len(r.notes) for r in t.regions),
            "muted": t.mute,
        }
        for t in song.tracks
    ]
    lines = [
        f"{r['track']} ({r['role']}, channel {r['channel']}): {r['notes']} notes"
        + (", muted" if r["muted"] else "")
        for r in rows
    ]
    return Answer("tracks", "\n".join(lines) or "This song has no tracks yet.", {"tracks": rows})


def sound(pipeline: ComposerPipeline, line: str) -> Answer:
    """The preset and effect chain of the track the line names (all tracks when it names none)."""
    song = pipeline.song_state
    named = _named_tracks(song, line)
    chosen = named or song.tracks
    assignments = _assignments(pipeline)
    rows, lines = [], []
    for track in chosen:
        assignment = assignments.get(track.id)
        preset = track.preset
        chain = [e.name for e in track.effect_chain.effects] if track.effect_chain else []
        row = {
            "track": track.name,
            "preset": preset.name if preset else None,
            "engine": preset.engine if preset else None,
            "why": assignment.reasoning if assignment else None,
            "effects": chain,
        }
        rows.append(row)
        where = f"{preset.name} ({preset.engine})" if preset else "no preset yet"
        line_text = f"{track.name}: {where}"
        if chain:
            line_text += f"; effects {' → '.join(chain)}"
        if row["why"] and named:
            line_text += f". Why: {str(row['why']).rstrip('.')}"
        lines.append(line_text + ".")
    return Answer("sound", "\n".join(lines) or "This song has no tracks yet.", {"tracks": rows})


def mpc(pipeline: ComposerPipeline, session_dir: Path | None) -> Answer:
    """How to load this session into MPC Beats: the steps its producer notes give."""
    notes = session_dir / "notes" / "producer-notes.md" if session_dir else None
    steps = ""
    if notes is not None and notes.is_file():
        found = _QUICK_START.search(notes.read_text(encoding="utf-8", errors="replace"))
        steps = found.group(1).strip().replace("**", "") if found else ""
    if not steps:
        steps = (
            "1. Open MPC Beats and start a new project.\n"
            f"2. Set the tempo to {pipeline.song_state.tempo:g} BPM.\n"
            "3. Drag `midi/full-arrangement.mid` (or one file of `midi/` per track) onto the "
            "tracks.\n4. Load the preset each track's notes suggest."
        )
    where = f" (from {notes})" if notes is not None and notes.is_file() else ""
    return Answer("mpc", f"To load it in MPC Beats{where}:\n{steps}", {"steps": steps.splitlines()})


def _track_detail(song: SongState, named: list[Track]) -> Answer:
    rows, lines = [], []
    sections = song.arrangement.sections if song.arrangement else []
    for track in named:
        pitches = [n.pitch for r in track.regions for n in r.notes]
        bars = max(1, round(song_end_beat(song) / song.beats_per_bar))
        playing = [s.name for s in sections if _plays_in(track, song, s.start_bar, s.end_bar)]
        row: dict[str, Any] = {
            "track": track.name,
            "role": track.role,
            "notes": len(pitches),
            "notesPerBar": round(len(pitches) / bars, 1),
            "range": [midi_to_name(min(pitches)), midi_to_name(max(pitches))] if pitches else None,
            "sections": playing,
        }
        rows.append(row)
        if not pitches:
            lines.append(f"{track.name} plays nothing yet.")
            continue
        span = f"{row['range'][0]}–{row['range'][1]}"
        where = ", ".join(playing) or "no section"
        lines.append(
            f"{track.name} ({track.role}) plays {len(pitches)} notes, about "
            f"{row['notesPerBar']:g} a bar, between {span}, in {where}."
        )
    return Answer("tracks", "\n".join(lines), {"tracks": rows})


def _named_tracks(song: SongState, line: str) -> list[Track]:
    """The tracks the line names: by track name, by role, or by a part word ("bassline")."""
    lower = line.lower()
    roles = {role for word, role in edit_words().role_words.items() if _says(lower, word)}
    return [
        t
        for t in song.tracks
        if _says(lower, t.name.lower()) or _says(lower, t.role.replace("_", " ")) or t.role in roles
    ]


def _says(line: str, word: str) -> bool:
    return bool(re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", line))


def _assignments(pipeline: ComposerPipeline) -> dict[str, PresetAssignment]:
    record = pipeline.stages.get(5)
    output = record.output if record else None
    presets = getattr(output, "presets", None) or []
    return {a.track_id: a for a in presets}


def _plays_in(track: Track, song: SongState, start_bar: int, end_bar: int) -> bool:
    begin, end = song.bar_beat(start_bar), song.bar_beat(end_bar)
    return not track.mute and any(
        r.notes and r.start_beat < end and r.end_beat > begin for r in track.regions
    )


def _count(amount: float, unit: str) -> str:
    return f"{amount:g} {unit}" + ("" if amount == 1 else "s")
