"""Structured prompts: a "STORI PROMPT" or YAML-looking header block, read field by field.

A power user can write the song as headers (`Mode:`, `Style:`, `Key:`, `Tempo:`,
`Role:`, `Constraints:`, `Vibe:`, `Request:`, `Effects:`, `MidiExpressiveness:`…)
instead of a sentence. What a header sets is settled: S1 neither guesses nor asks
it again, and header names never become artists. The headers are YAML with two
forgivenesses the format's own examples rely on: the `STORI PROMPT` first line, and
free text under a header (`Request:` followed by a sentence), read as a block
scalar. Lines are kept one for one, so a YAML error names the producer's line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from muse_tui.compose.effects import chain_id
from muse_tui.compose.intent.enrich import SONG_BARS
from muse_tui.compose.iteration.chain_edits import with_effect
from muse_tui.contracts.intent import (
    Ambiguity,
    DurationRange,
    IntentDecompositionResult,
    KeyAnalysis,
    PipelineIntent,
    TempoAnalysis,
)
from muse_tui.contracts.meter import Meter
from muse_tui.contracts.song import EffectChain, Track
from muse_tui.contracts.vocabulary import TRACK_ROLES, TrackRole
from muse_tui.knowledge import effects_table
from muse_tui.knowledge.edit_words import edit_words
from muse_tui.knowledge.lexicon import IntentLexicon
from muse_tui.theory import KeySyntaxError, parse_key

StructuredMode = Literal["compose", "edit", "ask"]
#: Where `Mode:` sends a prompt: the values of `compose.iteration.routing.Route`.
RoutedTo = Literal["compose", "modify", "question", "unclear"]

#: The headers the format defines (matched without regard to case).
HEADERS = (
    "Mode",
    "Target",
    "Section",
    "Position",
    "Style",
    "Key",
    "Tempo",
    "Meter",
    "Role",
    "Constraints",
    "Vibe",
    "Request",
    "Effects",
    "MidiExpressiveness",
    "Automation",
    "Energy",
)
_BY_FOLDED = {h.lower(): h for h in HEADERS}
_BANNER = re.compile(r"^\s*stori\s+prompt\s*$", re.IGNORECASE)
_HEADER_LINE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\s*:(?:\s(.*)|)$")
_TEMPO = re.compile(r"^\s*(\d{1,3}(?:\.\d+)?)\s*(?:bpm)?\s*$", re.IGNORECASE)
_WEIGHTED = re.compile(r"^(.*?):\s*(\d+(?:\.\d+)?)$")
#: Longer prompts are refused rather than parsed: a header block is a screenful.
MAX_CHARS = 20_000
_MODES: dict[str, StructuredMode] = {
    "compose": "compose",
    "create": "compose",
    "edit": "edit",
    "modify": "edit",
    "ask": "ask",
    "question": "ask",
}
#: Role words the format uses that are neither part words of the edit vocabulary
#: (`edit_words().role_words`: "bassline", "melody", "beat"…) nor instruments of the lexicon.
_ROLE_WORDS: dict[str, TrackRole] = {
    "808": "sub_bass",
    "sub": "sub_bass",
    "counter melody": "lead",
    "countermelody": "lead",
    "hook": "lead",
    "kick": "drums",
    "hats": "drums",
    "hi-hats": "drums",
    "hihats": "drums",
    "snare": "drums",
    "arpeggio": "arp",
    "arpeggiator": "arp",
    "atmosphere": "texture",
    "fx": "texture",
    "comping": "chords",
    "harmony": "chords",
}


#: `Effects:` words the edit vocabulary does not spell this way: the seed's own examples.
_EFFECT_WORDS = {"room": "reverb", "tube": "drive", "chorus": "chorus", "tremolo": "tremolo"}


class StructuredPromptError(ValueError):
    """A header block that YAML cannot read; the message is one sentence naming the line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class StructuredPrompt:
    """What a structured prompt sets. None and empty mean the prompt left it open."""

    mode: StructuredMode | None = None
    target: str | None = None
    section: str | None = None
    position: str | None = None
    style: str | None = None
    key: str | None = None
    tempo: float | None = None
    meter: Meter | None = None
    roles: tuple[TrackRole, ...] = ()
    bars: int | None = None
    instruments: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    vibes: tuple[tuple[str, float], ...] = ()
    request: str = ""
    energy: str | None = None
    effects: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    expressiveness: Mapping[str, Any] = field(default_factory=dict)
    #: Sentences for the producer: unknown headers (once each), values that could not be used.
    notes: tuple[str, ...] = ()

    def as_text(self) -> str:
        """The prompt as a sentence S1 reads: style, instruments, vibes, energy, the request.

        Key, tempo, roles and bars are not in it: they are set on the intent
        directly, so nothing in the free text can move them.
        """
        parts = [self.style or ""]
        parts += [c.split(":", 1)[1] for c in self.constraints if c.startswith("density:")]
        if self.instruments:
            parts.append("with " + ", ".join(self.instruments))
        parts += [word for word, _ in self.vibes]
        if self.energy:  # "Energy: high" is the mood a sentence says as "high energy"
            parts.append(
                self.energy if "energy" in self.energy.lower() else f"{self.energy} energy"
            )
        parts.append(self.request)
        text = ", ".join(p.strip() for p in parts if p and p.strip()) or "a song"
        return f"a song, {text}" if looks_structured(text) else text  # read once, never again


