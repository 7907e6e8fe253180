"""Change requests in a producer's words, read by rule: what to change, where, and how.

"3rd chord too bright, make darker" → darker on chord 3; "bass too busy,
simplify" → simpler on the bass; "make it warmer" → warmer on the whole mix.
Clauses are read one by one; a clause that names nothing ("simplify") keeps the
scope of the one before, while "it" or "the mix" means the whole song. Praise
and questions come back as such, with no edits; so does a vague wish ("make it
better"), which the studio answers with a question and three concrete options.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from muse_tui.compose.intent.expression_words import edit_value, expression_changes
from muse_tui.compose.intent.extract import PromptReading, read_prompt
from muse_tui.compose.intent.meter import read_meter
from muse_tui.compose.intent.text import bounded
from muse_tui.compose.iteration.daw_lines import daw_edits
from muse_tui.compose.request_types import ChangeRequest, Edit, RequestKind, Scope
from muse_tui.contracts.meter import Meter
from muse_tui.knowledge.artists import artist_table
from muse_tui.knowledge.edit_words import Operation, edit_words
from muse_tui.knowledge.instruments import instrument_table
from muse_tui.knowledge.lexicon import intent_lexicon
from muse_tui.knowledge.meters import meter_table
from muse_tui.knowledge.questions import question_table

_CLAUSE = re.compile(r"\s*(?:[,;.!]|\band then\b|\bthen\b|\bbut\b|\band\b)\s*", re.IGNORECASE)


def parse_request(text: str) -> ChangeRequest:
    """Read a producer's request into edits (praise and questions carry none)."""
    said = " ".join(bounded(text).strip().split())
    lower = said.lower()
    if history := _history_request(said, lower):
        return history
    if asked := expression_changes(said):  # "add sustain pedal to the keys": no notes change
        return ChangeRequest(
            said,
            "change",
            tuple(Edit("expression", Scope(role=r.role), edit_value(r, add)) for r, add in asked),
        )

    if daw := daw_edits(said):
        return ChangeRequest(said, "change", daw)
    reading = read_prompt(said, intent_lexicon(), artist_table())
    words = edit_words()
    edits = [*_song_edits(said, lower, reading)]
    scope = Scope()  # a clause naming nothing keeps the last scope: "bass too busy, simplify it"
    for clause in (c for c in _CLAUSE.split(said) if c and c.strip()):
        named = _clause_scope(clause.lower())
        if named.named:
            scope = named
        elif words.whole_song_pattern.search(clause.lower()):
            scope = Scope(everything=True)
        edits += _clause_edits(clause, scope)
    edits = _deduplicated(edits)
    if edits:
        return ChangeRequest(said, "change", tuple(edits))
    vague = question_table().vague
    asked = words.question_pattern.search(lower)
    if asked and not lower.rstrip("?").endswith(tuple(vague.question_endings)):
        return ChangeRequest(said, "question")
    if vague.pattern.search(lower):
        return ChangeRequest(said, "vague")
    if words.praise_pattern.search(lower):
        return ChangeRequest(said, "praise")
    return ChangeRequest(said, "unclear")


#: Edits that need a part or a section named in their own clause ("no drums in the outro").
_NEEDS_ROLE: tuple[Operation, ...] = ("remove_track",)


def _history_request(said: str, lower: str) -> ChangeRequest | None:
    match = re.match(r"^(undo|redo|go back|revert)\b(.*)$", lower)
    if match:
        kind: RequestKind = "redo" if match.group(1) == "redo" else "undo"
        return ChangeRequest(said, kind, steps=_steps(match.group(2)))
    if re.search(r"\b(try|give me) (something|another|a different)|^(next|another one)\b", lower):
        return ChangeRequest(said, "try_again")
    return None


def _steps(rest: str) -> int:
    if found := re.search(r"\b(\d{1,3})\b", rest):  # no one undoes 1,000 steps
        return max(1, int(found.group(1)))
    for word, number in edit_words().number_words.items():
        if re.search(rf"\b{word}\b", rest):
            return number
    return 1


