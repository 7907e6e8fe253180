"""The pipeline contract: pydantic models every layer speaks.

JSON on disk uses camelCase (`to_json`), Python uses snake_case; every model
round-trips exactly and a bad field is named in the validation error.
"""

from types import ModuleType

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
from muse_tui.contracts.intent import (
    ALL_OUTPUTS,
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
    default_sensitivity_map,
)
from muse_tui.contracts.manifest import (
    FileType,
    ManifestFile,
    QualitySummary,
    SessionManifest,
    StageTimingEntry,
)
from muse_tui.contracts.pipeline import (
    CRITICAL_STAGES,
    FINISHED_STATUSES,
    STAGE_NAMES,
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
from muse_tui.contracts.song import (
    TRACK_ROLES,
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
    TrackRole,
    Transition,
)

__all__ = [
    name
    for name, value in globals().items()
    if not name.startswith("_") and not isinstance(value, ModuleType)
]
