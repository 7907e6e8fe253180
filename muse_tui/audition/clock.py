"""The transport clock: song beats to `perf_counter` seconds and back.

A `Transport` is an immutable snapshot. The player thread replaces it whole (on
play, stop, tempo change, loop wrap) and the UI thread reads it without a lock,
computing the playhead from the clock, so the player never wakes just to move
the playhead.

Time is piecewise linear in beats: each `TempoSegment` anchors a beat to an
absolute `perf_counter` time. Every event time is computed from those anchors,
never from the previous wake-up, so sleep overshoot cannot accumulate into drift.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

#: Beats closer than this to a whole beat or bar line count as on it (float noise).
ON_THE_LINE = 1e-9


@dataclass(frozen=True, slots=True)
class TempoSegment:
    """From `beat` on (at `time`, a perf_counter reading), one beat lasts `seconds_per_beat`."""

    beat: float
    time: float
    seconds_per_beat: float

    @property
    def bpm(self) -> float:
        return 60.0 / self.seconds_per_beat


@dataclass(frozen=True, slots=True)
class Playhead:
    """Where the song is: bar and beat count from 0, like `Section.start_bar`.

    `beat` is the position inside the bar (0 ≤ beat < beats per bar); `seconds`
    is the song position at the current tempo; `song_beat` is beats from the top.
    """

    bar: int
    beat: float
    seconds: float
    playing: bool
    tempo: float
    song_beat: float
    looping: bool = False


@dataclass(frozen=True, slots=True)
class Transport:
    """Whether the song moves, and how its beats map to the clock."""

    playing: bool = False
    segments: tuple[TempoSegment, ...] = (TempoSegment(0.0, 0.0, 0.5),)
    beats_per_bar: float = 4.0
    loop: tuple[float, float] | None = None
    end_beat: float = math.inf

    @classmethod
    def stopped_at(
        cls, beat: float, bpm: float, beats_per_bar: float, loop: tuple[float, float] | None = None
    ) -> Transport:
        """A transport standing still at `beat`."""
        return cls(False, (TempoSegment(beat, 0.0, 60.0 / bpm),), beats_per_bar, loop)

    @property
    def tempo(self) -> float:
        """The tempo most recently asked for (it may take effect on the next beat)."""
        return self.segments[-1].bpm

    def started(self, beat: float, at: float, end_beat: float = math.inf) -> Transport:
        """This transport rolling from `beat` at clock time `at`, at the latest tempo."""
        segment = TempoSegment(beat, at, self.segments[-1].seconds_per_beat)
        return replace(self, playing=True, segments=(segment,), end_beat=end_beat)

    def stopped(self, now: float) -> Transport:
        """This transport standing still where it is at `now`."""
        return replace(
            self,
            playing=False,
            segments=(TempoSegment(self.position(now), 0.0, self.segments[-1].seconds_per_beat),),
        )

    def time_at(self, beat: float) -> float:
        """The clock time at which `beat` plays (only meaningful while playing)."""
        segment = self.segments[0]
        for later in self.segments[1:]:
            if later.beat > beat:
                break
            segment = later
        return segment.time + (beat - segment.beat) * segment.seconds_per_beat

    def beat_at(self, now: float) -> float:
        """The song beat at clock time `now`, without loop folding or end clamping."""
        if not self.playing:
            return self.segments[0].beat
        segment = self.segments[0]
        for later in self.segments[1:]:
            if later.time > now:
                break
            segment = later
        return segment.beat + (now - segment.time) / segment.seconds_per_beat

    def position(self, now: float) -> float:
        """The song beat a listener hears at `now`: folded into the loop, clamped at the end."""
        beat = self.beat_at(now)
        if self.playing and self.loop is not None and beat >= self.loop[1]:
            # The player rebases on the wrap; this only covers the instant before it does.
            start, end = self.loop
            beat = start + (beat - start) % (end - start)
        return min(beat, self.end_beat)

    def with_tempo(self, bpm: float, now: float, from_beat: float | None = None) -> Transport:
        """The tempo changed to `bpm`: from the next beat while playing (or from `from_beat`
        if that is later, such as the loop's end), at once when stopped."""
        seconds_per_beat = 60.0 / bpm
        if not self.playing:
            return replace(
                self, segments=(replace(self.segments[0], seconds_per_beat=seconds_per_beat),)
            )
        next_beat = float(math.ceil(self.beat_at(now) - ON_THE_LINE))
        if from_beat is not None:
            next_beat = max(next_beat, from_beat)
        anchor = TempoSegment(next_beat, self.time_at(next_beat), seconds_per_beat)
        kept = [s for s in self.segments if s.beat < next_beat]
        # Segments that ended before `now` are history; keep the one `now` falls in.
        while len(kept) > 1 and kept[1].time <= now:
            kept.pop(0)
        return replace(self, segments=(*kept, anchor))

    def rebased(self, beat: float, at: float) -> Transport:
        """Still rolling, but `beat` now plays at clock time `at` (a loop wrap or a jump)."""
        return replace(self, segments=(TempoSegment(beat, at, self.segments[-1].seconds_per_beat),))

    def with_loop(self, loop: tuple[float, float] | None) -> Transport:
        return replace(self, loop=loop)

    def next_bar_line(self, now: float) -> float:
        """The first bar line at or after the song position at `now`."""
        bars = (self.beat_at(now) - ON_THE_LINE) / self.beats_per_bar
        return math.ceil(bars) * self.beats_per_bar

    def playhead(self, now: float) -> Playhead:
        """The playhead at clock time `now`."""
        song_beat = max(self.position(now), 0.0)
        bar = int((song_beat + ON_THE_LINE) // self.beats_per_bar)
        in_bar = max(song_beat - bar * self.beats_per_bar, 0.0)
        return Playhead(
            bar=bar,
            beat=in_bar,
            seconds=song_beat * self.segments[-1].seconds_per_beat,
            playing=self.playing,
            tempo=self.tempo,
            song_beat=song_beat,
            looping=self.loop is not None,
        )
