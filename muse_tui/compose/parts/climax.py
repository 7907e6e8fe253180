"""A line's climax: the one high point a section's lead reaches, placed late in it.

Songwriting primers and melody studies agree that a phrase has one high point,
most often in its second half, after which it falls to the cadence (Huron,
*Sweet Anticipation*, on the arch; Perricone, *Melody in Songwriting*, on
placing the peak). A line that never leaves a fourth or so sounds like a
drone; where a section's lead spans less than `MIN_SPAN`, its first strong
note of the last two bars (the ending, before the cadence lands) rises to the
chord tone at least `MIN_SPAN` above the line's lowest note (a line already at
the top of its window dips as far below its highest instead).
"""

from __future__ import annotations

from ..humanize import Draft
from .context import PartContext

#: Semitones a section's line spans at least: a fifth and a half step, past a drone.
MIN_SPAN = 7
#: Bars from the section's end where the climax is placed: its ending, before the cadence.
ENDING_BARS = 2


def place_climax(notes: list[Draft], ctx: PartContext, low: int, high: int) -> list[Draft]:
    """`notes` (one line, in order) with a climax where the line is too flat to have one."""
    if len(notes) < 3:
        return notes
    lowest = min(n.pitch for n in notes)
    if max(n.pitch for n in notes) - lowest >= MIN_SPAN:
        return notes
    ending = max(0.0, ctx.length - ENDING_BARS * ctx.beats_per_bar)
    strong = [
        n for n in notes[:-1] if n.start >= ending and (n.start % 1 < 1e-6 or n.duration >= 1)
    ]
    if not strong:
        return notes
    peak = strong[0]
    tones = ctx.harmony.at(peak.start).tones
    lifted = next((p for p in range(lowest + MIN_SPAN, high + 1) if p % 12 in tones), None)
    if lifted is None:  # a line at the top of its window dips instead, as far below its top
        top = max(n.pitch for n in notes)
        lifted = next((p for p in range(top - MIN_SPAN, low - 1, -1) if p % 12 in tones), None)
    if lifted is not None:
        peak.pitch = lifted
    return notes
