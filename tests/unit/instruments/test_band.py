"""The band a prompt gets: a listed set is the whole band, and every name matches its sound."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest

from muse_tui.compose.intent import decompose
from muse_tui.compose.parts.tracks import choose_tracks
from muse_tui.knowledge.instruments import instrument_table

from .heard import DRUM_CHANNEL, compose


@pytest.mark.parametrize(
    ("prompt", "roles"),
    [
        ("neo soul, Eb minor, 90 BPM, drums bass chords lead", ["drums", "bass", "chords", "lead"]),
        ("hip hop, 92 BPM, E minor, drums bass keys", ["drums", "bass", "keys"]),
        ("house, 124, drums bass chords pad", ["drums", "bass", "chords", "pad"]),
    ],
)
def test_a_listed_set_of_parts_is_exactly_the_band(prompt: str, roles: list[str]) -> None:
    assert sorted(decompose(prompt).intent.roles) == sorted(roles)


@pytest.mark.parametrize(
    ("prompt", "roles"),
    [
        # the lone melodic sound (the piano) leads; the genre's drums join the listed sounds
        ("trap with piano, strings and 808", ["drums", "lead", "pad", "sub_bass"]),
        ("gospel, talking drum, timbales, tin whistle", ["drums", "bass", "chords", "lead"]),
        # a named guitar plays the chords; gospel's organ still plays its keys
        ("gospel, nylon guitar, pizzicato strings, pluck", ["drums", "bass", "keys", "chords"]),
    ],
)
def test_a_listed_set_of_sounds_joins_the_genres_core_band(prompt: str, roles: list[str]) -> None:
    """A named sound never replaces the drums or the bass (issue 30)."""
    assert set(roles) <= set(decompose(prompt).intent.roles)


def test_two_passing_mentions_are_not_a_list() -> None:
    roles = decompose("UK drill in F# minor, 142, piano and 808").intent.roles
    assert {"drums", "sub_bass", "chords", "lead"} <= set(roles)


@pytest.mark.parametrize(
    ("prompt", "plain"),
    [
        ("sad piano ballad in D major with strings", "sad piano ballad in D major"),
        ("reggae in G major with organ", "reggae in G major"),
        ("gospel in Ab major with organ", "gospel in Ab major"),
    ],
)
def test_naming_a_sound_the_genre_already_plays_keeps_its_band(prompt: str, plain: str) -> None:
    """Strings in a ballad, organ in reggae: the word confirms the band, it does not replace
    the genre's other harmony parts (the ballad kept no piano chords, reggae lost its skank)."""
    assert decompose(prompt).intent.roles == decompose(plain).intent.roles


@pytest.mark.parametrize(
    "prompt",
    [
        "sad piano ballad in E major, 70 BPM",
        "bossa nova in D major with nylon guitar",
        "rock in A major with distorted guitar, 128",
        "gospel in Ab major with organ and choir",
        "dubstep, 140, F minor",
    ],
)
def test_a_genre_with_a_topline_keeps_its_lead_when_an_instrument_is_named(prompt: str) -> None:
    assert "lead" in decompose(prompt).intent.roles


@pytest.mark.parametrize(
    "prompt",
    [
        "dark trap, 140, key of Am, 16 bars",
        "boom bap in G minor with piano and vinyl crackle, 90 BPM, 16 bars",
        "chillhop with flute, C# minor, 85, 16 bars",
        "jazz in Bb major with sax and upright bass, 16 bars",
        "sad piano ballad in C minor, 72 BPM, 16 bars",
    ],
)
def test_every_track_is_named_for_the_sound_it_plays(tmp_path: Path, prompt: str) -> None:
    song, written = compose(tmp_path, prompt)
    table = instrument_table()
    names = [t.name for t in song.tracks]
    assert len(names) == len(set(names)), f"two tracks share a name: {names}"
    programs = {t.name: t.program for t in written if t.channel != DRUM_CHANNEL}
    for track in song.tracks:
        if track.is_drums:
            continue
        sound = table.get(track.instrument)
        assert sound is not None, track.name
        assert (track.name, track.program) == (sound.name, sound.program)
        assert track.preset is not None and track.preset.gm_program == sound.program
        assert programs.get(track.name) == sound.program, f"{track.name} plays another program"


