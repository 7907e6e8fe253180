"""Lead lines built from a motif: stated, repeated, developed and answered in 4-bar phrases.

A section's phrases each have a role (`skills/melody/phrases.json` `sections`):
an 8-bar section is a period whose answer varies a bar and closes; a 16-bar one
is a a' b a, its third phrase departing a third higher toward the section's
high point before the statement comes back to close it.

The genre picks a style (`skills/melody/styles.json`): rhythm cells, phrase
forms and contours. Everything the motif and the form are made of is drawn
from the RNG first, before anything about this particular section is read, so
every section of a kind (the engine seeds a part by its section kind) states
the same idea: every chorus brings back the same hook. Then the phrases are
laid on the chords: notes on the beat are chord tones, the ones between are
scale steps (chromatic or blue notes as the harmonic dial rises), repeats are
literal, and each phrase ends on a chord tone (the tonic or third at the end
of the section, another chord tone halfway, so the two halves answer). A
strong note goes to the chord tone the way the motif moves (`directed_tone`),
so a step never collapses into a repeated note.

A repeated section (the second verse, the third chorus) varies every phrase
(`phrases.json` `repeats`): a verse, bridge or solo re-sings its motif's rhythm
reshaped, mirrored or moved along the scale; a hook keeps its pitches and is
ornamented (`parts.ornaments`). `parts.development` then works the last phrase.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from muse_tui.knowledge.melody import BarMove, Contour, LeadStyle, Variation, melody_table
from muse_tui.theory import fold_into

from ..arrangement.repeats import section_repeat
from ..humanize import Draft
from ..melody.motif import Motif, cell_rhythm, make_motif, mirrored, reshaped
from ..melody.plan import HEIGHT, LOUDNESS, SectionPart, form_names, phrase_bars, section_part
from .climax import place_climax
from .context import PartContext, PartDraft
from .harmony import directed_tone, keeps_direction, nearest_pitch
from .ornaments import ornaments

#: Gap left between one note and the next, in beats: the lead plays one note at a time.
_BREATH = 0.05
#: Silence after a note, in beats, that makes it a phrase end: it must be a chord tone.
_PAUSE = 0.75
#: Semitones a statement's anchor leaves clear of the window's edges, for a chord tone past a step.
_MARGIN = 2
#: The harmonic dial from which a restated hook may rest on a tension at a phrase end.
_TENSION_DIAL = 0.3


@dataclass(frozen=True)
class _Idea:
    """Everything a section kind's lead is made of, drawn before the section is looked at."""

    style: LeadStyle
    part: SectionPart
    form: list[BarMove]
    ostinato: bool  # a riff the style repeats: its phrases vary a bar, never move away
    motif: Motif
    reshaped: Motif  # the motif's rhythm along another contour: a repeat's new pitches
    answers: tuple[list[tuple[float, float]], list[tuple[float, float]]]  # (halfway, final)
    sequence: int


def write_lead(ctx: PartContext, rng: random.Random) -> PartDraft:
    """The lead of one section: phrases of the section kind's motif, resolved on chord tones."""
    idea = _idea(ctx, rng)
    line = _Line(ctx, idea, rng)
    table = melody_table()
    phrases = phrase_bars(idea.form, ctx.bars)
    roles = table.sections.plan(len(phrases))
    ordinal = section_repeat(ctx.song, ctx.section).ordinal
    hook = idea.part == "hook"  # a hook keeps its statement's pitches
    for index, (form, role) in enumerate(zip(phrases, roles, strict=True)):
        final = index == len(phrases) - 1
        line.variation = table.repeats.variation(ordinal, index, hook=hook)
        line.lift = role.lift_for(ostinato=idea.ostinato) + line.variation_steps
        begin = index * 4 * ctx.beats_per_bar
        for offset, move in enumerate(role.moves(form, ostinato=idea.ostinato)):
            line.play(move, begin + offset * ctx.beats_per_bar, final=final)
        if line.variation is not None and line.variation.embellish_every:
            end = begin + len(form) * ctx.beats_per_bar
            variation = line.variation
            line.embellish(
                begin, end, every=variation.embellish_every, first=variation.embellish_from
            )
    if idea.style.pickups:
        line.add_pickups([i * 4 * ctx.beats_per_bar for i in range(1, len(phrases))])
    notes = place_climax(line.finished(), ctx, line.low, line.high)
    return PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.2))