def _song_edits(said: str, lower: str, reading: PromptReading) -> list[Edit]:
    """Key, mode, tempo and genre: always about the whole song."""
    edits: list[Edit] = []
    modes = "|".join(edit_words().modes)
    key = next((k for k in reading.keys if k.tonic), None)
    tonic = re.search(r"\b(?:to|in|into)\s+([A-G](?:#|b|♯|♭)?)(?![\w#])", said)
    if key is not None:
        edits.append(Edit("key", value=f"{key.tonic} {key.mode or ''}".strip()))
    elif tonic and re.search(r"\b(key|transpose|move)\b", lower):
        mode = re.search(rf"\b({modes})\b", lower)
        edits.append(Edit("key", value=f"{tonic.group(1)} {mode.group(1) if mode else ''}".strip()))
    elif shift := _transposition(lower):
        edits.append(Edit("transpose", value=shift))
    elif mode := re.search(rf"\b(?:to|in|into|make it|go|more)\s+({modes})\b", lower):
        edits.append(Edit("mode", value=mode.group(1)))
    tempo_words = re.search(r"\b(bpm|tempo|speed|slow|fast|faster|slower|quicker|pace)", lower)
    if reading.tempo and reading.tempo.bpms and tempo_words:
        edits.append(Edit("tempo", value=reading.tempo.bpms[-1]))
    elif change := _tempo_change(lower):
        edits.append(Edit("tempo_by", value=change))
    edits += _meter_edits(lower)
    genres = [g for g in reading.genres if not _instrument_words(said[g.start : g.end])]
    if genres and edit_words().change_pattern.search(lower):
        to = re.search(r"\b(?:to|into|as)\b", lower)
        after = [g for g in genres if to and g.start >= to.start()]
        edits.append(Edit("genre", value=(after or genres)[-1].genre))
    return edits


def _meter_edits(lower: str) -> list[Edit]:
    """ "put it in 3/4", "make the bridge 6/8", "straight 4/4 again": the song's or a section's."""
    meters = read_meter(lower, meter_table())
    edits = [
        Edit("meter", Scope(section=kind), _meter_value(meter))
        for kind, meter in meters.sections.items()
    ]
    if meters.meter is not None and not meters.clashing:
        edits.append(Edit("meter", value=_meter_value(meters.meter)))
    return edits


def _meter_value(meter: Meter) -> str:
    """'7/8:3+2+2': the label, and the grouping where it is not the meter's usual one."""
    usual = Meter.parse(meter.label).grouping
    grouping = "+".join(map(str, meter.grouping))
    return meter.label if meter.grouping == usual else f"{meter.label}:{grouping}"


def _transposition(lower: str) -> float | None:
    match = re.search(
        r"\b(?:transpose|move|shift|take) (?:it |everything )?(up|down)"
        r"(?: (?:by )?(a|an|one|two|three|\d{1,2})\b)?"
        r" ?(semitones?|half steps?|whole steps?|tones?|steps?)?",
        lower,
    )
    if not match:
        return None
    count = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}.get(match.group(2) or "a")
    count = count if count is not None else int(match.group(2))
    unit = 2 if match.group(3) and re.match(r"(whole|tone)", match.group(3)) else 1
    return float(count * unit * (1 if match.group(1) == "up" else -1))


def _tempo_change(lower: str) -> float | None:
    """A relative tempo change as a factor: 'a bit slower' 0.95, 'faster' 1.1.

    "Faster chord changes" or "faster hats" are about a part, not the tempo (`notTempo`).
    """
    if re.search(edit_words().not_tempo, lower):
        return None
    up = re.search(r"\b(faster|speed (it )?up|quicker|more uptempo|too slow)\b", lower)
    down = re.search(r"\b(slower|slow (it )?down|too fast|more laid.back tempo)\b", lower)
    if not (up or down) or (up and down):
        return None
    step = (
        0.05 if re.search(r"\b(a (little|bit|touch|tad)|slightly|a little bit)\b", lower) else 0.1
    )
    return round(1 + step if up else 1 - step, 3)


def _instrument_words(text: str) -> bool:
    lexicon = intent_lexicon()
    folded = text.lower()
    return any(folded in (p.lower() for p in word.phrases) for word in lexicon.instruments.values())


def _clause_scope(clause: str) -> Scope:
    """The scope one clause names (the whole song when it names nothing)."""
    chord = _chord_index(clause)
    words = edit_words()
    section = next(
        (
            kind
            for word, kind in words.section_words.items()
            if re.search(
                rf"\bthe (\w+ )?{word}\b|\b{word} \d{{1,2}}\b(?! ?bars?)"
                if word in words.section_verbs
                else rf"\b{word}\b",
                clause,
            )
        ),
        None,
    )
    harmony = bool(re.search(r"\b(progression|harmony|chord changes|the changes)\b", clause))
    roles = roles_named(clause)
    role = roles[0][0] if roles else None
    if roles and roles[0][1] == "chords" and not _track_words(clause):
        role, harmony = None, True  # "the chords" are the harmony unless a chord track is named
    voice = _voice(clause)
    if voice is not None and role in (None, "drums", "percussion"):
        role = "drums"  # "kick louder" is the kit's kick, not the kit
    track = re.search(r"\btrack\s*#?(\d{1,2})\b", clause)
    return Scope(
        role=role,
        section=section,
        chord=chord,
        harmony=harmony,
        track=int(track.group(1)) if track else None,
        voice=voice,
        number=_section_number(clause, section) if section else None,
        bars=_bar_span(clause),
        said=clause,
    )


