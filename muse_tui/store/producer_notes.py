"""The session's notes in Markdown: producer notes, sounds, effect chains, arrangement map.

These functions only format what they are given; every choice was made upstream.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from muse_tui.contracts import EffectChain, PresetAssignment, Section

PRESETS_FILE = "notes/preset-assignments.md"
EFFECTS_FILE = "notes/effect-chains.md"
ARRANGEMENT_FILE = "notes/arrangement-map.md"
PRODUCER_NOTES_FILE = "notes/producer-notes.md"


@dataclass(frozen=True)
class TrackSheet:
    """One track as the notes describe it: what to load and which file to import."""

    track_id: str
    number: int
    name: str
    role: str
    channel: int
    midi_file: str
    engine: str | None = None
    patch: str | None = None
    effects: list[str] = field(default_factory=list)
    #: How the instrument is played ("walking quarter notes"), from the instrument table.
    idiom: str | None = None


@dataclass(frozen=True)
class SessionSheet:
    """Everything the notes say about a session, already decided."""

    title: str
    prompt: str
    genre: str
    key: str
    tempo: float
    time_signature: tuple[int, int]
    bars: int
    tracks: list[TrackSheet]
    sections: list[Section]
    chords: list[str]
    files: list[tuple[str, str]]
    full_arrangement: str | None = None
    progression_file: str | None = None
    #: (section kind, chords) where a kind plays chords of its own (a verse, a bridge).
    section_chords: list[tuple[str, list[str]]] = field(default_factory=list)
    #: How the meter is counted where it is not plain ("7/8, felt in three (2+2+3)").
    meter_words: str = ""
    #: (first bar from 1, section, meter) where a section changes the meter.
    meter_changes: list[tuple[int, str, str]] = field(default_factory=list)
    #: The folder of MPC patterns (a track in a section each), if any were written.
    patterns_dir: str | None = None
    #: (pad, drum, General MIDI note, note on the MPC pad) for each voice of the kit.
    pads: list[tuple[str, str, int, int]] = field(default_factory=list)
    #: The pad layout the drum patterns play ("MPC pads (legacy layout)").
    pad_layout: str = ""


def producer_notes(sheet: SessionSheet) -> str:
    """`producer-notes.md`: the session at a glance, an MPC Beats quick start, the files."""
    signature = sheet.meter_words or "/".join(str(n) for n in sheet.time_signature)
    lines = [
        f"# Session: {_line(sheet.title or sheet.prompt) or 'untitled'}",
        "",
        f"**Prompt**: {_line(sheet.prompt) or '—'}",
        "",
        f"**Genre**: {_line(sheet.genre) or '—'} | **Key**: {_line(sheet.key)} | "
        f"**Tempo**: {sheet.tempo:g} BPM | **Time**: {signature} | **Bars**: {sheet.bars}",
        "",
    ]
    if sheet.chords:
        heading = "**Chords**" if not sheet.section_chords else "**Chords** (chorus, hook, drop)"
        lines += [f"{heading}: {' | '.join(_line(c) for c in sheet.chords)}", ""]
        for kind, chords in sheet.section_chords:
            name = kind.replace("_", "-").capitalize()
            lines += [f"**{name}**: {' | '.join(_line(c) for c in chords)}", ""]
    lines += ["## Quick Start — MPC Beats Setup", "", *_quick_start(sheet), ""]
    lines += [*_pad_table(sheet), "## Files", ""]
    lines += _table(["File", "What it is"], [[f"`{p}`", d] for p, d in sheet.files])
    return "\n".join(lines) + "\n"


def preset_assignments(sheet: SessionSheet, presets: Sequence[PresetAssignment]) -> str:
    """`preset-assignments.md`: the sound for each track, why, and what else would work."""
    by_track = {p.track_id: p for p in presets}
    lines = ["# Preset Assignments", ""]
    for track in sheet.tracks:
        lines += [f"## Track {track.number}: {_line(track.name)} ({track.role})", ""]
        chosen = by_track.get(track.track_id)
        if chosen is None and track.engine is None:
            lines += ["No sound was chosen: load any patch that suits the part.", ""]
            continue
        if chosen is None:
            lines += [
                f"- **Engine**: {_line(track.engine or '')}",
                f"- **Patch**: {_line(track.patch or '')}",
                "",
            ]
            continue
        preset = chosen.preset
        lines += [
            f"- **Engine**: {_line(preset.engine)}",
            f"- **Patch**: {_line(preset.name)} ({_line(preset.category)}; {_line(preset.source)})",
            f"- **Confidence**: {chosen.confidence:.0%}",
            f"- **Why**: {_line(chosen.reasoning)}",
        ]
        if preset.gm_program is not None:
            lines.append(f"- **General MIDI stand-in**: program {preset.gm_program + 1}")
        if chosen.alternatives:
            lines.append("- **Alternatives**:")
            lines += [f"  - {_line(a.engine)} → {_line(a.name)}" for a in chosen.alternatives]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def effect_chains(chains: Sequence[tuple[str, EffectChain]]) -> str:
    """`effect-chains.md`: the inserts of each track and bus, in signal order, and the sends."""
    lines = ["# Effect Chains", ""]
    if not chains:
        lines += ["No effect chains were chosen for this session.", ""]
    for label, chain in chains:
        lines += [f"## {_line(label)}", ""]
        active = [e for e in chain.effects if not e.bypass]
        if not active:
            lines.append("No insert effects.")
        for number, effect in enumerate(active, start=1):
            settings = ", ".join(f"{_line(k)} {_value(v)}" for k, v in effect.parameters.items())
            tail = f": {settings}" if settings else ""
            lines.append(f"{number}. **{_line(effect.name)}** ({_line(effect.kind)}){tail}")
        if chain.sends:
            sends = ", ".join(f"{_line(bus)} {amount:.0%}" for bus, amount in chain.sends.items())
            lines += ["", f"Sends: {sends}"]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def arrangement_map(sheet: SessionSheet) -> str:
    """`arrangement-map.md`: every section with its bars, energy, who plays and the transition."""
    lines = ["# Arrangement Map", ""]
    if not sheet.sections:
        return (
            "\n".join([*lines, "This session has no arrangement: every track plays throughout."])
            + "\n"
        )
    rows = []
    for number, section in enumerate(sheet.sections, start=1):
        rows.append(
            [
                str(number),
                section.name,
                f"{section.start_bar + 1}–{section.end_bar}",
                str(section.bars) + (f" in {section.meter.label}" if section.meter else ""),
                f"{section.energy:.0%}",
                ", ".join(section.active_roles) or "nobody",
                section.transition.replace("_", " "),
            ]
        )
    header = ["#", "Section", "Bars", "Length", "Energy", "Playing", "Transition out"]
    lines += _table(header, rows)
    lines += ["", "Bars count from 1, as MPC Beats shows them."]
    return "\n".join(lines) + "\n"


def _quick_start(sheet: SessionSheet) -> list[str]:
    steps = [
        "Open MPC Beats and start a new project.",
        f"Set the tempo to **{sheet.tempo:g} BPM**"
        + (
            "."
            if sheet.time_signature == (4, 4)
            else f" and the time signature to {sheet.time_signature[0]}/{sheet.time_signature[1]}."
        ),
    ]
    for bar, name, label in sheet.meter_changes:
        steps.append(
            f"At bar {bar} ({_line(name)}) the meter changes to {label}; the MIDI file carries"
            " the change. If your sequence holds one meter, split the song into one sequence"
            " per meter there."
        )
    tracks = [f"Create {len(sheet.tracks)} tracks:"]
    for track in sheet.tracks:
        if track.engine:
            sound = f'load {_line(track.engine)} → preset "{_line(track.patch or "")}"'
        else:
            sound = f"load any {track.role.replace('_', ' ')} sound you like"
        played = f" Played as: {_line(track.idiom)}." if track.idiom else ""
        tracks.append(
            f"   - **Track {track.number} — {_line(track.name)} ({track.role})**: {sound}, "
            f"MIDI channel {track.channel + 1}. Import `{track.midi_file}`.{played}"
        )
    steps.append("\n".join(tracks))
    if sheet.full_arrangement:
        steps.append(f"Or import `{sheet.full_arrangement}` to get every track at once.")
    steps.append("Apply the effect chains in `notes/effect-chains.md`.")
    if sheet.sections:
        marks = ", ".join(f"{_line(s.name)} at bar {s.start_bar + 1}" for s in sheet.sections)
        steps.append(f"Set section markers ({marks}); see `notes/arrangement-map.md`.")
    if sheet.progression_file:
        steps.append(
            f"Copy `{sheet.progression_file}` into MPC Beats' Progressions folder to play the "
            "chords from the pads (Pad Perform → Progressions)."
        )
    if sheet.patterns_dir:
        steps.append(
            f"To build the song from patterns instead, load the files of `{sheet.patterns_dir}/`"
            " onto their tracks from the browser (one per track and section, numbered in song"
            " order). Put each drum sound on the pad the table below names: the drum patterns"
            " play those pads."
        )
    return [f"{n}. {step}" for n, step in enumerate(steps, start=1)]


def _pad_table(sheet: SessionSheet) -> list[str]:
    if not sheet.pads:
        return []
    rows = [[pad, _line(name), str(gm), str(note)] for pad, name, gm, note in sheet.pads]
    return [
        "## Drum Pads",
        "",
        f"Where each drum goes on an MPC drum program, as the drum patterns play it "
        f"({_line(sheet.pad_layout)}; change it with `drum_map` in the settings or "
        "`compose --drum-map`). The MIDI files keep General MIDI notes for other DAWs.",
        "",
        *_table(["On pad", "Drum", "General MIDI note", "MPC note"], rows),
        "",
    ]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def _cell(text: str) -> str:
    return _line(text).replace("|", "\\|")


def _line(text: str) -> str:
    """User text on one line: newlines would break headings, lists and tables."""
    return " ".join(str(text).split())


def _value(value: object) -> str:
    return _line(str(value)) if not isinstance(value, float) else f"{value:g}"
