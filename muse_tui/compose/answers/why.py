"""Why the song is as it is, from its own decision record: S1's reasons and S4's registers.

"why this tempo?", "why did you pick F minor?", "why no piano?" read the reasons
S1 kept (`IntentOutput.reasons`: the prompt's word, or the genre row with its
value); "why is the bass so low?" reads the register S4 wrote the part in and the
`tracks.json` rule that set it. One or two sentences, nothing changed.
"""

from __future__ import annotations

import re

from muse_tui.compose.harmony import song_key
from muse_tui.contracts import ComposerPipeline, Reason, SongState, Track
from muse_tui.knowledge.edit_words import edit_words
from muse_tui.theory import midi_to_name

from .shape import Answer
from .song import _named_tracks

_TEMPO = re.compile(r"\b(tempo|bpm|fast|slow|speed|quick)\b")
_KEY = re.compile(r"\b(key|major|minor|mode|scale)\b")
_NAMED_KEY = re.compile(r"\b([a-g][#b]?) (major|minor)\b")
_REGISTER = re.compile(r"\b(low|lower|high|higher|deep|register|range|octave)\b")
_MISSING = re.compile(
    r"\b(?:no|without|isn'?t there (?:a|an|any)|is there no|where(?:'s| is) the)\s+(?:the\s+)?"
    r"([a-z0-9][a-z0-9 '-]*?)\s*\??$"
)
_BASS_ROLES = {"bass": ("bass", "sub_bass"), "sub_bass": ("sub_bass", "bass")}
WHAT_WHY_ANSWERS = (
    "I can say why the song has its key, its tempo, its parts (or lacks one) and why a part "
    "sits where it does, e.g. “why this tempo?” or “why is the bass so low?”."
)


def why(pipeline: ComposerPipeline, line: str) -> Answer:
    """The reason the song's record gives for what the line asks about."""
    lower = " ".join(line.lower().split())
    song = pipeline.song_state
    if missing := _MISSING.search(lower):
        return _missing(pipeline, missing.group(1))
    if _TEMPO.search(lower):
        return _tempo(pipeline)
    if _REGISTER.search(lower) and (tracks := _pitched(song, lower)):
        return _register(pipeline, tracks[0])
    if _KEY.search(lower):
        return _key(pipeline, lower)
    return Answer("why", WHAT_WHY_ANSWERS)


def reasons(pipeline: ComposerPipeline) -> dict[str, Reason]:
    """S1's reasons by topic (none for a session composed before they were kept)."""
    record = pipeline.stages.get(1)
    kept = getattr(record.output, "reasons", None) if record else None
    return {r.topic: r for r in kept or []}


def _said(reason: Reason) -> str:
    """The reason (to follow a colon) and, when a skill rule chose it, the rule with its value."""
    text = reason.because.rstrip(".")
    text = text[0].lower() + text[1:] if text[:4] in ("You ", "You'") else text
    return f"{text} ({reason.rule})." if reason.rule else f"{text}."


def _tempo(pipeline: ComposerPipeline) -> Answer:
    song = pipeline.song_state
    now = f"{song.tempo:g} BPM"
    reason = reasons(pipeline).get("tempo")
    if reason is None:
        analysis = pipeline.intent.tempo_analysis if pipeline.intent else None
        why = analysis.reasoning if analysis else "no record of why was kept for this session."
        return Answer("why", f"It is {now}: {why}", {"tempo": song.tempo})
    text = f"It is {now}: {_said(reason)}"
    if reason.choice != now:
        text = f"It is {now} because you changed it; it was composed at {reason.choice}: "
        text += _said(reason)
    facts = {"tempo": song.tempo, "because": reason.because, "rule": reason.rule}
    return Answer("why", text, facts)


def _key(pipeline: ComposerPipeline, line: str = "") -> Answer:
    now = song_key(pipeline.song_state).name
    reason = reasons(pipeline).get("key")
    named = _NAMED_KEY.search(line)
    guessed = f"{named.group(1).capitalize()} {named.group(2)}" if named else ""
    if guessed and guessed.lower() != now.lower():
        now = f"{now}, not {guessed}"
    if reason is None:
        analysis = pipeline.intent.key_analysis if pipeline.intent else None
        why = analysis.reasoning if analysis else "no record of why was kept for this session."
        return Answer("why", f"It is in {now}: {why}", {"key": now})
    text = f"It is in {now}: {_said(reason)}"
    if reason.choice.lower() != now.split(",")[0].lower():
        text = f"It is in {now} because you moved it there; it was composed in {reason.choice}: "
        text += _said(reason)
    return Answer("why", text, {"key": now, "because": reason.because, "rule": reason.rule})


def _pitched(song: SongState, line: str) -> list[Track]:
    """The pitched tracks the line names; a bass word finds the 808 and the other way round."""
    named = [t for t in _named_tracks(song, line) if t.role not in ("drums", "percussion")]
    if named:
        return named
    roles = {role for word, role in edit_words().role_words.items() if word in line}
    roles |= {r for r in _BASS_ROLES if r.replace("_", " ") in line or "808" in line}
    for role in roles:
        for stand_in in _BASS_ROLES.get(role, (role,)):
            found = [t for t in song.tracks if t.role == stand_in]
            if found:
                return found
    return []


def _register(pipeline: ComposerPipeline, track: Track) -> Answer:
    pitches = [n.pitch for r in track.regions for n in r.notes]
    if not pitches:
        return Answer("why", f"The {track.name} plays no notes in this song.")
    low, high = midi_to_name(min(pitches)), midi_to_name(max(pitches))
    record = pipeline.stages.get(4)
    parts = getattr(record.output, "tracks", None) if record else None
    pattern = next((p.pattern for p in parts or [] if p.track_id == track.id), None)
    text = f"The {track.name} plays {low} to {high}"
    facts = {"track": track.name, "lowest": low, "highest": high}
    if pattern is None or pattern.written_range is None:
        return Answer("why", f"{text}; no record of its register was kept for this session.", facts)
    bottom_pitch, top_pitch = pattern.written_range
    bottom, top = midi_to_name(bottom_pitch), midi_to_name(top_pitch)
    text += (
        f" because it is written in the {track.role.replace('_', ' ')} register, {bottom} to {top} "
        f"(MIDI {bottom_pitch}-{top_pitch}), set by {pattern.range_rule}."
    )
    facts |= {"register": list(pattern.written_range), "rule": pattern.range_rule}
    return Answer("why", text, facts)


def _missing(pipeline: ComposerPipeline, word: str) -> Answer:
    song = pipeline.song_state
    word = word.strip()
    playing = [t for t in song.tracks if word in t.name.lower() or word in (t.instrument or "")]
    if playing:
        names = ", ".join(f"{t.name} ({t.role.replace('_', ' ')})" for t in playing)
        return Answer("why", f"There is a {word}: {names}.", {"tracks": [t.name for t in playing]})
    band = reasons(pipeline).get("band")
    parts = ", ".join(f"{t.name} ({t.role.replace('_', ' ')})" for t in song.tracks)
    if band is None:
        return Answer("why", f"No part plays a {word}; the parts are {parts}.", {"missing": word})
    text = f"No part plays a {word}: {_said(band)} The parts are {parts}."
    return Answer("why", text, {"missing": word, "because": band.because, "rule": band.rule})