@lru_cache(maxsize=4096)
def _phrase(phrase: str) -> re.Pattern[str]:
    """`phrase` as whole words. Compiled once: the instrument and voice tables hold more
    phrases than `re`'s own cache, so searching them uncompiled recompiled every one per
    request (0.2 s each; the edit fuzz timed out)."""
    return re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])")


def _voice(clause: str) -> str | None:
    """The drum voice a clause names ("the kick", "open hats"), the longest words first."""
    words = edit_words().drum_voices
    for phrase in sorted(words, key=len, reverse=True):
        if _phrase(phrase).search(clause):
            return words[phrase]
    return None


def _section_number(clause: str, kind: str) -> int | None:
    """Which section of the kind a clause names: "verse 2" 2, "the last chorus" -1, else None."""
    words = edit_words()
    said = "|".join(re.escape(w) for w, k in words.section_words.items() if k == kind)
    ordinals = "|".join(sorted(words.ordinals, key=len, reverse=True))
    found = re.search(
        rf"\b(?:(?P<ord>{ordinals}|\d{{1,2}}(?:st|nd|rd|th)) )?(?:{said})"
        rf"(?: (?P<num>\d{{1,2}})(?! ?(?:bars?|measures?)\b))?\b",
        clause,
    )
    if found is None:
        return None
    if found.group("num"):
        return max(1, int(found.group("num")))
    if said_ordinal := found.group("ord"):
        if digits := re.match(r"\d+", said_ordinal):
            return max(1, int(digits.group()))
        return words.ordinals[said_ordinal]
    return None


def _bar_span(clause: str) -> str | None:
    """A bar range a clause names: "9-16" (1-based, inclusive), "first:8" or "last:4"."""
    words = edit_words()
    for pattern in words.span_patterns:
        if found := pattern.search(clause):
            groups = found.groupdict()
            if groups.get("first"):
                return f"{groups['first']}-{groups['last']}"
            count = groups["count"]
            number = int(count) if count.isdigit() else words.number_words[count]
            edge = "first" if groups["edge"] in ("first", "opening") else "last"
            return f"{edge}:{number}"
    return None


def _track_words(clause: str) -> bool:
    return bool(
        re.search(r"\b(track|part|preset|sound|patch|volume|louder|quieter|mute)\b", clause)
    )


def roles_named(clause: str) -> list[tuple[str, str]]:
    """(role, the words naming it) for each track role a clause names, in the order named."""
    lexicon = intent_lexicon()
    found: list[tuple[int, int, str, str]] = []
    phrases = [(p.lower(), w.role) for w in lexicon.instruments.values() for p in w.phrases]
    lower = clause.lower()
    for phrase, role in [*phrases, *edit_words().role_words.items()]:
        if m := _phrase(phrase).search(lower):
            found.append((m.start(), -len(phrase), role, phrase))
    roles: dict[str, str] = {}
    for _, _, role, phrase in sorted(found):
        roles.setdefault(role, phrase)
    return list(roles.items())


def _chord_index(clause: str) -> int | None:
    if m := re.search(
        r"\b(\d{1,3})(?:st|nd|rd|th)\s+chord\b|\bchord\s+(?:number\s+)?(\d{1,3})\b", clause
    ):
        return int(m.group(1) or m.group(2)) - 1
    ordinals = edit_words().ordinals
    if m := re.search(rf"\b({'|'.join(ordinals)})\s+chord\b", clause):
        number = ordinals[m.group(1)]
        return number - 1 if number > 0 else -1
    return None


