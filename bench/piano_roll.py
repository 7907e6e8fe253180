"""Render a session's full-arrangement MIDI as a PNG piano roll, read as a DAW arrangement.

Run: .venv/bin/python bench/piano_roll.py SESSION_DIR [--out PNG] [--bars A-B]

One lane per track, top to bottom in the file's order: drums as a hit grid with the kit
voices named, pitched tracks on a pitch axis (C of each octave labelled). Sections from
the SMF markers are shaded bands labelled with name and length (repeats share a shade);
every bar has a line and every 4th a stronger one; a note's opacity is its velocity; a
lead's recurring two-bar units are outlined and lettered A, A', B… (the studio roll's
marks, from `compose.melody.recurrence`; a unit heard once has none). Bars
count from 1, as MPC Beats shows them. Needs matplotlib (a dev extra).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import PatchCollection  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from pretty_midi import program_to_instrument_name  # noqa: E402

from bench.listening.heard import HeardSong, HeardTrack, read_session  # noqa: E402
from muse_tui.compose.melody.recurrence import Span, find_motifs  # noqa: E402
from muse_tui.theory.drums import DRUM_NAMES  # noqa: E402

# One colour per lane, in order; distinct on white and readable at low opacity.
LANE_COLOURS = (
    "#c0392b", "#2471a3", "#7d3c98", "#d68910", "#17a589", "#2e4053", "#a04000", "#1e8449",
)  # fmt: skip
#: Motif colours, A first (as the studio roll's): an outline and a letter per occurrence.
MOTIF_COLOURS = ("#1f77b4", "#e67e22", "#8e44ad", "#27ae60", "#c0392b")
SECTION_SHADES = ("#f4f6f7", "#eaf2f8", "#fef9e7", "#f5eef8", "#e9f7ef", "#fdedec")
NOTE_NAMES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")


def bar_range(text: str | None, total_bars: int) -> tuple[int, int]:
    """(first bar from 0, end bar exclusive) from "A-B" counted from 1, inclusive."""
    if not text:
        return 0, total_bars
    try:
        first, last = (int(part) for part in text.split("-"))
    except ValueError:
        raise SystemExit(f"--bars {text!r}: give two bar numbers like 9-24.") from None
    if not 1 <= first <= last:
        raise SystemExit(f"--bars {text!r}: the first bar is 1 and A must not be after B.")
    return first - 1, min(last, total_bars)


def velocity_alpha(velocity: int) -> float:
    """Opacity for a velocity: ghost notes faint, accents solid."""
    return 0.2 + 0.8 * (velocity / 127) ** 1.5


def lane_label(track: HeardTrack) -> str:
    """The lane's name, role and sound, as a producer checks that they agree."""
    role = f" · {track.role}" if track.role else ""
    if track.is_drums:
        return f"{track.name}{role}\n(drum kit, ch 10)"
    sound = program_to_instrument_name(track.program) if track.program is not None else "?"
    return f"{track.name}{role}\n{sound} (prog {track.program})"


def draw_drums(ax, track: HeardTrack, colour: str, bpb: float, lo: int, hi: int) -> None:
    """Each kit voice a row, kick at the bottom; each hit a short block."""
    voices = sorted({n.pitch for n in track.notes})
    row = {pitch: i for i, pitch in enumerate(voices)}
    # A 16th wide (a little gap so rolls read as separate hits), but never under ~2 px
    # on a whole-song view, or a lone crash on a section start disappears.
    hit = max(0.9 / (bpb * 4), (hi - lo) / 700)
    patches, alphas = [], []
    for n in track.notes:
        bar = n.start / bpb
        if lo <= bar < hi:
            patches.append(Rectangle((bar, row[n.pitch] - 0.38), hit, 0.76))
            alphas.append(velocity_alpha(n.velocity))
    collection = PatchCollection(patches, facecolor=colour, edgecolor="none", linewidth=0)
    collection.set_alpha(None)
    collection.set_facecolor([(*matplotlib.colors.to_rgb(colour), a) for a in alphas])
    ax.add_collection(collection)
    ax.set_ylim(-0.6, max(len(voices), 1) - 0.4)
    ax.set_yticks(range(len(voices)))
    ax.set_yticklabels([DRUM_NAMES.get(p, str(p)) for p in voices], fontsize=6.5)
    for i in range(len(voices)):
        ax.axhline(i + 0.5, color="#d5d8dc", linewidth=0.4, zorder=0)