def looks_structured(prompt: str) -> bool:
    """The prompt opens with `STORI PROMPT`, or with a header and has at least two of them.

    One header-like line is not enough: "tempo: 87, boom-bap, Am" is a sentence.
    """
    lines = [line for line in prompt.splitlines() if line.strip()]
    if not lines:
        return False
    if _BANNER.match(lines[0]):
        return True
    headers = [_HEADER_LINE.match(line) for line in lines]
    known = [h for h in headers if h is not None and h.group(1).lower() in _BY_FOLDED]
    return bool(known) and known[0] is headers[0] and len(known) >= 2


def structured_route(prompt: str, session_open: bool) -> tuple[RoutedTo, str] | None:
    """Where a structured prompt's `Mode:` sends it, and the words to read as a change.

    compose → "compose"; edit → "modify" (its Request and Vibe words are the change),
    or "unclear" with no song open; ask → "question". None for a plain sentence or
    a prompt without a Mode; a header block YAML cannot read goes to "compose",
    where S1 says which line is wrong.
    """
    try:
        parsed = parse_structured(prompt)
    except StructuredPromptError:
        return ("compose", prompt) if looks_structured(prompt) else None
    if parsed is None or parsed.mode is None:
        return None
    target = (parsed.target or "").partition(":")[2].strip().lower()  # "track:Bass" → "bass"
    # Section and Position are said the way a sentence says them, so the edit reader
    # (and its one position resolver) places the change: "… in the chorus", "… after intro".
    section = f" in the {parsed.section}" if parsed.section else ""
    position = parsed.position or ""
    position = f" at bar {position}" if position.isdigit() else f" {position}" if position else ""
    request = parsed.request.rstrip(" .!;") + position if parsed.request else ""
    said = [request, *(word for word, _ in parsed.vibes)]
    words = ", ".join(
        f"the {target} {w}{section}" if target else f"{w}{section}" for w in said if w
    )
    if parsed.mode == "edit":
        return ("modify" if session_open else "unclear"), words
    return ("question" if parsed.mode == "ask" else "compose"), words


def parse_structured(prompt: str, lexicon: IntentLexicon | None = None) -> StructuredPrompt | None:
    """The fields a structured prompt sets, or None for a plain sentence.

    Raises `StructuredPromptError` (one sentence naming the line) when the header
    block is not readable YAML. `lexicon` lets role words name instruments ("piano").
    """
    if not looks_structured(prompt):
        return None
    if len(prompt) > MAX_CHARS:
        raise StructuredPromptError(
            f"The structured prompt is {len(prompt)} characters long; keep it under {MAX_CHARS}."
        )
    text = "\n".join(_yaml_lines(prompt))
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        raise _located(exc, prompt) from None
    except yaml.reader.ReaderError as exc:
        number = text.count("\n", 0, exc.position) + 1
        raise StructuredPromptError(
            f"The structured prompt cannot be read at line {number}: "
            f"it holds the control character #x{exc.character:04x}.",
            number,
        ) from None
    except (yaml.YAMLError, RecursionError, ValueError):
        raise StructuredPromptError(
            "The structured prompt cannot be read: it is nested too deeply or is not YAML."
        ) from None
    if data is None:
        return StructuredPrompt()
    if not isinstance(data, dict):
        raise StructuredPromptError(
            "The structured prompt should be headers like 'Style: trap', one per line."
        )
    return _read_fields(data, lexicon)


