"""The listening prompt set (bench/prompts/listening.json), checked on load."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

PROMPTS_FILE = Path(__file__).resolve().parent.parent / "prompts" / "listening.json"


@dataclass(frozen=True)
class Instrument:
    """What honours an instrument word: track roles, GM programs, or GM drum notes."""

    roles: tuple[str, ...] = ()
    programs: tuple[int, ...] = ()
    drum_notes: tuple[int, ...] = ()


@dataclass(frozen=True)
class ListeningPrompt:
    """One prompt and what a producer expects of its song."""

    prompt: str
    genres: tuple[str, ...]
    family: str
    key: str | None
    instruments: tuple[str, ...]
    lead: bool
    crashes: bool
    listed_roles: tuple[str, ...] = ()

    @property
    def genre(self) -> str:
        return self.genres[0]


@dataclass(frozen=True)
class PromptSet:
    prompts: list[ListeningPrompt]
    instruments: dict[str, Instrument]
    role_aliases: dict[str, tuple[str, ...]]
    variety: list[str] = field(default_factory=list)


def load_prompts(path: Path = PROMPTS_FILE) -> PromptSet:
    """Read and check the prompt set; a bad entry raises ValueError naming file and field."""
    data = json.loads(path.read_text())
    instruments = {
        word: Instrument(
            tuple(spec.get("roles", ())),
            tuple(spec.get("programs", ())),
            tuple(spec.get("drumNotes", ())),
        )
        for word, spec in data["instruments"].items()
    }
    aliases = {word: tuple(roles) for word, roles in data["listedRoles"].items()}
    prompts = []
    for i, raw in enumerate(data["prompts"]):
        where = f"{path.name}: prompts[{i}]"
        for key in ("prompt", "genre", "family", "key", "instruments", "lead", "crashes"):
            if key not in raw:
                raise ValueError(f"{where} has no {key!r}")
        unknown = [w for w in raw["instruments"] if w not in instruments]
        if unknown:
            raise ValueError(f"{where}.instruments names {unknown}, not in `instruments`")
        unlisted = [w for w in raw.get("listedRoles", ()) if w not in aliases]
        if unlisted:
            raise ValueError(f"{where}.listedRoles names {unlisted}, not in `listedRoles`")
        prompts.append(
            ListeningPrompt(
                prompt=raw["prompt"],
                genres=tuple(raw["genre"]),
                family=raw["family"],
                key=raw["key"],
                instruments=tuple(raw["instruments"]),
                lead=bool(raw["lead"]),
                crashes=bool(raw["crashes"]),
                listed_roles=tuple(raw.get("listedRoles", ())),
            )
        )
    return PromptSet(prompts, instruments, aliases, list(data.get("variety", ())))