def draw_pitched(ax, track: HeardTrack, colour: str, bpb: float, lo: int, hi: int) -> None:
    """Notes as bars on a pitch axis, the C of each octave labelled."""
    shown = [n for n in track.notes if lo <= n.start / bpb < hi]
    pitches = [n.pitch for n in shown] or [60]
    bottom, top = min(pitches) - 1, max(pitches) + 1
    patches = [Rectangle((n.start / bpb, n.pitch - 0.45), n.length / bpb, 0.9) for n in shown]
    rgb = matplotlib.colors.to_rgb(colour)
    collection = PatchCollection(patches, edgecolor="none", linewidth=0)
    collection.set_facecolor([(*rgb, velocity_alpha(n.velocity)) for n in shown])
    ax.add_collection(collection)
    ax.set_ylim(bottom - 0.5, top + 0.5)
    cs = [p for p in range(bottom, top + 1) if p % 12 == 0]
    step = 1 if len(cs) <= 3 else 2
    ax.set_yticks(cs[::step])
    ax.set_yticklabels([f"C{p // 12 - 1}" for p in cs[::step]], fontsize=6.5)
    for p in cs:
        ax.axhline(p - 0.5, color="#d5d8dc", linewidth=0.4, zorder=0)


def draw_motifs(ax, track: HeardTrack, song: HeardSong, lo: int, hi: int) -> None:
    """Outline each recurring two-bar unit of a lead and letter it (A, A', B…), coloured by motif.

    The units and letters are the studio roll's (`compose.melody.recurrence`): counted from
    each section's first bar, transposition-free, a unit heard once left unmarked.
    """
    bpb = song.beats_per_bar
    spans = [Span(s.start_bar * bpb, (s.start_bar + s.bars) * bpb) for s in song.sections]
    marks = find_motifs([(n.start, n.pitch) for n in track.notes], spans or [Span(0, 1e9)], bpb)
    families = list(dict.fromkeys(m.family for m in marks))
    bottom, top = ax.get_ylim()
    ax.set_ylim(bottom, top + 3)  # headroom so the letters never sit on notes
    for mark in marks:
        start, end = mark.start / bpb, mark.end / bpb
        if end <= lo or start >= hi:
            continue
        colour = MOTIF_COLOURS[families.index(mark.family) % len(MOTIF_COLOURS)]
        ax.add_patch(
            Rectangle(
                (start + 0.04, mark.low - 0.8), end - start - 0.08, mark.high - mark.low + 1.6,
                facecolor=(*matplotlib.colors.to_rgb(colour), 0.12), edgecolor=colour,
                linewidth=1.0, zorder=2,
            )
        )  # fmt: skip
        ax.text(
            start + 0.1, mark.high + 1.0, mark.letter, ha="left", va="bottom",
            fontsize=7.5, fontweight="bold", color=colour, zorder=4,
        )  # fmt: skip


def lane_height(track: HeardTrack) -> float:
    """Relative lane height: drums by voice count, pitched by the range they cover."""
    if track.is_drums:
        return max(1.0, len({n.pitch for n in track.notes}) * 0.28)
    if not track.notes:
        return 0.6
    span = max(n.pitch for n in track.notes) - min(n.pitch for n in track.notes)
    return min(3.0, max(0.9, span / 12))


