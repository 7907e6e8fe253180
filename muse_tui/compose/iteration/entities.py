"""The things a DAW request names: tracks by name or number, and which DAW edit a line asks for.

"track 2", "the Rhodes", "the keys": a track is found by its number (counted
from 1, as the mixer shows it), its name, its instrument, or its role. A role
two tracks share is not guessed: the producer is asked which, in one sentence
with the options.
"""

from __future__ import annotations

import re

from muse_tui.contracts import SongState, Track

from .revision import ROLE_FALLBACKS, EditError, listed


def find_track(song: SongState, named: str) -> Track:
    """The one track `named` names: 'track 2', 'the Rhodes', 'Piano', 'the keys'.

    A role two tracks share raises EditError asking which, with their names.
    """
    text = " ".join(re.sub(r"\bthe\b", " ", named.lower()).split())
    if number := re.fullmatch(r"(?:track|channel)\s*(\d{1,2})", text):
        index = int(number.group(1)) - 1
        if not 0 <= index < len(song.tracks):
            raise EditError(f"there is no track {index + 1}; the song has {len(song.tracks)}.")
        return song.tracks[index]
    for match in (_by_name, _by_instrument, _by_role):
        found = match(song, text)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            options = track_options(song, found)
            raise WhichTrack(f"Which {text}: {', '.join(options[:-1])} or {options[-1]}?", options)
    have = listed([f"{i + 1} {t.name}" for i, t in enumerate(song.tracks)])
    raise EditError(f"there is no {text} in this song (tracks: {have}).")


class WhichTrack(EditError):
    """Two or more tracks answer to the words: the question, and the tracks to choose from."""

    def __init__(self, question: str, options: list[str]) -> None:
        super().__init__(question)
        self.options = options


def track_options(song: SongState, tracks: list[Track]) -> list[str]:
    """How a question offers tracks that share a name or role: 'track 3 (Piano, chords)'."""
    return [
        f"track {song.tracks.index(t) + 1} ({t.name}, {t.role.replace('_', ' ')})" for t in tracks
    ]


def _by_name(song: SongState, text: str) -> list[Track]:
    return [t for t in song.tracks if t.name.lower() == text]


def _by_instrument(song: SongState, text: str) -> list[Track]:
    return [t for t in song.tracks if t.instrument and t.instrument.lower() == text]


def _by_role(song: SongState, text: str) -> list[Track]:
    said = text.replace(" ", "_")
    for role in dict.fromkeys([said, said.removesuffix("s")]):  # "pads" is the pad
        for wanted in (role, *ROLE_FALLBACKS.get(role, ())):
            found = [t for t in song.tracks if t.role == wanted]
            if found:
                return found
    return []