def _clause_edits(clause: str, scope: Scope) -> list[Edit]:
    edits: list[Edit] = []
    words = edit_words()
    text = clause.lower()
    swap = r"\bchord\b[^,]*?\b(?:to|into|with)\s+([A-G][#b♯♭]?[^\s,]*)"
    replacement = re.search(swap, clause, re.IGNORECASE)
    if replacement and replacement.group(1)[0].isupper():
        return [Edit("chord", scope, replacement.group(1))]
    if swapped := _swap_edit(text, scope):
        return [swapped]
    effect = next((k for w, k in words.effect_words.items() if re.search(rf"\b{w}\b", text)), None)
    if effect is None and re.search(r"\b(dry|drier|dryer|wetter|wet)\b", text):
        effect = "reverb"
    sound_word = "|".join(words.sound_words)
    if re.search(r"\b(preset|sound|patch|kit|instrument)\b", text) and re.search(
        rf"\b(different|another|new|swap|change|use|other|replace|try|({sound_word})(er|ier))\b",
        text,
    ):
        wanted = [w for w in words.sound_words if re.search(rf"\b{w}(er|est|th)?\b", text)]
        return [Edit("preset", scope, " ".join(wanted))]
    if effect is not None:
        return [Edit(_effect_operation(text), scope, effect)]
    for pattern, operation in words.complaints:
        if re.search(rf"\b{pattern}\b", text):
            edits.append(Edit(operation, scope))
            text = re.sub(rf"\b{pattern}\b", " ", text)
    if pan := re.search(
        r"\bpan\b.*?\b(hard left|hard right|left|right|cent(?:er|re)|middle)\b", text
    ):
        edits.append(Edit("pan", scope, pan.group(1)))
    for pattern, operation in words.words:
        if re.search(pattern, text):
            edits.append(Edit(operation, scope))
            text = re.sub(pattern, " ", text)
    if re.search(r"\b(before|into|leading into|going into|leading up to) the\b", clause.lower()):
        edits = [
            Edit(e.operation, e.scope, "before") if e.operation == "fills" else e for e in edits
        ]
    named = _clause_scope(clause.lower())
    edits = [e for e in edits if e.operation not in _NEEDS_ROLE or named.role or e.scope.section]
    if not edits and (added := _add_edit(clause.lower(), scope)):
        edits.append(added)
    return edits


def _instruments_named(text: str) -> list[tuple[int, str]]:
    """(where, instrument id) for each instrument the text names, longest phrase first.

    "electric piano" names the Rhodes, not the piano inside it.
    """
    spans: list[tuple[int, int, str]] = []
    for name, instrument in instrument_table().instruments.items():
        for phrase in (name, *instrument.phrases):
            if m := _phrase(phrase.lower()).search(text):
                spans.append((m.start(), m.end(), name))
    kept: list[tuple[int, int, str]] = []
    for start, end, name in sorted(spans, key=lambda s: (s[0], s[0] - s[1])):
        if not any(s <= start and end <= e for s, e, _ in kept):
            kept.append((start, end, name))
    firsts: dict[str, int] = {}
    for start, _, name in kept:
        firsts.setdefault(name, start)
    return sorted((at, name) for name, at in firsts.items())


def _swap_edit(text: str, scope: Scope) -> Edit | None:
    """'swap the piano for a Rhodes', 'replace the piano with an organ': old>new instrument."""
    if not edit_words().swap_pattern.search(text):
        return None
    link = re.search(r"\b(for|with|to|into)\b", text)
    named = _instruments_named(text)
    if link is None or len(named) < 2:
        return None
    before = [n for at, n in named if at < link.start()]
    after = [n for at, n in named if at > link.start()]
    if not before or not after or before[-1] == after[0]:
        return None
    return Edit("swap_instrument", scope, f"{before[-1]}>{after[0]}")


def _add_edit(text: str, scope: Scope) -> Edit | None:
    """'add a pad', 'bring in some strings': a new part, with the instrument when one is named."""
    if not edit_words().add_pattern.search(text):
        return None
    named = [n for _, n in _instruments_named(text)]
    instrument = instrument_table().get(named[0]) if named else None
    role = scope.role if scope.role else (instrument.role if instrument else None)
    if role is None:
        return None
    value = named[0] if instrument is not None and not instrument.is_role_word else None
    return Edit("add_track", Scope(role=role), value)


def _effect_operation(text: str) -> Operation:
    if re.search(r"\b(no|remove|without|kill|lose|drop|take off|bypass|dry)\b", text):
        return (
            "effect_remove"
            if not re.search(r"\b(drier|dryer|a bit|less)\b", text)
            else "effect_less"
        )
    if re.search(r"\b(less|lower|down|too much|drier|dryer|too wet|tone down|reduce)\b", text):
        return "effect_less"
    return "effect_more"


def _deduplicated(edits: Sequence[Edit]) -> list[Edit]:
    """Each (operation, scope) once, keeping the last of contradictory pairs on one scope."""
    opposite = {
        "darker": "brighter", "brighter": "darker", "warmer": "colder", "colder": "warmer",
        "simpler": "busier", "busier": "simpler", "more_swing": "less_swing",
        "less_swing": "more_swing", "volume_up": "volume_down", "volume_down": "volume_up",
        "mute": "unmute", "unmute": "mute", "ghost_notes": "no_ghost_notes",
        "no_ghost_notes": "ghost_notes", "freeze": "unfreeze", "unfreeze": "freeze",
    }  # fmt: skip
    kept: list[Edit] = []
    for edit in edits:
        kept = [
            e
            for e in kept
            if not (
                e.scope == edit.scope
                and e.operation in (edit.operation, opposite.get(edit.operation))
            )
        ]
        kept.append(edit)
    return kept
