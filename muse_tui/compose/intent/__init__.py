"""S1, intent decomposition: a producer's prompt becomes a typed `PipelineIntent`."""

from muse_tui.compose.intent.blend import blend_genres
from muse_tui.compose.intent.decompose import decompose
from muse_tui.compose.intent.enrich import SONG_BARS

__all__ = ["SONG_BARS", "blend_genres", "decompose"]
