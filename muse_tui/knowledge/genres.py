"""Genre DNA from `skills/harmony/genre-dna.json`: one `GenreDNAVector` per genre id, cached.

In the file a genre's id is its key, so entries leave out `genre`; the loader
fills it in and checks what pydantic cannot: ids, modes and key names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import Field

from muse_tui.contracts.base import Contract
from muse_tui.contracts.intent import GenreDNAVector
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.rhythm import FAMILIES_DIR, rhythm_table
from muse_tui.knowledge.table import NamedEntries, skill_table

GENRE_FILE = "harmony/genre-dna.json"

Mode = Literal["major", "minor", "dorian", "mixolydian", "phrygian", "lydian", "harmonic_minor"]
MODES: tuple[str, ...] = Mode.__args__  # type: ignore[attr-defined]

_GENRE_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_TONIC = re.compile(r"^[A-G][#b]?$")


class GenreEntry(GenreDNAVector):
    """A genre as written in the file: the id is the key, so `genre` may be left out."""

    genre: str = ""
    about: str = Field(default="", description="where its sounds and patterns come from")


class _GenreFile(Contract):
    about: str = ""
    version: int = 1
    genres: dict[str, GenreEntry] = Field(min_length=1)


class GenreTable(NamedEntries[GenreDNAVector]):
    """Every genre's DNA by id, in the file's order."""

    @property
    def genres(self) -> Mapping[str, GenreDNAVector]:
        return self.entries


@skill_table
def genre_table(root: Path) -> GenreTable:
    """The genre DNA under `root`, validated and cached."""
    raw = load_table(GENRE_FILE, _GenreFile, root=root)
    path = root / GENRE_FILE
    families = rhythm_table(root).drums.families
    genres: dict[str, GenreDNAVector] = {}
    for genre_id, entry in raw.genres.items():
        where = f"genres.{genre_id}"
        if not _GENRE_ID.match(genre_id):
            raise SkillFileError(path, f"{where}: a genre id must be snake_case like 'deep_house'")
        if entry.genre not in ("", genre_id):
            raise SkillFileError(path, f"{where}.genre: must be {genre_id!r} (the key) or left out")
        for mode in entry.preferred_modes:
            if mode not in MODES:
                raise SkillFileError(
                    path, f"{where}.preferredModes: {mode!r} is not one of {', '.join(MODES)}"
                )
        for key in entry.preferred_keys:
            if not _TONIC.match(key):
                raise SkillFileError(
                    path, f"{where}.preferredKeys: {key!r} is not a tonic like 'A', 'C#' or 'Eb'"
                )
        low, high = entry.progression_length
        if not 1 <= low <= high:
            raise SkillFileError(path, f"{where}.progressionLength: must be ascending, from 1")
        if entry.drum_family != "none" and entry.drum_family not in families:
            raise SkillFileError(
                path,
                f"{where}.drumFamily: {entry.drum_family!r} is not a family in {FAMILIES_DIR}/",
            )
        if entry.blend:
            raise SkillFileError(path, f"{where}.blend: only blends made in code have a blend")
        fields = entry.model_dump(exclude={"genre", "about"})
        genres[genre_id] = GenreDNAVector.model_validate({**fields, "genre": genre_id})
    return GenreTable(path=path, entries=genres, kind="genre")
