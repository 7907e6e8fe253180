"""The meter a prompt asks for, read by S1 (`skills/rhythm/meters.json`).

`MIDICAPS` holds the 17 captions of the public MidiCaps set's `test.json`
(AMAAI-Lab/MidiCaps, CC BY-SA 4.0), the captions text-to-MIDI papers score on;
each with the meter its caption states in words (None: the caption names none,
so the song is in 4/4 whatever its tag says).
"""

from __future__ import annotations

import pytest

from muse_tui.compose.intent.decompose import decompose

PROMPTS = [
    ("melancholic jazz waltz in 3/4, brushes, upright bass, piano", "3/4", (1, 1, 1)),
    ("a waltz for strings", "3/4", (1, 1, 1)),
    ("slow gospel in 6/8, Hammond organ, choir", "6/8", (3, 3)),
    ("irish jig with fiddle and bodhran", "6/8", (3, 3)),
    ("a slip jig on tin whistle", "9/8", (3, 3, 3)),
    ("12/8 slow blues with electric guitar", "12/8", (3, 3, 3, 3)),
    ("slow blues in E", "12/8", (3, 3, 3, 3)),
    ("soul ballad, piano and strings", "12/8", (3, 3, 3, 3)),
    ("afrobeats with the bell pattern", "12/8", (3, 3, 3, 3)),
    ("Take Five feel, jazz quartet", "5/4", (3, 2)),
    ("prog rock riff in 5/4", "5/4", (3, 2)),
    ("math rock in 7/8", "7/8", (2, 2, 3)),
    ("math rock in 7/8 (3+2+2)", "7/8", (3, 2, 2)),
    ("odd meter fusion jam", "7/8", (2, 2, 3)),
    ("balkan brass in 7", "7/8", (2, 2, 3)),
    ("polka with accordion, in 2/4", "2/4", (1, 1)),
    ("polka with accordion", None, None),  # a polka in 2/4 or 4/4 sounds the same: its family
    ("gospel ballad in 6/8", "6/8", (3, 3)),  # written out, it wins over the usual 12/8
    ("dark trap, 140, key of Am", None, None),
    ("house, 124 BPM, 4/4, 24/7 energy", None, None),
    ("lofi beat, 1/4 note hats, 3 minutes", None, None),
    ("drum and bass in 5 minutes", None, None),
]


@pytest.mark.parametrize(("prompt", "label", "grouping"), PROMPTS)
def test_the_prompt_sets_the_meter(
    prompt: str, label: str | None, grouping: tuple[int, ...] | None
) -> None:
    intent = decompose(prompt).intent
    if label is None:
        assert intent.meter is None
        return
    assert intent.meter is not None
    assert (intent.meter.label, intent.meter.grouping) == (label, grouping)


def test_a_section_can_ask_for_its_own_meter() -> None:
    intent = decompose("prog rock in 7 with a 6/8 bridge").intent
    assert intent.meter is not None and intent.meter.label == "7/8"
    assert {k: m.label for k, m in intent.section_meters.items()} == {"bridge": "6/8"}
    assert "bridge" in intent.structure_hints  # a bridge in 6/8 is a bridge asked for


def test_two_meters_for_the_song_are_asked_about() -> None:
    result = decompose("a 4/4 jazz waltz")
    assert not result.ready_to_execute
    question = result.intent.blocking_ambiguities[0]
    assert question.field == "meter" and question.options == ["4/4", "3/4"]
    answered = decompose("a 4/4 jazz waltz", meter="3/4")
    assert answered.ready_to_execute and answered.intent.meter.label == "3/4"  # type: ignore[union-attr]


def test_a_structured_prompt_sets_the_meter_with_a_header() -> None:
    intent = decompose("Style: jazz\nMeter: 5/4\nRequest: a modal vamp").intent
    assert intent.meter is not None and intent.meter.label == "5/4"
    noted = decompose("Style: jazz\nMeter: five\nRequest: a modal vamp").intent
    assert noted.meter is None
    assert any("Meter" in a.reason for a in noted.ambiguities)


def test_the_summary_says_the_meter() -> None:
    assert "in 6/8, felt in two (3+3)" in decompose("a 6/8 soul ballad").summary


