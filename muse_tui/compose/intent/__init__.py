"""S1, intent decomposition: a producer's prompt becomes a typed `PipelineIntent`."""

from muse_tui.compose.intent.blend import blend_genres
from muse_tui.compose.intent.decompose import decompose

__all__ = ["blend_genres", "decompose"]
