"""Every instrument word of the table is honoured: its role, name, program, and notes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from muse_tui.compose.intent import decompose
from muse_tui.compose.intent.extract import read_prompt
from muse_tui.compose.parts.tracks import choose_tracks
from muse_tui.compose.sounds import instrument_sound
from muse_tui.knowledge.artists import artist_table
from muse_tui.knowledge.instruments import instrument_table
from muse_tui.knowledge.lexicon import intent_lexicon
from muse_tui.knowledge.sound import sound_catalog
from muse_tui.theory.drums import VOICE_PITCHES

from .heard import DRUM_CHANNEL, compose, drum_hits

TABLE = instrument_table()
SOUNDS = sorted(i for i, sound in TABLE.instruments.items() if not sound.is_role_word)


def _first_phrase(instrument_id: str) -> str:
    return TABLE.instruments[instrument_id].phrases[0]


@pytest.mark.parametrize("instrument_id", SOUNDS)
def test_a_named_sound_gets_a_track_that_plays_it(instrument_id: str) -> None:
    sound = TABLE.instruments[instrument_id]
    intent = decompose(f"pop with {_first_phrase(instrument_id)}").intent
    assert instrument_id in intent.instrument_requests
    tracks = choose_tracks(intent, random.Random(1))
    if sound.is_kit_sound:
        (percussion,) = [t for t in tracks if t.role == "percussion"]
        assert percussion.channel == DRUM_CHANNEL
        assert percussion.name == sound.name
        return
    playing = [t for t in tracks if t.instrument == instrument_id]
    # a lone chord instrument also sings the melody: its right hand, the "... Melody" track
    (track,) = [t for t in playing if t.role != "lead"] if len(playing) > 1 else playing
    assert (track.name, track.program) == (sound.name, sound.program)
    assert track.role in (sound.role, *sound.also_roles)
    for twin in (t for t in playing if t is not track):
        assert (twin.role, twin.name, twin.program) == (
            "lead",
            f"{sound.name} Melody",
            sound.program,
        )


def test_every_phrase_reads_as_its_own_instrument() -> None:
    lexicon, artists = intent_lexicon(), artist_table()
    for instrument_id, sound in TABLE.instruments.items():
        for phrase in sound.phrases:
            reading = read_prompt(f"pop, {phrase}", lexicon, artists)
            assert reading.instruments == [instrument_id], phrase


def test_catalog_sounds_of_an_instrument_share_its_program() -> None:
    for entry in sound_catalog().entries:
        sound = TABLE.get(entry.instrument)
        if entry.instrument is None:
            continue
        assert sound is not None, entry.id
        assert entry.gm_program == sound.program, entry.id


@pytest.mark.parametrize(
    ("prompt", "instrument_id", "program"),
    [
        ("eerie bells trap in C minor, 145, 16 bars", "bells", 9),
        ("chillhop with flute, C# minor, 85, 16 bars", "flute", 73),
        ("country in G major with steel guitar and fiddle, 16 bars", "fiddle", 110),
        # Ambient leads sketch and breathe: 32 bars, so the topline has phrases to play.
        ("ambient in C major with pads and kalimba, 32 bars", "kalimba", 108),
    ],
)
def test_a_named_topline_is_the_lead_and_sounds_in_the_midi(
    tmp_path: Path, prompt: str, instrument_id: str, program: int
) -> None:
    song, tracks = compose(tmp_path, prompt)
    (lead,) = [t for t in song.tracks if t.role == "lead"]
    assert (lead.instrument, lead.program) == (instrument_id, program)
    assert lead.preset is not None and lead.preset.gm_program == program
    (written,) = [t for t in tracks if t.name == lead.name]
    assert written.program == program and len(written.pitches) >= 8


@pytest.mark.parametrize(
    ("prompt", "voices"),
    [
        ("phonk with cowbell, 130 BPM, C# minor, 16 bars", ["cowbell"]),
        ("salsa in C minor with piano and congas, 16 bars", ["conga_high", "conga_low"]),
        ("dembow, 120, B minor, with claps, 16 bars", ["clap"]),
        ("cinematic battle with taiko and choir, D minor, 16 bars", ["tom_floor"]),
        ("amapiano with log drums and shaker, 113 BPM, 16 bars", ["shaker"]),
    ],
)
def test_a_named_kit_sound_is_heard_on_the_drum_channel(
    tmp_path: Path, prompt: str, voices: list[str]
) -> None:
    song, tracks = compose(tmp_path, prompt)
    assert "percussion" in [t.role for t in song.tracks]
    assert {VOICE_PITCHES[v] for v in voices} <= drum_hits(tracks)


def test_phonk_cowbell_runs_a_sixteenth_figure(tmp_path: Path) -> None:
    song, _ = compose(tmp_path, "phonk with cowbell, 130 BPM, C# minor, 16 bars")
    (cowbell,) = [t for t in song.tracks if t.name == "Cowbell"]
    steps = {round(n.start_beat * 4) % 16 for n in cowbell.notes}
    assert steps & {1, 3, 5, 7, 9, 11, 13, 15}, "a phonk cowbell plays between the eighths"


@pytest.mark.slow
@pytest.mark.parametrize("instrument_id", SOUNDS)
def test_every_sound_plays_notes_in_the_written_midi(tmp_path: Path, instrument_id: str) -> None:
    sound = TABLE.instruments[instrument_id]
    song, tracks = compose(tmp_path, f"pop with {_first_phrase(instrument_id)}, 16 bars")
    if sound.is_kit_sound:
        assert {VOICE_PITCHES[v] for v in sound.kit_voices} & drum_hits(tracks)
        return
    # A named sound that leads keeps its own part too ("Piano" comps, "Piano Melody" sings).
    seated = [t for t in song.tracks if t.instrument == instrument_id]
    assert seated, f"{sound.name} has no track"
    for track in seated:
        (written,) = [t for t in tracks if t.name == track.name]
        assert written.pitches, f"{track.name} is silent"
    assert any(t.program == sound.program for t in seated), f"{sound.name} on another program"


@pytest.mark.parametrize("instrument_id", [i for i in SOUNDS if TABLE.instruments[i].program])
def test_every_instrument_patch_is_a_sound_s5_can_load(instrument_id: str) -> None:
    """A table patch stands in where the catalog has none: it must be a valid catalog sound."""
    sound = TABLE.instruments[instrument_id]
    assert instrument_sound(instrument_id, sound, sound.role).gm_program == sound.program