def test_a_piano_ballad_sings_its_melody_on_the_piano_over_the_comping(tmp_path: Path) -> None:
    """The ballad's topline is the pianist's right hand, an octave or more over the chords,
    not a square-wave synth lead."""
    song, written = compose(tmp_path, "sad piano ballad in C minor, 72 BPM, 16 bars")
    names = {t.role: t.name for t in song.tracks}
    heard_as = {h.name: h for h in written}
    lead, keys = heard_as[names["lead"]], heard_as[names["keys"]]
    assert lead.program == keys.program == 0
    assert statistics.median(lead.pitches) >= statistics.median(keys.pitches) + 12


@pytest.mark.parametrize(
    ("prompt", "lead"),
    [
        ("metal, 160 bpm, E minor", "Lead Guitar"),  # the solo guitar, not a synth
        ("disco, 118 bpm, A minor", "Brass"),  # the horn section's lines over the strings
        ("sad piano ballad", "Piano Melody"),
        ("neo soul, 80 bpm", "Muted Trumpet"),  # Roy Hargrove on the Soulquarians records
        ("r&b, 90 bpm", "Vocal Chops"),
        ("acid techno, 132 bpm", "Acid Synth"),  # the 303 line is techno's lead
        ("jazz fusion, 110 bpm", "Saw Lead"),  # the Minimoog solo
        ("dembow, 120 bpm", "Brass"),  # horn stabs over the loop
        ("indie, 120 bpm", "Lead Guitar"),
        ("k-pop, 120 bpm", "Pluck"),
        ("trip hop, 85 bpm", "Theremin"),  # Adrian Utley on Portishead's Dummy
    ],
)
def test_a_genre_leads_with_its_own_instrument(prompt: str, lead: str) -> None:
    tracks = choose_tracks(decompose(prompt).intent, random.Random(1))
    assert [t.name for t in tracks if t.role == "lead"] == [lead]


def test_a_named_sound_takes_a_listed_role_it_can_play() -> None:
    """A pluck may play the arp, a sub bass the bass: on a song of only those roles, they do;
    a role the song lacks is never taken."""
    table = instrument_table()
    requests = ["sub bass", "pluck"]
    assert table.seat(requests) == {"sub_bass": "sub bass", "lead": "pluck"}
    listed = ["drums", "bass", "arp", "pad"]
    assert table.seat(requests, listed) == {"bass": "sub bass", "arp": "pluck"}
    assert table.seat(["pluck"], ["drums"]) == {}
    # every named sound is played: one whose roles are taken plays a free bed (issue 30)
    assert table.seat(["pluck"], ["drums", "pad"]) == {"pad": "pluck"}


GUITARS = range(24, 32)
KEYS = (*range(8), *range(16, 21))


@pytest.mark.parametrize(
    ("prompt", "core"),
    [
        ("rock, cello, tin whistle, mandolin", GUITARS),
        ("bluegrass, mandolin, cello", GUITARS),
        ("rock with piano", GUITARS),
        ("country, piano, fiddle", GUITARS),
        ("country with pedal steel and harmonica", GUITARS),
        ("metal, strings, saxophone", GUITARS),
        ("gospel with guitar", KEYS),
    ],
)
def test_a_named_sound_joins_the_core_band_and_never_takes_its_seat(
    prompt: str, core: range | tuple[int, ...]
) -> None:
    """The panel heard "rock, cello, tin whistle, mandolin" with the mandolin on the chords
    and no guitar (issue 30): a named sound adds a seat or takes a free one, and every
    named pitched sound still gets its track."""
    intent = decompose(prompt).intent
    tracks = choose_tracks(intent, random.Random(1))
    programs = [t.program for t in tracks if t.program is not None]
    players = {t.instrument for t in tracks}
    genre_players = [t for t in tracks if t.instrument not in intent.instrument_requests]
    assert any(t.program in core for t in genre_players), [(t.role, t.name) for t in tracks]
    table = instrument_table()
    for request in intent.instrument_requests:
        sound = table.get(request)
        if sound is not None and sound.program is not None:
            assert request in players or sound.program in programs, f"{request} has no track"


def test_a_named_sound_of_the_core_players_family_may_take_their_seat() -> None:
    """An acoustic guitar in a rock song is still the band's guitar: it plays the chords."""
    tracks = choose_tracks(decompose("rock with acoustic guitar").intent, random.Random(1))
    assert [t.name for t in tracks if t.role == "chords"] == ["Acoustic Guitar"]
