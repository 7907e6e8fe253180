"""A jam played live: the band's rounds through the player, each landing on a loop boundary.

`LiveJam` sits above the jam engine and the player (which do not know each
other): it loads the first round as a looping one-section song, and on every
`tick` (the studio's timer, or the CLI's loop) it watches the playhead. Once
per pass of the loop, past its middle, it asks the band for the next round —
with the directions typed since — and queues each changed part to come in
where the loop wraps, in one command, so every change of a round (a key change
reaches every member) lands on the same boundary. A round takes milliseconds; half a loop
is ample.

Nothing here imports Textual: the studio's Jam screen and `muse-studio jam
--play` drive the same object.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from muse_tui.audition.controls import PlayerControls
from muse_tui.compose.jam.song import round_song
from muse_tui.contracts import SongState
from muse_tui.contracts.jam import JamRound
from muse_tui.engine.jam import Jam, keep_round

#: How far into a pass (as a share of the loop) the next round is prepared.
PREPARE_AT = 0.5


@dataclass
class LiveJam:
    """A `Jam` heard through a player; `tick()` often (every ~30 ms is plenty)."""

    jam: Jam
    player: PlayerControls
    heard: list[JamRound] = field(default_factory=list)
    _lines: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _prepared: bool = False
    _last_beat: float = 0.0
    song: SongState | None = None
    #: The round the listener hears now (the next one may already be queued).
    sounding: JamRound | None = None
    #: Whole passes of the loop heard so far.
    passes: int = 0

    def start(self, tempo: float | None = None) -> None:
        """Load the first round as a loop and play it from its start (at `tempo`, if given)."""
        round_ = self.jam.round
        self.song = round_song(self.jam.session.prompt, self.jam.session.seed, round_)
        self.player.load(self.song)
        if tempo is not None:
            self.player.set_tempo(tempo)
        self.player.loop(0, round_.context.bars)
        self.player.play(0)
        self.heard = [round_]
        self.sounding = round_

    def direct(self, line: str) -> None:
        """A direction for the band: it is taken into the next round prepared."""
        with self._lock:
            self._lines.append(line)

    def tick(self, *, prepare: bool = True) -> JamRound | None:
        """Prepare the next round once per pass, past its middle; the round queued, if one was.

        `passes` counts the loop's wraps seen; with `prepare=False` a tick only counts.
        """
        head = self.player.playhead
        if not head.playing or self.song is None:
            return None
        loop_beats = self.jam.round.context.loop_beats
        beat = head.song_beat % loop_beats
        if self._wrapped(beat):  # a new pass: the queued round is heard
            self._prepared = False
            self.sounding = self.heard[-1]
        if not prepare or self._prepared or beat < loop_beats * PREPARE_AT:
            return None
        self._prepared = True
        round_ = self._queue_next_round()
        self._wrapped_meanwhile(loop_beats)
        return round_

    def _wrapped_meanwhile(self, loop_beats: float) -> None:
        """Count a wrap that passed while the round was being prepared.

        On a starved machine the band can take longer than the rest of the pass:
        its parts then reach the player after the wrap and come in at the end of
        the new pass. That pass plays the round before once more, and is already
        prepared: a next round queued in it would land on the same boundary.
        """
        if self._wrapped(self.player.playhead.song_beat % loop_beats):
            self.sounding = self.heard[-2]

    def _wrapped(self, beat: float) -> bool:
        """Whether the loop wrapped since the playhead was last looked at; counts the pass."""
        wrapped = beat + 1e-6 < self._last_beat
        self._last_beat = beat
        if wrapped:
            self.passes += 1
        return wrapped

    def _queue_next_round(self) -> JamRound:
        with self._lock:
            line, self._lines = "; ".join(self._lines), []
        before = self.jam.round
        round_ = self.jam.next_round(line)
        # One command: sent part by part, a round reaching the player as the loop wraps
        # would be heard torn, some parts new on this pass and the rest on the next.
        with self.player.together():
            if round_.context.tempo != before.context.tempo:
                self.player.set_tempo(round_.context.tempo, at_loop_end=True)
            for member in round_.members:
                old = before.member(member.id)
                if old is not None and old.part == member.part:
                    continue
                regions = [member.part] if member.part is not None else []
                track = member.track.model_copy(update={"regions": regions})
                self.player.set_alternative(member.track.id, track, at_loop_end=True)
        self.heard.append(round_)
        return round_

    def mute(self, member_id: str, on: bool) -> None:
        member = self.jam.round.member(member_id)
        if member is not None:
            self.player.mute(member.track.id, on)

    def solo(self, member_id: str, on: bool) -> None:
        member = self.jam.round.member(member_id)
        if member is not None:
            self.player.solo(member.track.id, on)

    def keep(self, folder: Path) -> Path:
        """The loop the listener hears now as an ordinary session folder (see `Jam.keep`)."""
        session = self.jam.session
        if self.sounding is not None:
            session = session.model_copy(update={"round": self.sounding})
        return keep_round(session, folder)

    def stop(self) -> None:
        """Stop with every note released."""
        self.player.stop()
