"""Harmonic rhythm: "faster chord changes" plays the same chords twice as often, "slower" half.

Every chord of the progression the scope plays lasts half (or twice) as long, so
the progression cycles twice as fast and the chord changes per bar double; the
chords, their order and the key stay. No chord gets shorter than half a bar nor
longer than two bars (a harmonic rhythm a band can play). A named section kind
("in the choruses") gets the faster chords as its own (`EnrichedProgression.sections`);
the parts that follow the chords are written again from them, the drums are not.
"""

from __future__ import annotations

from muse_tui.compose.requests import Edit
from muse_tui.contracts import EnrichedProgression

from .chord_edits import progression_changed
from .revision import EditError, Revision
from .section_edits import check_section

OPERATIONS = {"faster_changes": 0.5, "slower_changes": 2.0}
#: The shortest and the longest chord, in bars.
BARS_PER_CHORD = (0.5, 2.0)


def handles(edit: Edit) -> bool:
    return edit.operation in OPERATIONS


def apply(revision: Revision, edit: Edit) -> Revision:
    revision = revision.fork()
    song = revision.song
    progression = song.progression
    if progression is None:
        raise EditError("the song has no progression yet.")
    factor = OPERATIONS[edit.operation]
    bar = song.beats_per_bar
    kind = edit.scope.section
    if kind is None:
        own = {k: _paced(p, factor, bar) for k, p in progression.sections.items()}
        new = _paced(progression, factor, bar).model_copy(update={"sections": own})
        where = ""
    else:
        check_section(song, kind)
        kinds = {s.harmony_kind for s in song.arrangement.sections if s.kind == kind}  # type: ignore[union-attr]
        sections = dict(progression.sections)
        for harmony in kinds:
            plays = progression.sections.get(harmony) or progression.model_copy(
                update={"sections": {}}
            )
            sections[harmony] = _paced(plays, factor, bar)
        new = progression.model_copy(update={"sections": sections})
        where = f" in the {kind.replace('_', '-')}"
    if new == progression:
        said = "half a bar" if factor < 1 else "two bars"
        raise EditError(f"the chords already change every {said}{where}.")
    progression_changed(revision, new)
    revision.aim("progression", "progression.chords", "adjust", edit=edit.operation)
    before, after = progression.chords[0].beats, _paced(progression, factor, bar).chords[0].beats
    speed = "Faster" if factor < 1 else "Slower"
    revision.sentences.append(
        f"{speed} chord changes{where}: a chord every {after / bar:g} bar (was {before / bar:g})."
    )
    return revision


def _paced(progression: EnrichedProgression, factor: float, bar: float) -> EnrichedProgression:
    """Every chord `factor` times as long, kept between half a bar and two bars."""
    shortest, longest = (bars * bar for bars in BARS_PER_CHORD)
    chords = [
        c.model_copy(update={"beats": _bounded(c.beats, c.beats * factor, shortest, longest)})
        for c in progression.chords
    ]
    return progression.model_copy(update={"chords": chords})


def _bounded(old: float, new: float, shortest: float, longest: float) -> float:
    """`new`, stopped at the bound it would pass (a chord already past it keeps its length)."""
    if new < old:
        return max(new, min(old, shortest))
    return min(new, max(old, longest))
