"""The sounding-notes ledger: which notes each track holds down, so none can stick.

A note-off goes out only for a note the ledger saw go on, and a release sends
the note-offs for everything still held, then sustain off, channel pressure 0,
bend centre and All Notes Off on the channels involved: the order Seq66 and isobar
use, with the pressure reset before the bend so no held key stays "pressed".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from muse_tui.audition.schedule import BEND_CENTRE, CC_ALL_NOTES_OFF, CC_SUSTAIN

Message = tuple[int, ...]


class SoundingNotes:
    """Notes held down right now, per track, counted so overlapping re-strikes balance."""

    def __init__(self) -> None:
        self._held: dict[str, Counter[tuple[int, int]]] = {}
        self._bent: set[int] = set()
        self._pressed: set[int] = set()

    def note_on(self, track_id: str, channel: int, pitch: int) -> None:
        self._held.setdefault(track_id, Counter())[(channel, pitch)] += 1

    def note_off(self, track_id: str, channel: int, pitch: int) -> bool:
        """Forget one held note; False when it was not held (its note-off must not be sent)."""
        held = self._held.get(track_id)
        if not held or held[(channel, pitch)] <= 0:
            return False
        held[(channel, pitch)] -= 1
        if not held[(channel, pitch)]:
            del held[(channel, pitch)]
        return True

    def bent(self, channel: int, value: int) -> None:
        """Remember channels left off-centre, to re-centre them on release."""
        if value == BEND_CENTRE:
            self._bent.discard(channel)
        else:
            self._bent.add(channel)

    def pressed(self, channel: int, value: int) -> None:
        """Remember channels left with channel pressure, to release it on release."""
        if value:
            self._pressed.add(channel)
        else:
            self._pressed.discard(channel)

    def count(self, track_id: str | None = None) -> int:
        """How many notes are held (by one track, or by all)."""
        tracks = [track_id] if track_id is not None else list(self._held)
        return sum(sum(self._held.get(t, Counter()).values()) for t in tracks)

    def shaped(self) -> set[int]:
        """Channels a bend or channel pressure still holds away from rest."""
        return self._bent | self._pressed

    def release(
        self, track_ids: Iterable[str] | None = None, channels: Iterable[int] = ()
    ) -> list[Message]:
        """Let go: note-offs, then sustain off, pressure 0, bend centre, All Notes Off.

        `track_ids` limits the note-offs to those tracks (None: every track);
        `channels` are where the controller resets go.
        """
        chosen = (
            list(self._held) if track_ids is None else [t for t in track_ids if t in self._held]
        )
        messages: list[Message] = []
        for track_id in chosen:
            for (channel, pitch), times in sorted(self._held.pop(track_id).items()):
                messages.extend([(0x80 | channel, pitch, 0)] * times)
        resets = sorted(set(channels))
        messages.extend((0xB0 | ch, CC_SUSTAIN, 0) for ch in resets)
        for ch in resets:
            if ch in self._pressed:
                self._pressed.discard(ch)
                messages.append((0xD0 | ch, 0))
        for ch in resets:
            if ch in self._bent:
                self._bent.discard(ch)
                messages.append((0xE0 | ch, BEND_CENTRE & 0x7F, BEND_CENTRE >> 7))
        messages.extend((0xB0 | ch, CC_ALL_NOTES_OFF, 0) for ch in resets)
        return messages
