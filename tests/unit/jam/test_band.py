"""The band's rounds: deterministic, directions reach only whom they name, a jam never stops."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import mido
import music21
import pretty_midi
import pytest

from muse_tui.compose.jam.song import round_song
from muse_tui.contracts import Region
from muse_tui.contracts.jam import JamRound
from muse_tui.engine.jam import Jam
from muse_tui.store.checkpoint import load_checkpoint
from muse_tui.store.smf import write_song_midi

TRAP = "dark trap, 140, key of Am"
KICKS = {35, 36}
D_MINOR = {2, 4, 5, 7, 9, 10, 0}
D_MAJOR = {2, 4, 6, 7, 9, 11, 1}


def _rounds(
    prompt: str, seed: int, lines: dict[int, str], count: int, **kw: object
) -> list[JamRound]:
    with Jam(prompt, seed, **kw) as jam:  # type: ignore[arg-type]
        return [jam.round, *(jam.next_round(lines.get(n, "")) for n in range(2, count + 1))]


def _midi_digest(tmp_path: Path, name: str, rounds: list[JamRound]) -> list[str]:
    digests = []
    for r in rounds:
        folder = tmp_path / name / f"round-{r.number:02d}"
        write_song_midi(folder, round_song(TRAP, 7, r))
        data = (folder / "midi" / "full-arrangement.mid").read_bytes()
        digests.append(hashlib.sha256(data).hexdigest())
    return digests


def _part(round_: JamRound, member: str) -> Region:
    part = round_.member(member).part  # type: ignore[union-attr]
    assert part is not None
    return part


def test_same_prompt_seed_and_directions_give_byte_identical_rounds(tmp_path: Path) -> None:
    lines = {3: "@drums busier", 5: "everyone, key of D", 6: "@bass lock to the kick"}
    first = _rounds(TRAP, 7, lines, 8)
    again = _rounds(TRAP, 7, lines, 8)
    assert [r.to_json() for r in first] == [r.to_json() for r in again]
    assert _midi_digest(tmp_path, "a", first) == _midi_digest(tmp_path, "b", again)


def test_busier_drums_change_only_the_drums() -> None:
    plain = _rounds(TRAP, 7, {}, 8)
    asked = _rounds(TRAP, 7, {3: "@drums busier"}, 8)
    assert len(_part(asked[2], "drums").notes) > len(_part(asked[1], "drums").notes)
    assert asked[2].member("drums").change == "asked"  # type: ignore[union-attr]
    for member in ("keys", "lead"):
        # The others keep evolving at their own pace: the same changes, the same parts.
        assert [r.member(member).change for r in asked] == [r.member(member).change for r in plain]  # type: ignore[union-attr]
        assert [_part(r, member) for r in asked] == [_part(r, member) for r in plain]
    assert [r.member("bass").change for r in asked] == [r.member("bass").change for r in plain]  # type: ignore[union-attr]
    # And something does evolve without being asked: never a static loop.
    assert any(r.member(m).change == "evolved" for r in plain for m in ("keys", "lead"))  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "scale"), [("everyone, key of D", D_MINOR), ("everyone, key of D major", D_MAJOR)]
)
def test_a_key_change_puts_every_pitched_note_of_the_next_round_in_the_key(
    line: str, scale: set[int]
) -> None:
    rounds = _rounds(TRAP, 7, {4: line}, 4)
    after = rounds[3]
    assert after.context.key == "D"
    pitched = [m for m in after.members if not m.track.is_drums]
    assert all(m.part is not None and m.part.notes for m in pitched)
    outside = [
        (m.id, n.pitch)
        for m in pitched
        for n in m.part.notes
        if n.pitch % 12 not in scale  # type: ignore[union-attr]
    ]
    assert outside == []
    # Before the change the song was in A minor, and some notes were not in D's scale.
    before = [n.pitch % 12 for m in rounds[2].members if not m.track.is_drums for n in m.part.notes]  # type: ignore[union-attr]
    assert rounds[2].context.key == "A"
    assert any(pc not in scale for pc in before)


def _bass_on_kick(round_: JamRound) -> float:
    kicks = [n.start_beat for n in _part(round_, "drums").notes if n.pitch in KICKS]
    bass = [n.start_beat for n in _part(round_, "bass").notes]
    on = sum(1 for b in bass if any(abs(b - k) <= 0.125 for k in kicks))
    return on / len(bass)


@pytest.mark.parametrize("prompt", ["funk, 104, key of E minor", "reggae one drop, 75, key of G"])
def test_bass_locked_to_the_kick_plays_on_the_kick(prompt: str) -> None:
    rounds = _rounds(prompt, 3, {3: "@bass lock to the kick"}, 3)
    assert not rounds[1].member("bass").locked_to_kick  # type: ignore[union-attr]
    assert _bass_on_kick(rounds[1]) < 0.8
    assert rounds[2].member("bass").locked_to_kick  # type: ignore[union-attr]
    assert _bass_on_kick(rounds[2]) >= 0.8


def _failing(member: str, from_round: int):  # type: ignore[no-untyped-def]
    from muse_tui.compose.jam import play_member

    def player(intent, context, state, seed, number, kick, want):  # type: ignore[no-untyped-def]
        if state.id == member and number >= from_round:
            raise RuntimeError("a test hook: this member fails")
        return play_member(intent, context, state, seed, number, kick, want)

    return player


def test_a_failing_member_holds_their_part_and_the_jam_goes_on() -> None:
    lines = {3: "@keys busier", 4: "everyone, key of C"}
    rounds = _rounds(TRAP, 7, lines, 8, player=_failing("keys", 3))
    held = _part(rounds[1], "keys")
    for r in rounds[2:]:
        keys = r.member("keys")
        assert keys is not None
        assert keys.part == held, "from round 3 the keys never play anew: their part holds"
        if keys.change == "failed":
            assert keys.thought
    assert rounds[2].member("keys").change == "failed"  # type: ignore[union-attr]
    # Everyone else moved on: the key change reached the lead and the bass.
    assert rounds[3].member("lead").change in ("context", "evolved", "asked")  # type: ignore[union-attr]
    assert _part(rounds[3], "lead") != _part(rounds[2], "lead")


def test_a_member_who_misses_the_deadline_holds_their_part() -> None:
    from muse_tui.compose.jam import play_member

    def slow(intent, context, state, seed, number, kick, want):  # type: ignore[no-untyped-def]
        if state.id == "lead" and number >= 2:
            time.sleep(1.0)
        return play_member(intent, context, state, seed, number, kick, want)

    rounds = _rounds(TRAP, 7, {2: "@lead busier @drums busier"}, 2, player=slow, deadline_s=0.3)
    assert rounds[1].member("lead").change == "failed"  # type: ignore[union-attr]
    assert _part(rounds[1], "lead") == _part(rounds[0], "lead")
    assert len(_part(rounds[1], "drums").notes) > len(_part(rounds[0], "drums").notes)


def test_keep_this_writes_a_session_strict_parsers_and_play_accept(tmp_path: Path) -> None:
    from muse_tui.cli.audition_commands import _load_song

    with Jam(TRAP, 7) as jam:
        jam.next_round("@drums busier")
        folder = jam.keep(tmp_path)
        live = jam.round
    pipeline = load_checkpoint(folder)
    assert pipeline.status in ("completed", "partial")
    song = _load_song(str(folder))
    assert song.arrangement is not None and song.arrangement.total_bars == 8
    assert (song.key, song.mode, song.tempo) == (
        live.context.key,
        live.context.mode,
        live.context.tempo,
    )
    for path in (folder / "midi").glob("*.mid"):
        midi = mido.MidiFile(path, clip=False)
        assert midi.length > 0
        assert pretty_midi.PrettyMIDI(str(path)).instruments, "pretty_midi reads it"
        assert music21.converter.parse(str(path)).flatten().notes, "music21 reads it"
    full = mido.MidiFile(folder / "midi" / "full-arrangement.mid", clip=False)
    ons = sum(1 for t in full.tracks for m in t if m.type == "note_on" and m.velocity > 0)
    loop_notes = sum(len(m.part.notes) for m in live.members if m.part is not None)
    assert ons == 2 * loop_notes  # the loop, twice
    assert (folder / "progression" / "main.progression").exists()