def lead_style(ctx: PartContext) -> LeadStyle:
    """The genre's lead style: its genre id (and blend), a genre word, else its drum family."""
    dna = ctx.intent.genre_dna
    genres = [dna.genre, *dna.blend] if dna is not None else []
    words = [*ctx.intent.genre, *ctx.intent.sub_genre]
    style = melody_table().style_for(genres, words, ctx.style.family)
    groove = ctx.meter_groove
    if groove is not None and groove.lead is not None:  # the genre's line, in the meter's rhythm
        style = style.model_copy(
            update={"cells": groove.lead.cells, "answers": groove.lead.answers}
        )
    return style


def lead_window(ctx: PartContext, style: LeadStyle) -> tuple[int, int]:
    """The pitches the line may use: the instrument's singing register within the track's, cut to
    the style's span and set in the upper middle (above the comping's top voice)."""
    low, high = ctx.pitch_range
    sing_low, sing_high = melody_table().register_for(ctx.track.program)
    if min(high, sing_high) - max(low, sing_low) >= 12:
        low, high = max(low, sing_low), min(high, sing_high)
    span = min(style.span, high - low)
    bottom = round(low + (high - low) * 0.6 - span / 2)
    bottom = min(max(bottom, low), high - span)
    return bottom, bottom + span


def _idea(ctx: PartContext, rng: random.Random) -> _Idea:
    """The section kind's motif and form; reads nothing of the section but its kind."""
    table = melody_table()
    style = lead_style(ctx)
    part = section_part(ctx.section.kind)
    form = table.forms[rng.choice(form_names(part, style))]
    name = rng.choice(style.contours)
    motif = make_motif(style, table.contours[name], form.motif_bars, ctx.beats_per_bar, rng)
    halfway, final = (cell_rhythm([rng.choice(style.answers)], ctx.beats_per_bar) for _ in "hf")
    sequence = rng.choice(style.sequence_steps)
    other = _reshaped(motif, name, style.contours, table.contours)
    return _Idea(
        style, part, list(form.bars), form.ostinato, motif, other, (halfway, final), sequence
    )


def _reshaped(motif: Motif, name: str, style: list[str], every: dict[str, Contour]) -> Motif:
    """The motif's rhythm along the next contour after `name` that gives it other steps (the
    style's contours first, then the table's; a short motif may read two contours alike),
    else the motif mirrored: a repeat's new pitches on the same rhythm."""
    steps = [n.steps for n in motif.notes]
    after = style[style.index(name) + 1 :] + style[: style.index(name)] if name in style else []
    for other in [*after, *(c for c in every if c not in style)]:
        shaped = reshaped(motif, every[other])
        if [n.steps for n in shaped.notes] != steps:
            return shaped
    return mirrored(motif)


