"""A round of the jam as a song: what the files of a round, and a kept loop, are made of."""

from __future__ import annotations

from muse_tui.contracts import Arrangement, Section, SongState, new_id
from muse_tui.contracts.jam import JamRound

from ..seeding import derive_rng

#: A kept loop is repeated to at least this many bars (the shortest song a session holds).
KEPT_BARS = 8
#: The energy a kept loop's sections carry (what the sounds and critics read): a full groove.
LOOP_ENERGY = 0.7


def round_song(prompt: str, seed: int, round_: JamRound, least_bars: int = 1) -> SongState:
    """A round as a song: each member's part, the loop repeated to at least `least_bars`."""
    context = round_.context
    repeats = max(1, -(-least_bars // context.bars))
    sections = [
        Section(
            name=f"Loop {index + 1}",
            kind="verse",
            start_bar=index * context.bars,
            bars=context.bars,
            energy=LOOP_ENERGY,
            active_roles=[m.track.role for m in round_.members if not m.laid_out],
        )
        for index in range(repeats)
    ]
    rng = derive_rng(seed, "jam", "song", round_.number)
    tracks = []
    for member in round_.members:
        regions = []
        if member.part is not None and member.part.notes and not member.laid_out:
            for section in sections:
                regions.append(
                    member.part.model_copy(
                        update={
                            "id": new_id(rng),
                            "name": f"{member.track.name} · {section.name}",
                            "start_beat": section.start_bar * context.beats_per_bar,
                        }
                    )
                )
        tracks.append(member.track.model_copy(update={"regions": regions}))
    return SongState(
        seed=seed,
        title=prompt.strip()[:80],
        tempo=context.tempo,
        key=context.key,
        mode=context.mode,
        progression=context.progression,
        arrangement=Arrangement(template="jam", sections=sections),
        tracks=tracks,
        **round_.context.song_time,  # type: ignore[arg-type]
    )
