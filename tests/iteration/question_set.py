"""Forty questions a producer asks (issue 15), each checked against the session it is asked of.

Shared by `test_question_set.py` and `bench/questions.py`. Two seeded songs are
composed once; every question is answered from its session folder and
checkpoint (`compose.answers.answer`, what `muse-studio ask` and the studio
use), and its check reads the fact from the session itself: the key answered is
the song's key, the chords are the progression's symbols, a preset is the
track's own preset. Theory questions are checked against music21, an
independent oracle. After all forty, no file of either session has changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from muse_tui.compose.answers import Answer, answer
from muse_tui.compose.harmony import song_key
from muse_tui.contracts import SongState
from muse_tui.store.checkpoint import load_checkpoint

from . import everyday
from .everyday import Song

SONGS = {
    "soul": ("neo soul, Eb minor, 90 BPM, drums bass chords lead", 2),
    "trap": ("dark trap, 140, key of Am", 5),
}

Check = Callable[[Answer, SongState], None]


@dataclass(frozen=True)
class Question:
    song: str | None  # None: theory, asked with no session
    text: str
    check: Check


@dataclass
class Outcome:
    question: Question
    answered: bool
    why: str = ""


def compose_songs(root: Path) -> dict[str, Song]:
    """The two songs, composed once with their seeds (32 bars, no gates)."""
    return everyday.compose_songs(root, SONGS)


def fingerprints(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha1(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def ask(question: Question, songs: dict[str, Song]) -> Outcome:
    """Answer one question from its session (read afresh from disk) and check the fact."""
    if question.song is None:
        said = answer(question.text, None, None)
        song = SongState()
    else:
        folder = songs[question.song].folder
        pipeline = load_checkpoint(folder)
        said = answer(question.text, pipeline, folder)
        song = pipeline.song_state
    try:
        question.check(said, song)
    except AssertionError as exc:
        return Outcome(question, False, f"{exc} — answered ({said.topic}): {said.text[:160]!r}")
    return Outcome(question, True)


# ── checks: each reads its fact from the session ─────────────────────────────────────


def _in(text: str, *facts: str) -> None:
    missing = [f for f in facts if f not in text]
    assert not missing, f"missing {missing}"


def key_fact(said: Answer, song: SongState) -> None:
    _in(said.text, f"{song_key(song).tonic} {song_key(song).mode}")


def tempo_fact(said: Answer, song: SongState) -> None:
    _in(said.text, f"{song.tempo:g} BPM")


def chords_fact(said: Answer, song: SongState) -> None:
    assert song.progression is not None
    _in(said.text, *(c.symbol for c in song.progression.chords))


def sections_fact(said: Answer, song: SongState) -> None:
    assert song.arrangement is not None
    _in(said.text, *(s.name for s in song.arrangement.sections))


def section_players(kind: str) -> Check:
    """Who plays in the first section of `kind`, by track name, as the arrangement says."""

    def check(said: Answer, song: SongState) -> None:
        assert song.arrangement is not None
        section = next(s for s in song.arrangement.sections if s.kind == kind)
        names = [t.name for t in song.tracks if t.role in section.active_roles]
        _in(said.text, section.name, *names)

    return check


def preset_of(role: str) -> Check:
    def check(said: Answer, song: SongState) -> None:
        track = next(t for t in song.tracks if t.role == role)
        assert track.preset is not None
        _in(said.text, track.name, track.preset.name)

    return check


def track_of(role: str) -> Check:
    def check(said: Answer, song: SongState) -> None:
        track = next(t for t in song.tracks if t.role == role)
        _in(said.text, track.name, f"{len(track.notes)} notes")

    return check


def tracks_fact(said: Answer, song: SongState) -> None:
    _in(said.text, *(t.name for t in song.tracks))


def mpc_fact(said: Answer, song: SongState) -> None:
    _in(said.text, "MPC Beats", f"{song.tempo:g} BPM")


def chord_notes(symbol: str) -> Check:
    """The notes music21 spells for the chord, every one named."""

    def check(said: Answer, song: SongState) -> None:
        from music21 import harmony

        # music21's spelling: B- for Bb, M for maj.
        figure = symbol[0] + symbol[1:].replace("maj", "M").replace(
            "b", "-", 1 if symbol[1:2] == "b" else 0
        )
        expected = {_pc(p.name) for p in harmony.ChordSymbol(figure).pitches}
        named = {_pc(word) for word in _note_words(said.text.split(":", 1)[-1])}
        assert expected <= named, f"music21: {sorted(expected)}; answered {sorted(named)}"

    return check


def scale_notes(tonic: str, mode: str) -> Check:
    def check(said: Answer, song: SongState) -> None:
        from music21 import scale

        kinds = {"major": scale.MajorScale, "minor": scale.MinorScale, "dorian": scale.DorianScale,
                 "mixolydian": scale.MixolydianScale, "phrygian": scale.PhrygianScale,
                 "lydian": scale.LydianScale}  # fmt: skip
        expected = {_pc(p.name) for p in kinds[mode](tonic.replace("b", "-")).getPitches()}
        named = {_pc(word) for word in _note_words(said.text.split(":", 1)[-1])}
        assert named == expected, f"music21: {sorted(expected)}; answered {sorted(named)}"

    return check


def numerals(key: str, expected: dict[str, str]) -> Check:
    """Each numeral's chord in the key, as music21's roman numerals root it."""

    def check(said: Answer, song: SongState) -> None:
        from music21 import roman

        for numeral, symbol in expected.items():
            root = roman.RomanNumeral(numeral, key.replace("b", "-")).root().name
            assert _pc(root) == _pc(symbol.rstrip("m")), f"{numeral} in {key}: {root}"
            _in(said.text, f"{numeral} = {symbol}")

    return check


_PCS = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}


def _pc(name: str) -> int:
    pc = _PCS[name[0].upper()]
    for accidental in name[1:]:
        pc += {"#": 1, "♯": 1, "b": -1, "-": -1, "♭": -1}.get(accidental, 0)
    return pc % 12


def _note_words(text: str) -> list[str]:
    words = [w.strip(".,;()") for w in text.replace("–", " ").split()]
    return [w for w in words if w and w[0] in "ABCDEFG" and all(c in "#b♯♭-" for c in w[1:])]


# ── the set ───────────────────────────────────────────────────────────────────────────

QUESTIONS: tuple[Question, ...] = (
    # the key, and why
    Question("soul", "what key is it in?", key_fact),
    Question("soul", "why did you pick Eb minor?", key_fact),
    Question("trap", "what key is this in", key_fact),
    Question("trap", "why this key?", key_fact),
    Question("soul", "which key are we in?", key_fact),
    # tempo
    Question("soul", "what's the tempo?", tempo_fact),
    Question("trap", "how fast is it?", tempo_fact),
    Question("trap", "what bpm is it?", tempo_fact),
    # the chords, numerals and function
    Question("soul", "what are the chords?", chords_fact),
    Question("trap", "what chords does it use?", chords_fact),
    Question("soul", "what's the progression?", chords_fact),
    Question("trap", "show me the chords", chords_fact),
    # sections and who plays
    Question("soul", "what plays in each section?", sections_fact),
    Question("trap", "what are the sections?", sections_fact),
    Question("soul", "what plays in the chorus?", section_players("chorus")),
    Question("trap", "what's in the hook?", section_players("hook")),
    Question("soul", "how is the song structured?", sections_fact),
    # sounds: preset and effect chain, and why
    Question("soul", "what preset should I use for the bass?", preset_of("bass")),
    Question("soul", "what sound is the lead?", preset_of("lead")),
    Question("trap", "what preset is the 808?", preset_of("sub_bass")),
    Question("trap", "which sound should the drums use?", preset_of("drums")),
    Question("soul", "what effects are on the chords?", preset_of("chords")),
    # the tracks
    Question("soul", "what's the bass doing?", track_of("bass")),
    Question("trap", "what does the lead play?", track_of("lead")),
    Question("soul", "which tracks are there?", tracks_fact),
    Question("trap", "what instruments are in it?", tracks_fact),
    # MPC Beats
    Question("soul", "how do I load it in MPC Beats?", mpc_fact),
    Question("trap", "how do I get this into MPC?", mpc_fact),
    # theory, no session
    Question(None, "notes in Cmaj9", chord_notes("Cmaj9")),
    Question(None, "what notes are in F#m7?", chord_notes("F#m7")),
    Question(None, "notes in Bb7", chord_notes("Bb7")),
    Question(None, "what's in a Dm7b5 chord?", chord_notes("Dm7b5")),
    Question(None, "notes in Ab", chord_notes("Ab")),
    Question(None, "what is a ii-V in Eb", numerals("Eb", {"ii": "Fm", "V": "Bb"})),
    Question(None, "what is a I IV V in G", numerals("G", {"I": "G", "IV": "C", "V": "D"})),
    Question(None, "what is a ii V I in C", numerals("C", {"ii": "Dm", "V": "G", "I": "C"})),
    Question(None, "notes of D dorian", scale_notes("D", "dorian")),
    Question(None, "what notes are in the E minor scale?", scale_notes("E", "minor")),
    Question(None, "notes of Bb major", scale_notes("Bb", "major")),
    Question(None, "notes of G mixolydian", scale_notes("G", "mixolydian")),
)
