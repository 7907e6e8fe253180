"""Part edits on the real song: scoped to a section, to every part, remembered, or refused."""

from __future__ import annotations

from muse_tui.contracts import Note, SongState
from muse_tui.contracts.editing import ModifySongResult
from muse_tui.engine.editing import modify

from .conftest import RecordingGate, Session


def _notes_in(song: SongState, role: str, start_bar: int, end_bar: int) -> list[Note]:
    track = next(t for t in song.tracks if t.role == role)
    bpb = song.beats_per_bar
    return [n for n in track.notes if start_bar * bpb <= n.start_beat < end_bar * bpb]


async def test_busier_in_the_chorus_leaves_the_verse_alone(session: Session) -> None:
    song = session.pipeline.song_state
    chorus = next(s for s in song.arrangement.sections if s.kind == "chorus")
    verse = next(s for s in song.arrangement.sections if s.kind == "verse")

    result = await modify(session.pipeline, "make the drums busier in the chorus")

    after = result.song_state
    assert len(_notes_in(after, "drums", chorus.start_bar, chorus.end_bar)) > len(
        _notes_in(song, "drums", chorus.start_bar, chorus.end_bar)
    )
    assert _notes_in(after, "drums", verse.start_bar, verse.end_bar) == _notes_in(
        song, "drums", verse.start_bar, verse.end_bar
    )


async def test_make_it_simpler_thins_every_part(session: Session) -> None:
    result = await modify(session.pipeline, "make it simpler")

    before = {t.role: len(t.notes) for t in session.pipeline.song_state.tracks}
    after = {t.role: len(t.notes) for t in result.song_state.tracks}
    assert all(after[role] < before[role] for role in before), (before, after)


async def test_a_simpler_bass_stays_simpler_when_its_chords_change(session: Session) -> None:
    simpler = await modify(session.pipeline, "Bass too busy, simplify")
    plain = await modify(session.pipeline, "change the 2nd chord to Gbmaj7")

    both = await modify(simpler.pipeline, "change the 2nd chord to Gbmaj7")

    def bass(result: ModifySongResult) -> int:
        return len(next(t for t in result.song_state.tracks if t.role == "bass").notes)

    assert "bass" in both.regenerated_components
    assert bass(both) < 0.85 * bass(plain)


async def test_requests_that_cannot_be_done_say_why(session: Session) -> None:
    keys = await modify(session.pipeline, "add ghost notes to the keys")
    kazoo = await modify(session.pipeline, "make the kazoo louder")  # a word no table knows
    nowhere = await modify(session.pipeline, "make the drums busier in the bridge")
    same = await modify(session.pipeline, "change the key to Eb minor", gate=RecordingGate())

    assert keys.summary == "ghost notes suit the drums and the bass."
    assert kazoo.status == "no_change" and kazoo.summary.startswith("say which part to turn up")
    assert nowhere.summary.startswith("There is no bridge in this song; it has Intro (bars 1–8)")
    assert same.summary == "the song is already in Eb minor."
    assert all(r.song_state.history == [] for r in (keys, kazoo, nowhere, same))