def _yaml_lines(prompt: str) -> list[str]:
    """The prompt as YAML, line for line: the banner blanked, free text under a header indented.

    A header followed by unindented lines that are neither list items nor headers
    (`Request:` then a sentence) becomes a literal block (`Request: |-`).
    """
    lines = prompt.replace("\t", "  ").splitlines()
    out: list[str] = []
    free_text = False
    for index, line in enumerate(lines):
        header = _HEADER_LINE.match(line)
        if _BANNER.match(line) and not out:
            out.append("")
            continue
        if header is not None:
            free_text = not (header.group(2) or "").strip() and _free_text_follows(lines, index)
            out.append(f"{header.group(1)}: |-" if free_text else line)
        elif free_text and line.strip():
            out.append(f"  {line}")
        else:
            out.append(line)
    return out


def _free_text_follows(lines: list[str], index: int) -> bool:
    for line in lines[index + 1 :]:
        if not line.strip():
            continue
        return not (line[0] in " -" or _HEADER_LINE.match(line))
    return False


def _located(exc: yaml.MarkedYAMLError, prompt: str) -> StructuredPromptError:
    """One sentence: the line number, the line itself, and what YAML found wrong there."""
    mark = exc.problem_mark or exc.context_mark
    problem = (exc.problem or exc.context or "it is not valid YAML").rstrip(".")
    if mark is None:
        return StructuredPromptError(f"The structured prompt cannot be read: {problem}.")
    number = mark.line + 1
    lines = prompt.splitlines()
    text = lines[mark.line].strip() if mark.line < len(lines) else ""
    shown = f" ({text[:60]!r})" if text else ""
    return StructuredPromptError(
        f"The structured prompt cannot be read at line {number}{shown}: {problem}.", number
    )


def _read_fields(data: dict[Any, Any], lexicon: IntentLexicon | None) -> StructuredPrompt:
    notes: list[str] = []
    fields: dict[str, Any] = {}
    for raw_name, value in data.items():
        name = _BY_FOLDED.get(str(raw_name).strip().lower())
        if name is None:
            notes.append(
                f"Ignored the header '{str(raw_name)[:40]}', which the format doesn't have."
            )
            continue
        fields[name] = value
    constraints, bars, instruments = _constraints(fields.get("Constraints"), notes)
    return StructuredPrompt(
        mode=_mode(fields.get("Mode"), notes),
        target=_scalar(fields.get("Target")),
        section=_scalar(fields.get("Section")),
        position=_scalar(fields.get("Position")),
        style=_scalar(fields.get("Style")),
        key=_key(fields.get("Key"), notes),
        tempo=_tempo(fields.get("Tempo"), notes),
        meter=_meter(fields.get("Meter"), notes),
        roles=_roles(fields.get("Role"), lexicon, notes),
        bars=bars,
        instruments=instruments,
        constraints=constraints,
        vibes=_vibes(fields.get("Vibe")),
        request=_scalar(fields.get("Request")) or "",
        energy=_scalar(fields.get("Energy")),
        effects=_effects(fields.get("Effects")),
        expressiveness=_mapping(fields.get("MidiExpressiveness")),
        notes=tuple(dict.fromkeys(notes)),
    )


def _scalar(value: object) -> str | None:
    """A header's value as text: scalars as written, a list joined with commas."""
    if value is None or isinstance(value, dict):
        return None
    if isinstance(value, list):  # one level only: YAML aliases can nest lists without end
        words = [_scalar(v) for v in value if not isinstance(v, (list, dict))]
        return ", ".join(w for w in words if w) or None
    text = " ".join(str(value).split())
    return text or None


def _items(value: object) -> list[object]:
    """A header's entries: a list as is, a comma-separated scalar split."""
    if value is None:
        return []
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return [{k: v} for k, v in value.items()]
    return [part for part in str(value).split(",") if part.strip()]


def _mode(value: object, notes: list[str]) -> StructuredMode | None:
    text = (_scalar(value) or "").lower()
    if not text:
        return None
    mode = _MODES.get(text.split("|")[0].strip())
    if mode is None:
        notes.append(f"Mode '{text[:20]}' is not compose, edit or ask; composing.")
    return mode


def _key(value: object, notes: list[str]) -> str | None:
    text = _scalar(value)
    if text is None:
        return None
    try:
        parse_key(text)
    except KeySyntaxError:
        notes.append(f"Key '{text[:30]}' is not a key I can read, so I chose one.")
        return None
    return text


def _meter(value: object, notes: list[str]) -> Meter | None:
    """`Meter: 7/8` (or `Meter: 7/8 3+2+2`): a time signature, with its grouping if written."""
    text = _scalar(value)
    if text is None:
        return None
    label, _, grouping = text.strip().partition(" ")
    try:
        groups = tuple(int(n) for n in grouping.replace(" ", "").strip("()").split("+") if n)
        return Meter.parse(label, groups)
    except ValueError:
        notes.append(f"Meter '{text[:20]}' is not a time signature like 3/4 or 7/8, so it is 4/4.")
        return None


