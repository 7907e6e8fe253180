"""A small arranged song built by hand: one region a section, one note a bar, for pure edits."""

from __future__ import annotations

from typing import cast

from muse_tui.compose.iteration.revision import Revision
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import (
    Arrangement,
    Note,
    PipelineIntent,
    Region,
    Section,
    SongState,
    Track,
    new_id,
)

FORM = [("intro", 4), ("verse", 8), ("chorus", 8), ("verse", 8), ("chorus", 8), ("bridge", 8),
        ("chorus", 8), ("outro", 4)]  # fmt: skip


def form_song() -> SongState:
    """Intro, verse, chorus ×2, bridge, last chorus, outro; bass plays the bar number as a pitch."""
    sections, bar = [], 0
    counts: dict[str, int] = {}
    for kind, bars in FORM:
        counts[kind] = counts.get(kind, 0) + 1
        total = sum(1 for k, _ in FORM if k == kind)
        name = kind.title() if total == 1 else f"{kind.title()} {counts[kind]}"
        sections.append(
            Section(
                name=name,
                kind=kind,
                start_bar=bar,
                bars=bars,
                energy=0.5,
                active_roles=["bass", "keys"],
            )  # type: ignore[arg-type]
        )
        bar += bars
    arrangement = Arrangement(template="pop", sections=sections, energy_arc=[0.5] * bar)
    tracks = []
    for n, role in enumerate(("bass", "keys")):
        regions = [
            Region(
                id=new_id(derive_rng(n, s.start_bar)),
                name=f"{role} · {s.name}",
                start_beat=s.start_bar * 4.0,
                length_beats=s.bars * 4.0,
                notes=[
                    Note(
                        pitch=30 + s.start_bar + i,
                        velocity=90,
                        start_beat=i * 4.0 + 0.5,
                        duration_beats=1.0,
                        channel=n,
                    )
                    for i in range(s.bars)
                ],
            )
            for s in sections
        ]
        tracks.append(
            Track(
                id=new_id(derive_rng(n, "track")),
                name=role.title(),
                role=role,
                channel=n,
                regions=regions,
            )
        )  # type: ignore[arg-type]
    return SongState(seed=3, key="C", mode="major", tracks=tracks, arrangement=arrangement)


def revision_of(song: SongState) -> Revision:
    """A revision over the song; the pure section edits read no intent."""
    return Revision(song=song, intent=cast(PipelineIntent, None))
