"""The devices a repeat develops a part with, on its last phrase (or, for a fourth or fifth
statement, the whole section): each moves notes along the chords already sounding.

`Phrase` holds where the developed bars are, their chords and the part's register;
`DEVICES` names each device of `skills/melody/development.json` by its method.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

from muse_tui.knowledge.development import Device
from muse_tui.knowledge.melody import melody_table
from muse_tui.theory import fold_into

from ..humanize import Draft
from .bass import bass_style_for
from .context import PartContext
from .harmony import directed_tone, keeps_direction, nearest_pitch
from .lead import lead_style, lead_window

#: Bars of the phrase a repeat develops: its last four.
PHRASE_BARS = 4
#: Bars of a line's ending, which a repeat may re-pitch and still bring its motif back whole.
ENDING_BARS = 2
#: The most a lead spans over the song, its lifts included: an octave and a fifth.
SINGABLE = 19
#: Transitions that end a section on silence or a fade: no fill walks into the next one.
_NO_FILL = frozenset({"cut", "fade"})
#: From this harmonic dial an approach note is chromatic; below it, a scale step.
_CHROMATIC_DIAL = 0.3
_EIGHTH = 0.5
#: A pad keeps two or three notes, leaving the middle to the keys.
_PAD_MOST = 3
#: How long a strummed chord takes to sound all its strings, in beats.
_STRUM = 0.2
_GAP = 0.05
_NEAR = 1e-6

Notes = list[Draft]


class Phrase:
    """The last phrase of one section of one part: where it is, its chords, its register."""

    def __init__(self, ctx: PartContext, *, whole: bool = False) -> None:
        self.ctx = ctx
        self.harmony = ctx.harmony
        self.bar = ctx.beats_per_bar
        self.first_bar = 0 if whole else max(0, ctx.bars - PHRASE_BARS)
        self.begin = self.first_bar * self.bar
        self.ending = max(0, ctx.bars - ENDING_BARS) * self.bar
        self.end = ctx.length
        self.low, self.high = ctx.pitch_range
        bass = ctx.track.role in ("bass", "sub_bass")
        style = ctx.table.bass[bass_style_for(ctx)] if bass else None  # type: ignore[index]
        self.kick_locked = bool(style and style.kick_locked)
        #: A pedal bass (one-note techno) stays on its note: only its octaves develop.
        self.pedal = bool(style and style.pedal)

    def inside(self, note: Draft) -> bool:
        return self.begin - _NEAR <= note.start < self.end - _NEAR

    def on_change(self, when: float) -> bool:
        """Whether a chord starts at `when` (its root is the part's anchor there)."""
        return abs(self.harmony.at(when).start - when) < _NEAR

    def fold(self, pitch: int) -> int:
        while pitch < self.low:
            pitch += 12
        while pitch > self.high:
            pitch -= 12
        return pitch

    # ── bass ─────────────────────────────────────────────────────────────────────────────

    def approach(self, notes: Notes) -> Notes:
        """Into every other chord change (counted back from the phrase's end), a step under or
        over the next chord's bass, on the last weak note before it (none under a pedal)."""
        if self.pedal:
            return notes
        changes = [c.start for c in self.harmony.chords if self.begin < c.start <= self.end]
        if not self.ctx.leads_on:
            changes = [t for t in changes if t < self.end - _NEAR]
        added: Notes = []
        for when in changes[::-1][::2]:
            before = [n for n in notes if when - self.bar <= n.start < when - _NEAR]
            if not before:
                continue
            last = max(before, key=lambda n: (n.start, -n.pitch))
            goal = self._approach_pitch(last.pitch, when)
            if not self.on_change(last.start) and when - last.start <= 1 + _NEAR:
                last.pitch = goal
            elif self.kick_locked:  # a bass on the kicks adds no onset of its own
                continue
            elif when - last.start >= 1 - _NEAR and last.end > when - _EIGHTH:
                last.duration = max(0.1, when - _EIGHTH - last.start - _GAP)
                added.append(
                    Draft(goal, last.velocity * 0.85, when - _EIGHTH, _EIGHTH - _GAP, last.voice)
                )
        return [*notes, *added]

    def _approach_pitch(self, near: int, when: float) -> int:
        target = nearest_pitch(near, {self.harmony.at(when).bass_pc}, self.low, self.high)
        if self.ctx.style.harmonic >= _CHROMATIC_DIAL and target - 1 >= self.low:
            return target - 1
        below = self.harmony.step(target, -1)
        return below if below >= self.low else self.harmony.step(target, 1)

    def octave(self, notes: Notes, every: int = 2) -> Notes:
        """Every `every`-th weak note of the phrase an octave up (down where there is no room);
        notes on a chord change keep their pitch."""
        weak = sorted(
            (n for n in notes if self.inside(n) and not self.on_change(n.start)),
            key=lambda n: n.start,
        )
        if not weak and every == 1:  # nothing weak at all: the whole phrase moves instead
            return self.register(notes)
        for index, note in enumerate(weak):
            if index % every == every - 1:
                note.pitch = _leap(note.pitch, self.low, self.high)
        return notes

    def fill(self, notes: Notes) -> Notes:
        """The section's last two beats walk up the scale in 8ths to the next section's root
        (a pedal does not walk)."""
        if self.ctx.section.transition in _NO_FILL or not self.ctx.leads_on or self.pedal:
            return notes
        start = self.end - min(2.0, self.bar / 2)
        tail = [n for n in notes if n.start >= start - _NEAR]
        if not tail:
            return notes
        target = nearest_pitch(
            tail[0].pitch, {self.harmony.at(self.end).bass_pc}, self.low, self.high
        )
        if self.kick_locked:  # the notes on the kicks walk up; no onset is added
            tail.sort(key=lambda n: n.start)
            for number, note in enumerate(tail):
                note.pitch = self.fold(self.harmony.step(target, number - len(tail)))
            return notes
        kept = [n for n in notes if n.start < start - _NEAR]
        for note in kept:
            note.duration = min(note.duration, max(0.1, start - note.start - _GAP))
        count = round((self.end - start) / _EIGHTH)
        if self.harmony.step(target, -count) < self.low:
            target += 12 if target + 12 <= self.high else 0
        velocity = max(n.velocity for n in tail)
        walk = [
            Draft(
                self.fold(self.harmony.step(target, number - count)),
                velocity * (0.8 + 0.05 * number),
                start + number * _EIGHTH,
                _EIGHTH - _GAP,
                tail[0].voice,
            )
            for number in range(count)
        ]
        return [*kept, *walk]

    # ── comping and pads ─────────────────────────────────────────────────────────────────

    def anticipate(self, notes: Notes) -> Notes:
        """The chord on every other bar line of the phrase struck an 8th early: in 4/4 and cut
        time only, where the push leans on a regular pulse; in a waltz, a compound or an odd
        meter it would blur the groups the listener counts the bar by."""
        if self.ctx.meter_groove is not None:
            return notes
        for bar in range(max(1, self.first_bar + 1), self.ctx.bars, 2):
            line = bar * self.bar
            chord = [n for n in notes if line - _NEAR <= n.start < line + _STRUM]  # a strum too
            push = line - _EIGHTH
            if not chord or any(push - _NEAR <= n.start < push + _STRUM for n in notes):
                continue
            notes = [n for n in notes if not push < n.start < line - _NEAR]
            for note in notes:
                if note.start < push and note.end > push - _GAP:
                    note.duration = max(0.1, push - note.start - _GAP)
            for note in chord:
                note.start, note.duration = push, note.duration + _EIGHTH
        return notes

    def inversion(self, notes: Notes) -> Notes:
        """Each chord of the phrase with its upper voices in their next inversion over the same
        lowest note: the hand above moves up, the root the chord stands on stays (a keys part
        whose tonic lost its root was heard in another key). Where the register has no room
        up, the top voice drops under the others instead, still above the lowest note. A power
        chord has no inversion: its whole shape moves up an octave where there is room."""
        for chord in self._chords(notes):
            chord.sort(key=lambda n: n.pitch)
            bottom, upper = chord[0], chord[1:]
            if _is_power_chord(chord):
                if chord[-1].pitch + 12 <= self.high:
                    for note in chord:
                        note.pitch += 12
                continue
            lowest, top = upper[0], upper[-1]
            octaves = 12 * ((top.pitch - lowest.pitch) // 12 + 1)
            if lowest.pitch + octaves <= self.high:
                lowest.pitch += octaves
            elif len(upper) >= 2 and top.pitch - octaves > bottom.pitch:
                top.pitch -= octaves
        return notes

    def double_top(self, notes: Notes) -> Notes:
        """Each chord of the phrase fuller: its top note doubled an octave up (or its lowest an
        octave down where the top has no room). A pad already holding its most notes opens
        instead: its top voice lifts an octave, so it stays thin beside the keys."""
        added: Notes = []
        most = _PAD_MOST if self.ctx.track.role == "pad" else None
        for chord in self._chords(notes):
            top = max(chord, key=lambda n: n.pitch)
            bottom = min(chord, key=lambda n: n.pitch)
            if most is not None and len(chord) >= most:
                if top.pitch + 12 <= self.high:
                    top.pitch += 12
            elif top.pitch + 12 <= self.high:
                added.append(replace(top, pitch=top.pitch + 12, velocity=top.velocity * 0.85))
            elif bottom.pitch - 12 >= self.low:
                added.append(
                    replace(bottom, pitch=bottom.pitch - 12, velocity=bottom.velocity * 0.85)
                )
        return [*notes, *added]

    def _chords(self, notes: Notes) -> list[Notes]:
        """The phrase's notes struck together (two or more, a strum's spread included)."""
        chords: list[Notes] = []
        for note in sorted((n for n in notes if self.inside(n)), key=lambda n: n.start):
            if chords and note.start - chords[-1][0].start < _STRUM:
                chords[-1].append(note)
            else:
                chords.append([note])
        return [chord for chord in chords if len(chord) >= 2]

    # ── lines ────────────────────────────────────────────────────────────────────────────

    def register(self, notes: Notes) -> Notes:
        """The phrase an octave up, or down where the register has no room."""
        phrase = [n for n in notes if self.inside(n)]
        if not phrase:
            return notes
        shift = 12 if max(n.pitch for n in phrase) + 12 <= self.high else -12
        if min(n.pitch for n in phrase) + shift < self.low:
            return notes
        for note in phrase:
            note.pitch += shift
        return notes

    def third_up(self, notes: Notes) -> Notes:
        """The line's ending a third up the scale (down where the line has no room): the motif
        itself comes back whole."""

        def third(pitch: int, high: int) -> int:
            up = self.harmony.step(pitch, 2)
            return up if up <= high else self.harmony.step(pitch, -2)

        return self._repitch(notes, third)

    def invert(self, notes: Notes) -> Notes:
        """The line's ending turned upside down around its first note, in scale steps (the
        answer that mirrors the question), in the same rhythm."""
        ending = sorted((n for n in notes if self._in_ending(n)), key=lambda n: n.start)
        if not ending:
            return notes
        pivot = self.harmony.snap(ending[0].pitch)
        return self._repitch(
            notes, lambda pitch, _: self.harmony.step(pivot, -self._steps(pivot, pitch))
        )

    def _repitch(self, notes: Notes, move: Callable[[int, int], int]) -> Notes:
        """Each note of the line's ending moved by `move(pitch, window top)`, into the lead's
        window; notes on the beat, held, or before a breath land on the chord."""
        low, high = self._lead_window()
        ending = sorted((n for n in notes if self._in_ending(n)), key=lambda n: n.start)
        before: int | None = None  # the line as re-pitched, and as `move` meant it, a note ago
        meant_before: int | None = None
        for note, after in zip(ending, [*ending[1:], None], strict=False):
            meant = fold_into(move(note.pitch, high), low, high)
            rise = 0 if meant_before is None else (meant > meant_before) - (meant < meant_before)
            pitch = meant
            room = (after.start if after else self.end) - note.end
            if abs(note.start - round(note.start)) < _NEAR or note.duration >= 1 or room >= 0.75:
                tones = self.harmony.at(note.start).tones
                near = nearest_pitch(pitch, tones, low, high)
                pitch = directed_tone([near], pitch, tones, before, rise, low, high)
            elif not keeps_direction(pitch, before, rise):  # a weak note a strong one passed
                pitch = fold_into(self.harmony.step(before, rise), low, high)  # type: ignore[arg-type]
            note.pitch = pitch
            before, meant_before = pitch, meant
        return notes

    def _steps(self, origin: int, pitch: int) -> int:
        """Scale steps from `origin` (a scale tone) up to `pitch` (negative: down)."""
        target = self.harmony.snap(pitch)
        direction = 1 if target > origin else -1
        steps, at = 0, origin
        while (target - at) * direction > 0 and abs(steps) < 24:
            at = self.harmony.step(at, direction)
            steps += direction
        return steps

    def octave_up(self, notes: Notes) -> Notes:
        """The last phrase an octave up where the instrument sings there, else its ending, else
        the ending a fifth up the scale: the last time round climbs."""
        low, high = self._lead_window()
        sings = melody_table().register_for(self.ctx.track.program)[1]
        ceiling = min(max(sings, high), low + SINGABLE, self.high)
        for part in (self.inside, self._in_ending):
            phrase = [n for n in notes if part(n)]
            if phrase and max(n.pitch for n in phrase) + 12 <= ceiling:
                for note in phrase:
                    note.pitch += 12
                return notes

        def climb(
            pitch: int, top: int
        ) -> int:  # a fifth up the scale, else a third, as room allows
            return next(
                (p for p in (self.harmony.step(pitch, s) for s in (4, 2)) if p <= top), pitch
            )

        return self._repitch(notes, climb)

    def passing(self, notes: Notes) -> Notes:
        """A scale passing note an 8th before each note of the ending a third or more from the one
        before it, where that note leaves a beat of room."""
        phrase = sorted((n for n in notes if self._in_ending(n)), key=lambda n: n.start)
        added: Notes = []
        for before, after in pairwise(phrase):
            when = after.start - _EIGHTH
            if after.start - before.start < 1 - _NEAR or abs(after.pitch - before.pitch) < 3:
                continue
            toward = 1 if before.pitch > after.pitch else -1
            before.duration = min(before.duration, max(0.1, when - before.start - _GAP))
            pitch = self.harmony.step(after.pitch, toward)
            added.append(
                replace(
                    after,
                    pitch=pitch,
                    start=when,
                    duration=_EIGHTH - _GAP,
                    velocity=after.velocity * 0.85,
                    locked=False,
                )
            )
        return [*notes, *added]

    def _in_ending(self, note: Draft) -> bool:
        return self.ending - _NEAR <= note.start < self.end - _NEAR

    def _lead_window(self) -> tuple[int, int]:
        return lead_window(self.ctx, lead_style(self.ctx))


DEVICES: dict[Device, Callable[[Phrase, Notes], Notes]] = {
    "approach": Phrase.approach,
    "octave": Phrase.octave,
    "fill": Phrase.fill,
    "anticipate": Phrase.anticipate,
    "inversion": Phrase.inversion,
    "double_top": Phrase.double_top,
    "register": Phrase.register,
    "third_up": Phrase.third_up,
    "octave_up": Phrase.octave_up,
    "invert": Phrase.invert,
    "passing": Phrase.passing,
}


def _is_power_chord(chord: Notes) -> bool:
    """Only roots and fifths (a rock guitar's shape): no third to invert."""
    return all((n.pitch - chord[0].pitch) % 12 in (0, 7) for n in chord)


def _leap(pitch: int, low: int, high: int) -> int:
    return pitch + 12 if pitch + 12 <= high else pitch - 12 if pitch - 12 >= low else pitch
