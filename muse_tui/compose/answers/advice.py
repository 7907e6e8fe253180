"""Mixing and sampling advice for this song: its style's row of `skills/sound/mix-advice.json`
with the song's own tempo (a release timed to it), key root (the bass tuned to it, in Hz)
and parts filled in, and the file's sources named in the facts.
"""

from __future__ import annotations

from muse_tui.compose.harmony import song_key
from muse_tui.contracts import ComposerPipeline, SongState, Track
from muse_tui.knowledge.advice import ADVICE_FILE, NOTE_BEATS, StyleAdvice, advice_table
from muse_tui.theory import midi_to_name

from .shape import Answer

#: The register a bass is tuned in: the root's lowest octave from E1 (the 808 and bass guitar).
TUNING_FLOOR = 28


def _bass(song: SongState) -> Track | None:
    return next((t for t in song.tracks if t.role in ("sub_bass", "bass")), None)


def _root(song: SongState) -> tuple[str, str, float]:
    """The key's root as a name, the note to tune the bass to, and its frequency in Hz."""
    key = song_key(song)
    pitch = TUNING_FLOOR + (key.tonic_pc - TUNING_FLOOR) % 12
    hertz = 440 * 2 ** ((pitch - 69) / 12)
    return key.tonic_name, midi_to_name(pitch, key.tonic_name), hertz


def _base(pipeline: ComposerPipeline) -> tuple[SongState, str, StyleAdvice, dict[str, object]]:
    song = pipeline.song_state
    genres = list(pipeline.intent.genre) if pipeline.intent else []
    name, style = advice_table().for_genres(genres)
    key = song_key(song).name
    facts: dict[str, object] = {
        "style": name,
        "tempo": song.tempo,
        "key": key,
        "rule": f"skills/{ADVICE_FILE}: styles.{name}",
        "sources": list(advice_table().sources),
    }
    return song, name, style, facts


def mix(pipeline: ComposerPipeline, line: str = "") -> Answer:
    """How to fit the kick and the bass together in this song, and how hard to sidechain."""
    song, _, style, facts = _base(pipeline)
    bass = _bass(song)
    release_ms = NOTE_BEATS[style.release] * 60000 / song.tempo
    low, high = style.sidechain_db
    root, note, hertz = _root(song)
    who = bass.name if bass else "bass"
    article = "an" if style.release == "8th" else "a"
    kick = "kick" if any(t.role == "drums" for t in song.tracks) else "loudest low hit"
    text = (
        f"At {song.tempo:g} BPM in {facts['key']}: tune the {who} to {root} ({note}, "
        f"{hertz:.0f} Hz), the key's root, and sidechain it to the {kick} for {low:g}-{high:g} dB "
        f"of gain reduction at {style.ratio}, attack {style.attack_ms:g} ms, release about "
        f"{release_ms:.0f} ms ({article} {style.release} note here). "
        f"Then {style.low_end} ({facts['rule']}, with its sources)."
    )
    facts |= {
        "tuneTo": note,
        "hertz": round(hertz, 1),
        "sidechainDb": [low, high],
        "releaseMs": round(release_ms),
        "bass": who,
    }
    return Answer("mix_advice", text, facts)


def sample(pipeline: ComposerPipeline, line: str = "") -> Answer:
    """What to sample for this song and how to fit it to the song's tempo and key."""
    song, _, style, facts = _base(pipeline)
    key = song_key(song)
    relative = key.relative.name
    text = (
        f"For this song ({song.tempo:g} BPM, {key.name}) sample {style.sample}; "
        f"{style.fit} ({song.tempo / 2:g} or {song.tempo:g} BPM), and pick phrases in {key.name} "
        f"or its relative {relative}, or pitch them there ({facts['rule']}, with its sources)."
    )
    facts |= {"relative": relative, "halfTempo": song.tempo / 2}
    return Answer("sample_advice", text, facts)
