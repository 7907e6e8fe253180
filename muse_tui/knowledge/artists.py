"""Artists a producer may name, from `skills/harmony/artist-genre-map.json`, validated and cached.

Names match case-insensitively and without accents, except names that are
also everyday words ("Future", "Queen"), marked `caseSensitive`: those match
only as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.lexicon import Phrase, fold, intent_lexicon
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.table import NamedEntries, skill_table

ARTIST_FILE = "harmony/artist-genre-map.json"

ArtistCategory = Literal[
    "hip_hop", "rnb", "electronic", "jazz", "pop", "rock", "latin_afro", "soundtrack"
]
ARTIST_CATEGORIES: tuple[str, ...] = ArtistCategory.__args__  # type: ignore[attr-defined]


class ArtistEntry(Contract):
    """What naming an artist brings: a genre, a tempo range, traits and moods."""

    genre: str
    category: ArtistCategory
    tempo: tuple[float, float]
    traits: list[str] = Field(min_length=1)
    moods: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    sub_genre: str | None = None
    case_sensitive: bool = False

    @model_validator(mode="after")
    def _tempo_ascending(self) -> ArtistEntry:
        low, high = self.tempo
        if not 20 <= low <= high <= 300:
            raise ValueError(f"tempo {list(self.tempo)} must be ascending within 20–300 BPM")
        return self


class _ArtistFile(Contract):
    about: str = ""
    version: int = 1
    artists: dict[str, ArtistEntry] = Field(min_length=1)


@dataclass(frozen=True)
class ArtistTable(NamedEntries[ArtistEntry]):
    """Every known artist by name, and the phrases that name them."""

    phrases: tuple[Phrase, ...] = ()

    @property
    def artists(self) -> Mapping[str, ArtistEntry]:
        return self.entries


@skill_table
def artist_table(root: Path) -> ArtistTable:
    """The artist map under `root`, validated and cached."""
    known_genres = genre_table(root)
    words = intent_lexicon(root)
    path = root / ARTIST_FILE
    raw = load_table(ARTIST_FILE, _ArtistFile, root=root)
    seen: dict[str, str] = {}
    phrases: list[Phrase] = []
    for name, entry in raw.artists.items():
        where = f"artists.{name}"
        if entry.genre not in known_genres:
            raise SkillFileError(
                path, f"{where}.genre: {entry.genre!r} is not a genre in genre-dna.json"
            )
        for mood in entry.moods:
            if mood not in words.moods:
                raise SkillFileError(
                    path, f"{where}.moods: {mood!r} is not a mood in intent-lexicon.json"
                )
        if entry.sub_genre is not None and entry.sub_genre not in words.sub_genres:
            raise SkillFileError(
                path, f"{where}.subGenre: {entry.sub_genre!r} is not in intent-lexicon.json"
            )
        for spelling in [name, *entry.aliases]:
            folded = " ".join(fold(spelling).lower().split())
            if folded in seen and seen[folded] != name:
                raise SkillFileError(
                    path, f"{where}.aliases: {spelling!r} already names {seen[folded]!r}"
                )
            seen[folded] = name
            phrases.append(Phrase.of("artist", name, spelling, case_sensitive=entry.case_sensitive))
    return ArtistTable(path, dict(raw.artists), "artist", phrases=tuple(phrases))


def reload_intent_knowledge() -> None:
    """Forget genre DNA, the lexicon and the artists at once: each is checked against the others."""
    genre_table.reload()
    intent_lexicon.reload()
    artist_table.reload()