def _tempo(value: object, notes: list[str]) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    found = _TEMPO.match(str(value))
    bpm = float(found.group(1)) if found else math.nan
    if not 40 <= bpm <= 300:
        notes.append(f"Tempo '{str(value)[:20]}' is not a BPM from 40 to 300, so I chose one.")
        return None
    return bpm


def _roles(value: object, lexicon: IntentLexicon | None, notes: list[str]) -> tuple[TrackRole, ...]:
    roles: list[TrackRole] = []
    for item in _items(value):
        word = (_scalar(item) or "").lower()
        role = role_of(word, lexicon)
        if role is None:
            if word:
                notes.append(f"Role '{word[:30]}' is not a part I can write; left it out.")
            continue
        if role not in roles:
            roles.append(role)
    return tuple(roles)


def role_of(word: str, lexicon: IntentLexicon | None) -> TrackRole | None:
    """A part word as a track role: the role itself, a plural, a format word, a part word
    of the edit vocabulary ("topline"), an instrument of `lexicon` ("rhodes")."""
    part_words = edit_words().role_words
    for candidate in (word, word.replace(" ", "_"), word.removesuffix("s")):
        if candidate in TRACK_ROLES:
            return candidate  # type: ignore[return-value]
        if candidate in _ROLE_WORDS:
            return _ROLE_WORDS[candidate]
        if candidate in part_words:
            return part_words[candidate]
        if lexicon is not None and candidate in lexicon.instruments:
            instrument = lexicon.instruments[candidate]
            return "percussion" if instrument.is_kit_sound else instrument.role
    return None


def _constraints(
    value: object, notes: list[str]
) -> tuple[tuple[str, ...], int | None, tuple[str, ...]]:
    """Bars and instruments come out of the constraints; the rest stay as 'key: value' text."""
    kept: list[str] = []
    bars: int | None = None
    instruments: list[str] = []
    for item in _items(value):
        pairs = item.items() if isinstance(item, dict) else [(item, None)]
        for raw_key, raw_value in pairs:
            name = " ".join(str(raw_key).lower().split())
            if name == "bars":
                bars = _bars(raw_value, notes)
            elif name == "instruments":
                instruments += [str(i).strip() for i in _items(raw_value) if str(i).strip()]
            elif raw_value is None:
                kept.append(name)
            else:
                kept.append(f"{name}: {_scalar(raw_value) or ''}".strip())
    return tuple(k for k in kept if k), bars, tuple(instruments)


def _bars(value: object, notes: list[str]) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10_000:
        return value
    if isinstance(value, str) and value.strip().isdigit() and int(value) <= 10_000:
        return int(value) or None
    notes.append(f"bars '{str(value)[:20]}' is not a number of bars; the length is my choice.")
    return None


def _vibes(value: object) -> tuple[tuple[str, float], ...]:
    """Vibe words with their weights ("darker:2"); an unweighted word weighs 1."""
    vibes: list[tuple[str, float]] = []
    for item in _items(value):
        if isinstance(item, dict):
            pairs = [(str(k), v) for k, v in item.items()]
        else:
            found = _WEIGHTED.match(str(item).strip())
            pairs = [(found.group(1), found.group(2))] if found else [(str(item), 1)]
        for word, weight in pairs:
            try:
                number = float(weight)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                number = 1.0
            text = " ".join(word.split())
            if text and math.isfinite(number):
                vibes.append((text, number))
    return tuple(vibes)


def _effects(value: object) -> dict[str, tuple[str, ...]]:
    """`Effects:` as role word → effect words (`drums: {compression: …, room: …}` → drums: …)."""
    result: dict[str, tuple[str, ...]] = {}
    for target, effects in _mapping(value).items():
        if isinstance(effects, dict):
            words = [str(k) for k in effects]
        else:
            words = [str(w) for w in _items(effects) if not isinstance(w, (dict, list))]
            words += [str(k) for w in _items(effects) if isinstance(w, dict) for k in w]
        cleaned = tuple(" ".join(w.lower().split()) for w in words if w.strip())
        if cleaned:
            result[" ".join(str(target).lower().split())] = cleaned
    return result


def _mapping(value: object) -> dict[str, Any]:
    """A block as a mapping; a list of one-key mappings is merged into one."""
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    merged: dict[str, Any] = {}
    if isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                merged.update({str(k): v for k, v in item.items()})
            elif item is not None and not isinstance(item, list):
                merged[str(item)] = True
    return merged