@dataclass
class _Line:
    """The lead of one section as it is laid down, bar by bar."""

    ctx: PartContext
    idea: _Idea
    rng: random.Random
    notes: list[Draft] = field(default_factory=list)
    statements: dict[tuple[str, int], tuple[float, list[Draft]]] = field(default_factory=dict)
    # (motif form, motif bar) → (where it was first stated, its notes there)
    kept: set[int] = field(default_factory=set)  # ids of restated notes kept as first stated
    lift: int = 0  # scale steps the phrase being laid moves its motif up (a departing phrase)
    variation: Variation | None = None  # how a repeated section's phrase being laid varies

    @property
    def _reach(self) -> tuple[int, int]:
        """Where a note put on the chord the way the line moves may land: the window and a
        margin either side, within the instrument's range (a step down from the window's
        lowest chord tone must not fold back onto it)."""
        low, high = self.ctx.pitch_range
        return max(low, self.low - _MARGIN), min(high, self.high + _MARGIN)

    @property
    def variation_steps(self) -> int:
        return self.variation.steps if self.variation is not None else 0

    def _motif(self) -> tuple[str, Motif]:
        """The motif the phrase being laid states: as drawn, or as its variation reshapes or
        mirrors it (the rhythm is the same)."""
        variation = self.variation
        if variation is not None and variation.reshape:
            motif, form = self.idea.reshaped, "reshaped"
        else:
            motif, form = self.idea.motif, "drawn"
        if variation is not None and variation.mirror:
            return f"{form} mirrored", mirrored(motif)
        return form, motif

    def __post_init__(self) -> None:
        self.low, self.high = lead_window(self.ctx, self.idea.style)
        self.bar = self.ctx.beats_per_bar
        self.last_of_kind = self._last_of_kind()
        key = self.ctx.harmony.key
        self._home = frozenset(key.degree_pc(d) for d in (1, 3, 5))

    # ── bar moves ────────────────────────────────────────────────────────────────────────

    def play(self, move: BarMove, start: float, *, final: bool) -> None:
        """Lay one bar of a phrase at `start` (beats from the section's start), its motif moved
        up by the phrase's `lift`."""
        lift = self.lift
        if move == "motif":
            index = round(start / self.bar) % self.idea.motif.bars
            self._motif_bar(index, start)
        elif move == "repeat":
            self._copy(self._bar_before(start), self.bar, literal=True)
        elif move == "echo":
            self._motif_bar(0, start)
        elif move == "sequence":
            self._copy(self._first_statement(start), 0.0, steps=self.idea.sequence + lift)
        elif move == "displace":
            self._copy(self._first_statement(start), 0.5, limit=start + self.bar, steps=lift)
        elif move == "fragment":
            half = [n for n in self._first_statement(start) if n.start % self.bar < self.bar / 2]
            self._copy(half, 0.0, steps=lift)
        elif move == "response":
            self._answer(start, self.idea.answers[0], goal=self._response_goal(start))
        elif move == "cadence":
            self._answer(start, self.idea.answers[1 if final else 0], goal=None, final=final)

    def _motif_bar(self, index: int, start: float) -> None:
        """The motif's bar `index` at `start`: as first stated, kept where the chord now sounding
        allows it (moved up the scale in a departing phrase)."""
        if self.lift:
            self._copy(self._statement(index, start), 0.0, steps=self.lift)
        else:
            self._copy(self._statement(index, start), 0.0, literal=True)

    def _first_statement(self, start: float) -> list[Draft]:
        return self._statement(0, start)

    def _statement(self, index: int, start: float) -> list[Draft]:
        """Bar `index` of the motif as first stated (realised here the first time), moved to
        `start`: every later statement repeats the first one's pitches."""
        form, motif = self._motif()
        if (form, index) not in self.statements:
            anchor = self._anchor(start - index * self.bar, motif)
            notes: list[Draft] = []
            steps_before = motif.bar(index - 1)[-1].steps if index and motif.bar(index - 1) else 0
            bar = motif.bar(index)
            for n, after in zip(bar, [*bar[1:], None], strict=False):
                before = notes[-1].pitch if notes else None
                rise = _sign(n.steps - steps_before)
                room = (after.start if after else self.bar) - n.start - n.length
                length = max(n.length, 1.0) if room >= _PAUSE else n.length  # a breath follows:
                notes.append(self._note(anchor, n.steps, start + n.start, length, before, rise))
                notes[-1].duration = n.length  # it rests on the chord, as a held note does
                steps_before = n.steps
            self.statements[form, index] = (start, notes)
        origin, notes = self.statements[form, index]
        return [_moved(n, start - origin) for n in notes]

    def _bar_before(self, start: float) -> list[Draft]:
        return [n for n in self.notes if start - self.bar <= n.start < start]

    def _copy(
        self,
        notes: list[Draft],
        shift: float,
        *,
        steps: int = 0,
        limit: float | None = None,
        literal: bool = False,
    ) -> None:
        """`notes` again `shift` beats later (moved `steps` along the scale), strong notes kept on
        the chord now sounding. A `literal` restatement keeps every pitch the chord can take as a
        tension: the hook comes back note for note over a new chord, as a sung hook does."""
        harmony = self.ctx.harmony
        before: int | None = None  # the copy's last pitch as laid, and its source's
        source_before: int | None = None
        for source in notes:
            when = source.start + shift
            if limit is not None and when >= limit - 1e-6:
                continue
            pitch = source.pitch
            if steps:
                pitch = harmony.step(pitch, steps)
                if not self.low <= pitch <= self.high:
                    pitch = fold_into(harmony.step(source.pitch, -steps), self.low, self.high)
            rise = 0 if source_before is None else _sign(source.pitch - source_before)
            keep = literal and self._fits(pitch, when)
            if not keep:
                pitch = self._on_chord(pitch, when, source.duration, before, rise)
            before, source_before = pitch, source.pitch
            self.notes.append(Draft(pitch, source.velocity, when, source.duration, "lead"))
            if keep:
                self.kept.add(id(self.notes[-1]))

    def _answer(
        self,
        start: float,
        rhythm: list[tuple[float, float]],
        goal: int | None,
        *,
        final: bool = False,
    ) -> None:
        """An answering bar: steps from the last note down (or up) onto a chord tone."""
        if not rhythm:
            return
        last_start = start + rhythm[-1][0]
        before = self.notes[-1].pitch if self.notes else self._anchor(start)
        if goal is None:
            goal = self._cadence_goal(last_start, before, final=final)
        direction = 1 if before > goal else -1
        count = len(rhythm)
        meant = before  # where the line meant to be a note ago, before any snap
        for number, (onset, length) in enumerate(rhythm):
            when = start + onset
            pitch = goal  # the landing note as chosen: a chord tone the scale may not hold
            if number < count - 1:  # (a harmonic-minor V's leading tone), so never stepped
                stepped = self.ctx.harmony.step(goal, direction * (count - 1 - number))
                pitch = fold_into(stepped, self.low, self.high)
                rise = _sign(pitch - meant)
                meant = pitch
                pitch = self._on_chord(pitch, when, length, before, rise)
            self.notes.append(Draft(pitch, self._velocity(when, pitch), when, length, "lead"))
            before = pitch

    # ── pitches ──────────────────────────────────────────────────────────────────────────

    def _anchor(self, start: float, motif: Motif | None = None) -> int:
        """The motif's first pitch for a statement at `start`: a chord tone (one of the home
        triad's if the chord has one) placed so the whole motif fits the window, at the section
        part's height."""
        motif = motif or self.idea.motif
        # A scale step is 1.75 semitones on average; a note put on the chord the way the line
        # moves may go a step further, up or down: `_MARGIN` is kept clear at either side.
        reach = (motif.highest - motif.lowest) * 1.75 + 2 * _MARGIN
        room = max(0.0, self.high - self.low - reach)
        target = self.low + _MARGIN + room * HEIGHT[self.idea.part] - motif.lowest * 1.75
        chord = self.ctx.harmony.at(start)
        stable = chord.tones & self._home or chord.tones  # start from home where the chord allows
        return nearest_pitch(target, stable, self.low, self.high)

    def _note(
        self, anchor: int, steps: int, when: float, length: float, before: int | None, rise: int
    ) -> Draft:
        """A motif note: its scale step from the anchor, a chord tone if it is strong (the one
        the way the motif moves from `before`: `rise` up, down or none)."""
        harmony = self.ctx.harmony
        pitch = self._on_chord(
            fold_into(harmony.step(anchor, steps), self.low, self.high), when, length, before, rise
        )
        if not _strong(when, length):
            coloured = self._colour(pitch, when)
            pitch = coloured if keeps_direction(coloured, before, rise) else pitch
        return Draft(pitch, self._velocity(when, pitch), when, length, "lead")

    def _on_chord(
        self, pitch: int, when: float, length: float, before: int | None = None, rise: int = 0
    ) -> int:
        """`pitch`, or a tone of the chord at `when` if the note is strong and not one: the
        nearest, unless the line moves (`rise` from `before`) and the nearest would turn the
        step into a repeated note or a turn the other way; then the next chord tone the way
        the line goes. A held note rests on the home chord's tones where the chord has them."""
        chord = self.ctx.harmony.at(when)
        if not _strong(when, length):  # a scale tone, a step on from `before` if a snap
            if keeps_direction(pitch, before, rise):  # before it took the way the line goes
                return pitch
            onward = self.ctx.harmony.step(before, rise)  # type: ignore[arg-type]
            return onward if self.low <= onward <= self.high else pitch
        options = []
        if length >= 1.0:
            home = chord.tones & self._home
            if home and pitch % 12 not in home:
                near = nearest_pitch(pitch, home, self.low, self.high)
                if abs(near - pitch) <= 2:
                    options.append(near)
        options.append(self._chord_tone(pitch, when))
        return directed_tone(options, pitch, chord.tones, before, rise, *self._reach)

    def _fits(self, pitch: int, when: float) -> bool:
        """Whether `pitch` sits well over the chord at `when`: a chord tone, or a scale tone that
        is not a semitone above one (the "avoid note", as the 11th over a major chord is)."""
        tones = self.ctx.harmony.at(when).tones
        pc = pitch % 12
        return pc in tones or (self.ctx.harmony.in_scale(pitch) and (pc - 1) % 12 not in tones)

    def _chord_tone(self, pitch: int, when: float, before: int | None = None, rise: int = 0) -> int:
        """`pitch` if the chord at `when` holds it, else its nearest tone (the way the line
        moves from `before`, where it moves)."""
        chord = self.ctx.harmony.at(when)
        if pitch % 12 in chord.tones:
            return pitch
        near = nearest_pitch(pitch, chord.tones, self.low, self.high)
        return directed_tone([near], pitch, chord.tones, before, rise, *self._reach)

    def _colour(self, pitch: int, when: float) -> int:
        """A weak note as the harmonic dial colours it: a chromatic neighbour or a blue note."""
        dial = self.ctx.style.harmonic
        colour = self.rng.random()
        if dial >= 0.4 and colour < dial * 0.25:
            chord = self.ctx.harmony.at(when + 0.5)
            goal = nearest_pitch(pitch, chord.tones, self.low + 1, self.high - 1)
            return goal - 1 if pitch <= goal else goal + 1  # leans into the next chord tone
        if self.idea.style.blue_notes and dial >= 0.3 and colour > 1 - dial * 0.3:
            return self._blue_note(pitch)
        return pitch

    def _blue_note(self, pitch: int) -> int:
        """The nearest blue note (the flat fifth, or the flat third in major) if it is close by."""
        harmony = self.ctx.harmony
        tonic = harmony.key.tonic_pc
        major = (tonic + 4) % 12 in harmony.scale
        blues = {(tonic + 6) % 12} | ({(tonic + 3) % 12} if major else set())
        blue = nearest_pitch(pitch, blues, self.low, self.high)
        return blue if abs(blue - pitch) <= 2 else pitch

    def _cadence_goal(self, when: float, before: int, *, final: bool) -> int:
        """Where a phrase lands: at the section's end the tonic (or the chord's third, or root);
        halfway another chord tone, so the phrase is answered. The last chorus ends up high."""
        chord = self.ctx.harmony.at(when)
        tonic = self.ctx.harmony.key.tonic_pc
        third = next((pc for pc in chord.tones if (pc - chord.root_pc) % 12 in (3, 4)), None)
        if final:
            goal = (
                {tonic} if tonic in chord.tones else {third if third is not None else chord.root_pc}
            )
        else:
            goal = set(chord.tones - {tonic}) or set(chord.tones)
        target = before + (7 if final and self.last_of_kind and self.idea.part == "hook" else 0)
        return nearest_pitch(min(target, self.high), goal, self.low, self.high)

    def _response_goal(self, start: float) -> int:
        """The answer to a call sits lower: a chord tone about a fourth under the call."""
        call = [n.pitch for n in self._bar_before(start)] or [self._anchor(start)]
        chord = self.ctx.harmony.at(start + self.bar - 1)
        return nearest_pitch(min(call) - 4, chord.tones, self.low, self.high)

    def _velocity(self, when: float, pitch: int) -> float:
        accent = 1.08 if abs(when % self.bar) < 1e-6 else 1.0
        lift = 1 + 0.06 * (pitch - self.low) / max(1, self.high - self.low)  # peaks sing out
        part = LOUDNESS[self.idea.part]
        return self.rng.uniform(88, 100) * self.ctx.loud * accent * lift * part

    # ── finishing ────────────────────────────────────────────────────────────────────────

    def embellish(self, begin: float, end: float, *, every: int = 1, first: int = 0) -> None:
        """Passing and neighbour notes in the phrase from `begin` to `end`, one in the longest
        gap of every `every`-th bar from bar `first` (`ornaments.ornaments`)."""
        phrase = [n for n in self.notes if begin <= n.start < end]
        window = (self.low, self.high)
        self.notes += ornaments(
            phrase, begin, end, self.ctx.harmony, window, self.bar, every=every, first=first
        )

    def add_pickups(self, phrase_starts: list[float]) -> None:
        """Two 8ths stepping up into each later phrase, where the beat before it is free."""
        for start in phrase_starts:
            target = next((n for n in self.notes if abs(n.start - start) < 1e-6), None)
            if target is None or any(start - 1 < n.start < start for n in self.notes):
                continue
            for lead_in, steps in ((1.0, -2), (0.5, -1)):
                pitch = fold_into(self.ctx.harmony.step(target.pitch, steps), self.low, self.high)
                when = start - lead_in
                self.notes.append(
                    Draft(pitch, self._velocity(when, pitch) * 0.9, when, 0.5, "lead")
                )

    def finished(self) -> list[Draft]:
        """The notes in order, one at a time, each sounding its style's share of its room."""
        notes = sorted(
            (n for n in self.notes if 0 <= n.start < self.ctx.length - 1e-6), key=lambda n: n.start
        )
        kept: list[Draft] = []
        for note in notes:
            if kept and note.start - kept[-1].start < 1e-6:
                continue  # one note at a time: the first laid wins
            kept.append(note)
        articulation = self.idea.style.articulation
        before: Draft | None = None
        for note, after in zip(kept, [*kept[1:], None], strict=False):
            room = (after.start if after else self.ctx.length) - note.start
            share = max(articulation, 0.95) if note.duration >= 1 else articulation
            note.duration = max(0.1, min(note.duration * share, room - _BREATH))
            resting = room - note.duration >= _PAUSE  # a note before a breath is a place of rest
            if resting and not self._rests_on_tension(note):
                last = before.pitch if before else None
                rise = 0 if last is None else _sign(note.pitch - last)
                note.pitch = self._chord_tone(note.pitch, note.start, last, rise)
            before = note
            # A note on the bar line lands on it: rushed, it would fall in the bar before.
            note.locked = abs(note.start % self.bar) < 1e-6
        return kept

    def _rests_on_tension(self, note: Draft) -> bool:
        """Whether a restated note may end a phrase on a tension (a 9th, a 13th) instead of a
        chord tone: where the genre's harmony is coloured (soul, R&B, gospel, jazz) a hook
        comes back as it was over the new chord; plainer styles land on the chord."""
        return (
            id(note) in self.kept
            and self.ctx.style.harmonic >= _TENSION_DIAL
            and self._fits(note.pitch, note.start)
        )

    def _last_of_kind(self) -> bool:
        """Whether no later section of this kind follows (the last chorus may end differently)."""
        song = self.ctx.song
        if song.arrangement is None:
            return True
        section = self.ctx.section
        return not any(
            s.kind == section.kind and s.start_bar > section.start_bar
            for s in song.arrangement.sections
        )


def _strong(when: float, length: float) -> bool:
    """On a beat, or long enough to be heard against the chord."""
    return abs(when - round(when)) < 1e-6 or length >= 1.0


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _moved(note: Draft, shift: float) -> Draft:
    return Draft(note.pitch, note.velocity, note.start + shift, note.duration, note.voice)