def draw_grid(ax, song: HeardSong, lo: int, hi: int, label_sections: bool) -> None:
    """Section bands (labelled on the top lane), bar lines, stronger every 4 bars."""
    shade_of: dict[str, str] = {}  # repeats share a shade, so the form reads as A B A B
    for s in song.sections:
        shade = shade_of.setdefault(s.base, SECTION_SHADES[len(shade_of) % len(SECTION_SHADES)])
        start, end = max(s.start_bar, lo), min(s.start_bar + s.bars, hi)
        if start >= end:
            continue
        ax.axvspan(start, end, color=shade, zorder=-2)
        ax.axvline(s.start_bar, color="#1b2631", linewidth=1.2, zorder=3)
        if label_sections:
            ax.text(
                (start + end) / 2,
                1.02,
                f"{s.name} · {s.bars}",
                transform=ax.get_xaxis_transform(),
                ha="center",
                va="bottom",
                fontsize=8,
                fontweight="bold",
                clip_on=False,
            )
    for bar in range(lo, hi + 1):
        strong = bar % 4 == 0  # bars 1, 5, 9… as MPC Beats numbers them
        ax.axvline(
            bar,
            color="#909497" if strong else "#d5d8dc",
            linewidth=0.6 if strong else 0.3,
            zorder=-1,
        )


def render(song: HeardSong, out: Path, bars: str | None = None, title: str = "") -> Path:
    """Draw the song (or a bar range of it) to a PNG; returns the path."""
    lo, hi = bar_range(bars, song.total_bars)
    tracks = [t for t in song.tracks if t.notes] or song.tracks
    heights = [lane_height(t) for t in tracks]
    width = min(30.0, max(12.0, (hi - lo) * 0.22 + 2.5))
    fig, axes = plt.subplots(
        len(tracks),
        1,
        sharex=True,
        figsize=(width, 0.9 + sum(heights) * 1.05),
        gridspec_kw={"height_ratios": heights, "hspace": 0.08},
        squeeze=False,
    )
    for i, (ax, track) in enumerate(zip(axes[:, 0], tracks, strict=True)):
        colour = LANE_COLOURS[i % len(LANE_COLOURS)]
        draw_grid(ax, song, lo, hi, label_sections=i == 0)
        if track.is_drums:
            draw_drums(ax, track, colour, song.beats_per_bar, lo, hi)
        else:
            draw_pitched(ax, track, colour, song.beats_per_bar, lo, hi)
            if track.role == "lead":
                draw_motifs(ax, track, song, lo, hi)
        ax.set_ylabel(lane_label(track), rotation=0, ha="right", va="center", fontsize=8)
        ax.set_xlim(lo, hi)
        ax.tick_params(axis="x", length=0)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    bottom = axes[-1, 0]
    ticks = range(lo, hi + 1, 4 if hi - lo > 24 else 1)
    bottom.set_xticks(list(ticks))
    bottom.set_xticklabels([str(b + 1) for b in ticks], fontsize=7)
    bottom.set_xlabel("bar", fontsize=8)
    axes[0, 0].set_title(title, loc="left", fontsize=11, pad=18)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return out


def session_title(session_dir: Path, song: HeardSong) -> str:
    """Prompt, genre, tempo and key, as the title line."""
    import json

    state = session_dir / "state" / "song-state.json"
    prompt = json.loads(state.read_text()).get("title", "") if state.exists() else ""
    key = song.declared_key or "?"
    return f"{prompt}  —  {song.genre or '?'}, {song.tempo:.0f} BPM, {key}, {song.total_bars} bars"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "session", type=Path, help="a session folder (has midi/full-arrangement.mid)"
    )
    parser.add_argument("--out", type=Path, help="PNG path (default: SESSION/piano-roll.png)")
    parser.add_argument("--bars", help="only bars A-B, counted from 1 as MPC Beats does")
    args = parser.parse_args(argv)
    midi = args.session / "midi" / "full-arrangement.mid"
    if not midi.exists():
        raise SystemExit(f"{midi} does not exist: give a session folder that has been composed.")
    song = read_session(args.session)
    out = render(
        song,
        args.out or args.session / "piano-roll.png",
        args.bars,
        session_title(args.session, song),
    )
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