def settle(
    result: IntentDecompositionResult, prompt: StructuredPrompt
) -> IntentDecompositionResult:
    """S1's reading of `prompt.as_text()`, with what the headers set pinned and never asked.

    Tempo, key, roles and bars become explicit; a genre question is dropped when
    `Style:` named one; names the free text happened to capitalise are not
    artists. What could not be used is said once, as an optional note.
    """
    intent = result.intent
    update: dict[str, Any] = {}
    settled: set[str] = set()
    if prompt.tempo is not None:
        update["tempo"] = prompt.tempo
        update["tempo_analysis"] = TempoAnalysis(
            bpm=prompt.tempo,
            source="explicit",
            perceived_bpm=prompt.tempo,
            confidence=1.0,
            reasoning=f"Tempo: {prompt.tempo:g} in the prompt.",
        )
        settled.add("tempo")
    if prompt.key is not None:
        key = parse_key(prompt.key)
        update |= {"key": key.tonic, "mode": key.mode}
        update["key_analysis"] = KeyAnalysis(
            root=key.tonic,
            mode=key.mode,
            source="explicit",
            confidence=1.0,
            reasoning=f"Key: {prompt.key} in the prompt.",
        )
        settled |= {"key", "mode"}
    if prompt.roles:
        update["roles"] = list(prompt.roles)
        settled.add("roles")
    if prompt.meter is not None:
        update["meter"] = None if prompt.meter.is_common else prompt.meter
        settled.add("meter")
    notes = list(prompt.notes)
    if prompt.bars is not None:
        bars = min(max(prompt.bars, SONG_BARS[0]), SONG_BARS[1])
        if bars != prompt.bars:
            notes.append(f"bars: {prompt.bars} is outside {SONG_BARS[0]}–{SONG_BARS[1]}; {bars}.")
        update["duration"] = DurationRange(min=bars, max=bars)
        settled.add("duration")
    if prompt.style:
        settled.add("genre")
    known = [i for i in intent.influence_analysis if i.known]
    update["influence_analysis"] = known
    update["influences"] = [i.name for i in known]
    kept = [a for a in intent.ambiguities if a.field != "influences" and a.field not in settled]
    kept += [Ambiguity(field="prompt", reason=note, severity="optional") for note in notes]
    update["ambiguities"] = kept
    intent = intent.model_copy(update=update)
    blocking = bool(intent.blocking_ambiguities)
    summary = result.summary if not blocking else intent.blocking_ambiguities[0].reason
    if not blocking:
        summary = _settled_summary(intent, prompt)
    return IntentDecompositionResult(
        intent=intent,
        ready_to_execute=not blocking,
        summary=summary,
        inferred_fields=[f for f in result.inferred_fields if f not in settled],
    )


def _settled_summary(intent: PipelineIntent, prompt: StructuredPrompt) -> str:
    """One sentence: style, tempo, key, roles and bars as the headers set them."""
    tempo = intent.tempo_analysis.bpm if intent.tempo_analysis else intent.tempo
    text = f"{prompt.style or ' + '.join(intent.genre)} at {tempo:g} BPM"
    text += f" in {intent.key} {str(intent.mode).replace('_', ' ')}"
    if intent.roles:
        text += f", {', '.join(intent.roles)}"
    if intent.duration is not None and intent.duration.min == intent.duration.max:
        text += f", {intent.duration.min} bars"
    return f"{text} (structured prompt)."


def merged_effects(
    chains: Sequence[EffectChain],
    tracks: Sequence[Track],
    requests: Mapping[str, Sequence[str]],
    bpm: float,
) -> list[EffectChain]:
    """S5's effect chains with a structured prompt's `Effects:` inserts added where missing.

    `requests` is the intent's `effect_requests`: `Effects: {lead: {delay: dotted
    eighth}, drums: {compression: …}}` adds the effects file's default delay to
    the lead and compressor to the drums; an effect a chain already has is left as
    S5 tuned it, and words no effect answers to are skipped.
    """
    if not requests:
        return list(chains)
    table, words = effects_table(), edit_words().effect_words
    result = {c.target_id: c for c in chains}
    for target, asked in requests.items():
        role = role_of(target, None)
        for track in (t for t in tracks if t.role == role):
            chain = result.get(track.id) or EffectChain(id=chain_id(track.id), target_id=track.id)
            for word in asked:
                kind = words.get(word) or _EFFECT_WORDS.get(word)
                if (
                    kind is None
                    or kind not in table.units
                    or any(e.kind == kind for e in chain.effects)
                ):
                    continue
                chain = with_effect(chain, kind, "effect_more", table, bpm)
            result[track.id] = chain
    return list(result.values())
