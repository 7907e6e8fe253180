"""One note at a time: a wind or brass player (`monophonic` in `sound/instruments.json`).

A sax, a trumpet, a flute or a harmonica player breathes one line. Seated on a
harmony role (chords, keys, pad) they do not play the comping's block chords:
they hold the chord's guide tones, the third or the seventh (Levine, The Jazz
Theory Book, "guide tones"; the sustained "pad" a horn section lays under a
vocal), one held note per chord, each the nearest to the last so the line moves
by step or not at all. On any role, notes struck together keep the top one (the
melody) and a note stops where the next begins (`humanize.one_at_a_time` cuts
again after humanising, so timing never brings back an overlap).
"""

from __future__ import annotations

import statistics
from dataclasses import replace

from muse_tui.knowledge.arrangement import arrangement_table
from muse_tui.theory import fold_into

from ..humanize import Draft
from .context import PartContext, PartDraft
from .harmony import SoundingChord

#: Intervals over the root that make a guide tone: the third, then the seventh.
_GUIDE_INTERVALS = (3, 4, 10, 11)
#: Comping whose median note is this short (beats) is a stab rhythm.
_STAB = 0.5
#: The shortest gap between two stabs, in beats.
_STAB_GAP = 0.75
#: Where a one-voice line sits when it holds the harmony (G3-D5: sax, trumpet,
#: clarinet and harmonica all speak there).
_MIDDLE = (55, 74)
#: A breath between two held notes, in beats.
_BREATH = 0.125


def one_voice(ctx: PartContext, draft: PartDraft) -> PartDraft:
    """The draft as a one-voice player plays it: a guide-tone line on a harmony role,
    else its top line."""
    if not draft.notes:
        return draft
    if ctx.track.role in arrangement_table().role_groups["harmony"]:
        notes = _guide_tones(ctx, draft.notes)
    else:
        notes = _top_line(draft.notes)
    return PartDraft(notes, draft.control_changes, draft.pitch_bends, draft.feel)


def _guide_tones(ctx: PartContext, drafted: list[Draft]) -> list[Draft]:
    """One held note per chord the part plays under: the third or seventh nearest the last.

    Comping of short stabs (a funk or ska rhythm) keeps its rhythm: each stab is one
    guide tone, the answer a horn player plays between the vocal's phrases.
    """
    centre = fold_into(round(sum(n.pitch for n in drafted) / len(drafted)), *_MIDDLE)
    if statistics.median(n.duration for n in drafted) <= _STAB:
        return _stabs(ctx, drafted, centre)
    line: list[Draft] = []
    previous = centre
    for chord in ctx.harmony.chords:
        inside = [n for n in drafted if chord.start - 1e-6 <= n.start < chord.end - 1e-6]
        if not inside:
            continue  # the part rests under this chord: so does the player
        start = min(n.start for n in inside)
        end = min(max(n.end for n in inside), chord.end)
        pitch = _nearest(_guides(chord), previous, centre)
        velocity = sum(n.velocity for n in inside) / len(inside)
        length = max(end - start - _BREATH, _BREATH)
        if line and line[-1].pitch == pitch and start - line[-1].end <= 2 * _BREATH:
            last = line.pop()  # the same tone over the next chord: held on, not struck again
            start, velocity = last.start, last.velocity
            length = max(end - start - _BREATH, _BREATH)
        line.append(Draft(pitch, velocity, start, length, "guide"))
        previous = pitch
    return line


def _stabs(ctx: PartContext, drafted: list[Draft], centre: int) -> list[Draft]:
    """A stab rhythm thinned to at most one stab a `_STAB_GAP`, each one guide tone, an
    8th long where it has room: answers, not a second clavinet."""
    kept: list[Draft] = []
    for note in _top_line(drafted):
        if not kept or note.start - kept[-1].start >= _STAB_GAP:
            kept.append(note)
    line: list[Draft] = []
    previous = centre
    for note, after in zip(kept, [*kept[1:], None], strict=True):
        pitch = _nearest(_guides(ctx.harmony.at(note.start)), previous, centre)
        room = (after.start if after is not None else ctx.length) - note.start
        length = min(max(note.duration, _STAB / 2), room)
        line.append(replace(note, pitch=pitch, duration=length, voice="guide"))
        previous = pitch
    return line


def _guides(chord: SoundingChord) -> list[int]:
    """The chord's third and seventh (pitch classes), else all its tones."""
    tones = sorted(chord.tones)
    return [pc for pc in tones if (pc - chord.root_pc) % 12 in _GUIDE_INTERVALS] or tones


def _nearest(pitch_classes: list[int], previous: int, centre: int) -> int:
    """The pitch of those classes, inside `_MIDDLE`, nearest the last note, then nearest the
    part's centre (so the line never drifts out of the player's register)."""
    low, high = _MIDDLE
    return min(
        (p for pc in pitch_classes for p in range(low + (pc - low) % 12, high + 1, 12)),
        key=lambda p: (abs(p - previous), abs(p - centre)),
    )


def _top_line(drafted: list[Draft]) -> list[Draft]:
    """The highest of notes struck together, each cut where the next one starts."""
    tops: dict[float, Draft] = {}
    for note in drafted:
        onset = round(note.start, 4)
        if onset not in tops or note.pitch > tops[onset].pitch:
            tops[onset] = note
    line = [tops[onset] for onset in sorted(tops)]
    played: list[Draft] = []
    for note, after in zip(line, [*line[1:], None], strict=True):
        end = note.end if after is None else min(note.end, after.start)
        if end - note.start > 1e-6:
            played.append(replace(note, duration=end - note.start))
    return played