MIDICAPS: list[tuple[str, str | None]] = [
    (
        "A piano plays a lead melody with chords in the background while being accompanied by "
        "a bass guitar and string ensemble. The song evokes a sense of zen, darkness and has a "
        "meditative feeling to it. The time signature is 4/4 and the tempo is fast. It's in the "
        "key of A major and the main chord progression is A, E7, A7, D. This song is quite short.",
        "4/4",
    ),
    (
        "A lovely blues track with overdriven guitars, a piano playing background chords, a bass "
        "and drums giving rhythm. It is played at the pace of 114 beats per minute and often "
        "revolves around the chords of G6 and D6.",
        None,
    ),
    (
        "Classical music played by an acoustic guitar providing the background melodies and an "
        "oboe playing the lead. This could be played in a film as a soundtrack. The main theme "
        "is built around the chords E, A, D, E7, A.",
        None,
    ),
    (
        "A joyful song played by vibraphone, marimba, electric piano, acoustic bass and violin. "
        "Violin and vibraphone take turns to play a sweet melody over the bass and piano "
        "background, the main harmonic pattern alternates between the C and G chords. It has a "
        "Christmas vibe and is written in C major and 4/4 time signature.",
        "4/4",
    ),
    (
        "A short fragment of classical music performed by clarinet, ocarina, and electric piano "
        "at a moderate pace. The time signature is 6/4 and the primary chord progression "
        "consists of Eb, Ab, G, Ab, Bb.",
        "6/4",
    ),
    (
        "Country music at its best. An acoustic guitar along with a banjo strum chords in the "
        "background while a fiddle plays the main lead. The bassist provides a solid groove in "
        "this track. The mood is uplifting and inspiring. It is played at a very fast pace in "
        "the key of G major.",
        None,
    ),
    (
        "A pop Christmas song performed by a solo piano in C major. The most frequent chord "
        "progression follows F, Fm6, C, F, Fm6. The time signature is 3/4 and the tempo is set "
        "to Moderato. It is lovely and melodic!",
        "3/4",
    ),
    (
        "Set in a lively 12/8 time signature and boasting a Presto tempo, this pop song bursts "
        "with energy. Leading the melody is the Hammond Organ, accompanied by a dynamic blend of "
        "electric and acoustic guitars. Providing the rhythmic backbone are the electric bass "
        "and drums. Throughout the piece, you'll find a frequently recurring chord progression "
        "of Edim, Bb, and F, adding to its catchy appeal.",
        "12/8",
    ),
    (
        "A long electronic melodic piece going at 122 bpm. The synth voice leads the way, with "
        "synth bass grooving in the background and piano playing chords. A string ensemble and "
        "synth effects enhance the song. The chords Eb, F6, and G are repeated often throughout "
        "the song.",
        None,
    ),
    (
        "Embodied within this melodic pop song is a heartfelt exploration of love, evoking a "
        "sense of relaxation and emotion. With a Moderato tempo and a 6/8 time signature, it "
        "unfolds gently. Set in the key of D major, it's characterized by a recurring chord "
        "sequence of D, A, D, G, and A, lending to its soothing ambiance.",
        "6/8",
    ),
    (
        "A very short fragment of pop music containing a single chord sequence of Abm, B6, "
        "and C#m.",
        None,
    ),
    (
        "An electronic techno track in C# minor, this short composition packs a punch with its "
        "recurring chord progression of B, C#m, and E. Boasting a rapid tempo and a 4/4 time "
        "signature, it's a whirlwind of energy. The honky-tonk piano, synth lead, and overdriven "
        "guitar join forces to create its electrifying sound.",
        "4/4",
    ),
    (
        "A very fast and short fragment of electronic music with a single B/A, E/B, B, C#, F# "
        "chord sequence.",
        None,
    ),
    (
        "Performed with a blend of piano, accordion, and fiddle, this Christmas pop tune "
        "radiates positivity through its melodies. Additional synth effects add a modern touch "
        "to the traditional instrumentation. Set in the key of G major and maintaining a 4/4 "
        "time signature, the song carries a cheerful vibe. Throughout, the chord sequence of G "
        "and D7 repeats, ensuring a familiar and festive feel. With a lively tempo set at 150 "
        "beats per minute, it's sure to keep spirits high.",
        "4/4",
    ),
    (
        "This fast and melodic jazz piece is in a Prestissimo tempo. Piano plays the lead while "
        "being accompanied by a harmonica. The bassist and the drummer groove together to "
        "propel the music forward.",
        None,  # tagged 3/4, but the caption does not say it
    ),
    (
        "A heavy metal song filled with darkness and melodies. It features a typical heavy "
        "metal instrument composition that includes overdriven and distorted guitars, an "
        "electric bass, and drums.",
        None,
    ),
    (
        "In the realm of rock, this lengthy composition pulsates with electrifying energy, "
        "driven by overdriven guitars, bass, and drums, with occasional guitar harmonics adding "
        "texture. Set in the key of D minor and moving at a brisk Vivace pace, it's a whirlwind "
        "of action, brimming with captivating melodies and epic moments.",
        None,
    ),
]


def test_the_table_is_the_seventeen_captions() -> None:
    assert len(MIDICAPS) == 17
    assert sum(label is not None for _, label in MIDICAPS) == 8


@pytest.mark.parametrize(("caption", "label"), MIDICAPS, ids=[f"caption{i + 1}" for i in range(17)])
def test_a_midicaps_caption_gets_the_meter_it_states(caption: str, label: str | None) -> None:
    intent = decompose(caption).intent
    expected = None if label in (None, "4/4") else label
    assert (intent.meter.label if intent.meter else None) == expected
    assert not any(a.field == "meter" for a in intent.ambiguities)
