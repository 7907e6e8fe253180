"""S7: critics that listen to the finished song and score it 0–1 on four axes.

Harmony (do the notes stay in the key and on the chords, do the chords move
smoothly and actually change, do the harmony parts play different things),
rhythm (does the groove hold within a section, fit the genre, is it as busy as
the genre, does the lead breathe), arrangement (do sections differ in energy and
not by copy-paste, is the form balanced, does every requested instrument play,
does the lead have an idea that returns) and vibe (tempo, mode and register
against the genre and the moods). Weights and thresholds are data
(`skills/critics/critics.json`). Every score is a pure function of the song and
the intent: the same song always scores the same.
"""

from __future__ import annotations

from muse_tui.compose.critics.arrangement import judge_arrangement
from muse_tui.compose.critics.harmony import judge_harmony
from muse_tui.compose.critics.listening import WEAK_AXIS, Verdict, clamp, part_of
from muse_tui.compose.critics.rhythm import judge_rhythm
from muse_tui.compose.critics.vibe import judge_vibe
from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.pipeline import QualityGateConfig
from muse_tui.contracts.song import QualityScore, SongState

#: The stage that regenerates each axis. Vibe goes to the parts: the mode comes from
#: the intent, which a retry cannot change, but new parts move the register and feel.
STAGE_FOR_AXIS: dict[str, int] = {"harmony": 2, "arrangement": 3, "rhythm": 4, "vibe": 4}

__all__ = ["STAGE_FOR_AXIS", "WEAK_AXIS", "Verdict", "score_song", "weakest_stage"]


def score_song(
    song: SongState, intent: PipelineIntent | None, config: QualityGateConfig | None = None
) -> QualityScore:
    """Score the four axes; pass means every axis ≥ min_axis and their mean ≥ min_composite."""
    config = config or QualityGateConfig()
    parts = [part_of(t) for t in song.tracks if not t.mute]
    verdicts: dict[str, Verdict] = {
        "harmony": judge_harmony(song, parts, intent=intent),
        "rhythm": judge_rhythm(song, intent, parts),
        "arrangement": judge_arrangement(song, parts, intent=intent),
        "vibe": judge_vibe(song, intent, parts),
    }
    scores = {axis: round(clamp(v.score), 3) for axis, v in verdicts.items()}
    composite = round(sum(scores.values()) / len(scores), 3)
    passed = min(scores.values()) >= config.min_axis and composite >= config.min_composite
    notes = [v.note for v in verdicts.values() if v.note]
    return QualityScore(**scores, composite=composite, passed=passed, notes=notes)


def weakest_stage(score: QualityScore) -> int:
    """The stage to regenerate: the lowest axis's (ties go to the earliest stage)."""
    axis = min(STAGE_FOR_AXIS, key=lambda a: (getattr(score, a), STAGE_FOR_AXIS[a]))
    return STAGE_FOR_AXIS[axis]
