"""The pipeline contract: pydantic models every layer speaks.

JSON on disk uses camelCase (`to_json`), Python uses snake_case; every model
round-trips exactly and a bad field is named in the validation error.

Importing the package builds nothing: each name is loaded from its module on
first use (PEP 562), so a light module such as `contracts.vocabulary` can be
read (the studio's first frame, the settings file) without building every
pydantic model. `tests/unit/contracts/test_lazy_exports.py` keeps `_HOMES` and
the type checker's imports below the same list.
"""

# The imports under TYPE_CHECKING exist for the type checker only: they are not unused.
# ruff: noqa: F401

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Each public name, by the module of this package that defines it.
_MODULES: dict[str, tuple[str, ...]] = {
    "vocabulary": ("STAGE_NAMES", "TRACK_ROLES", "TrackRole"),
    "alternatives": (
        "Alternative",
        "AlternativeElement",
        "AlternativeSet",
        "ArrangementElement",
        "EffectChainElement",
        "PresetElement",
        "ProgressionElement",
        "TrackElement",
    ),
    "base": (
        "SCHEMA_VERSION",
        "Contract",
        "SessionId",
        "Uuid",
        "new_id",
        "new_session_id",
    ),
    "events": (
        "ApprovalRequested",
        "ApprovalResolved",
        "Decision",
        "PipelineEvent",
        "PipelineFinished",
        "PipelineStarted",
        "StageCompleted",
        "StageFailed",
        "StageProgress",
        "StageRetrying",
        "StageSkipped",
        "StageStarted",
    ),
    "intent": (
        "ALL_OUTPUTS",
        "TEMPO_LIMITS",
        "Ambiguity",
        "ArrangementTemplateName",
        "ArtistInfluence",
        "BassStyle",
        "ChordRhythm",
        "CreativityDials",
        "DrumFamily",
        "DurationRange",
        "GenreDNAVector",
        "IntentDecompositionResult",
        "KeyAnalysis",
        "PipelineIntent",
        "PipelineOutputType",
        "Reason",
        "StandingEdit",
        "Take",
        "TempoAnalysis",
        "VoicingStyle",
    ),
    "iteration": (
        "Cost",
        "ModificationRequest",
        "ModificationTarget",
        "SensitivityEntry",
        "SensitivityMap",
        "SensitivityTrigger",
    ),
    "position": ("Position", "Relation"),
    "manifest": (
        "FileType",
        "ManifestFile",
        "QualitySummary",
        "SessionManifest",
        "StageTimingEntry",
    ),
    "proposal": ("Proposal", "ProposalResult"),
    "pipeline": (
        "CRITICAL_STAGES",
        "FINISHED_STATUSES",
        "ArrangementOutput",
        "AssemblyOutput",
        "ComposerPipeline",
        "HarmonyOutput",
        "HumanizationConfig",
        "IntentOutput",
        "OutputOutput",
        "PartsOutput",
        "PatternSummary",
        "PipelineConfig",
        "PipelineStatus",
        "PresetAssignment",
        "QualityGateConfig",
        "RecoveryState",
        "SoundsOutput",
        "StageError",
        "StageErrorCode",
        "StageOutput",
        "StageRecord",
        "StageStatus",
        "ToolCallRecord",
        "TrackGenerationResult",
        "ValidationOutput",
    ),
    "meter": ("COMMON_TIME", "BarMap", "Meter", "default_grouping"),
    "song": (
        "Arrangement",
        "Bus",
        "Change",
        "ChordPlan",
        "ControlChange",
        "Effect",
        "EffectChain",
        "EnrichedProgression",
        "HarmonicFunction",
        "HistoryEntry",
        "Note",
        "PitchBend",
        "PresetReference",
        "ProgressionChord",
        "QualityScore",
        "Region",
        "Section",
        "SectionKind",
        "SongState",
        "Track",
        "Transition",
    ),
}
_HOMES: dict[str, str] = {name: module for module, names in _MODULES.items() for name in names}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    """Load `name` from its module the first time it is asked for, then keep it here."""
    module = _HOMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


if TYPE_CHECKING:
    from muse_tui.contracts.alternatives import (
        Alternative,
        AlternativeElement,
        AlternativeSet,
        ArrangementElement,
        EffectChainElement,
        PresetElement,
        ProgressionElement,
        TrackElement,
    )
    from muse_tui.contracts.base import (
        SCHEMA_VERSION,
        Contract,
        SessionId,
        Uuid,
        new_id,
        new_session_id,
    )
    from muse_tui.contracts.events import (
        ApprovalRequested,
        ApprovalResolved,
        Decision,
        PipelineEvent,
        PipelineFinished,
        PipelineStarted,
        StageCompleted,
        StageFailed,
        StageProgress,
        StageRetrying,
        StageSkipped,
        StageStarted,
    )
    from muse_tui.contracts.intent import (
        ALL_OUTPUTS,
        TEMPO_LIMITS,
        Ambiguity,
        ArrangementTemplateName,
        ArtistInfluence,
        BassStyle,
        ChordRhythm,
        CreativityDials,
        DrumFamily,
        DurationRange,
        GenreDNAVector,
        IntentDecompositionResult,
        KeyAnalysis,
        PipelineIntent,
        PipelineOutputType,
        Reason,
        StandingEdit,
        Take,
        TempoAnalysis,
        VoicingStyle,
    )
    from muse_tui.contracts.iteration import (
        Cost,
        ModificationRequest,
        ModificationTarget,
        SensitivityEntry,
        SensitivityMap,
        SensitivityTrigger,
    )
    from muse_tui.contracts.manifest import (
        FileType,
        ManifestFile,
        QualitySummary,
        SessionManifest,
        StageTimingEntry,
    )
    from muse_tui.contracts.meter import COMMON_TIME, BarMap, Meter, default_grouping
    from muse_tui.contracts.pipeline import (
        CRITICAL_STAGES,
        FINISHED_STATUSES,
        ArrangementOutput,
        AssemblyOutput,
        ComposerPipeline,
        HarmonyOutput,
        HumanizationConfig,
        IntentOutput,
        OutputOutput,
        PartsOutput,
        PatternSummary,
        PipelineConfig,
        PipelineStatus,
        PresetAssignment,
        QualityGateConfig,
        RecoveryState,
        SoundsOutput,
        StageError,
        StageErrorCode,
        StageOutput,
        StageRecord,
        StageStatus,
        ToolCallRecord,
        TrackGenerationResult,
        ValidationOutput,
    )
    from muse_tui.contracts.position import Position, Relation
    from muse_tui.contracts.proposal import Proposal, ProposalResult
    from muse_tui.contracts.song import (
        Arrangement,
        Bus,
        Change,
        ChordPlan,
        ControlChange,
        Effect,
        EffectChain,
        EnrichedProgression,
        HarmonicFunction,
        HistoryEntry,
        Note,
        PitchBend,
        PresetReference,
        ProgressionChord,
        QualityScore,
        Region,
        Section,
        SectionKind,
        SongState,
        Track,
        Transition,
    )
    from muse_tui.contracts.vocabulary import STAGE_NAMES, TRACK_ROLES, TrackRole
