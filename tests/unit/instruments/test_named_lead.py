"""The named instrument leads: it plays the tune, nothing unnamed climbs over it (issue 30)."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest

from muse_tui.compose.intent import decompose
from muse_tui.compose.parts.tracks import choose_tracks

from .heard import DRUM_CHANNEL, compose


def lead_of(prompt: str) -> tuple[str, int | None]:
    tracks = choose_tracks(decompose(prompt).intent, random.Random(1))
    lead = next(t for t in tracks if t.role == "lead")
    return lead.name, lead.program


@pytest.mark.parametrize(
    ("prompt", "program"),
    [
        ("disco house, nylon guitar", 24),  # not the genre's brass
        ("dubstep, piano, 808", 0),  # not the genre's saw lead
        ("big band swing in 3/4, banjo", 105),  # not the genre's tenor sax
        ("highlife waltz, accordion", 21),
        ("bluegrass, marimba, bodhran lead", 12),  # a bodhrán cannot sing the tune
        ("jazz, tenor sax, oboe lead", 68),  # the one asked to lead, over the genre's own
        ("trap, soprano sax, french horns", 64),
        ("Bon Iver meets SZA, pluck, horn section, sub bass", 61),  # a pluck is a colour
        ("drill, clean electric guitar, palm-muted guitar lead", 28),  # asked: chugs may lead
    ],
)
def test_a_named_melodic_instrument_leads(prompt: str, program: int) -> None:
    assert lead_of(prompt)[1] == program


def test_palm_muted_chugs_never_take_the_tune_unless_asked() -> None:
    # A metal band's lead guitar keeps the melody; the named chugs play the rhythm part.
    tracks = choose_tracks(decompose("heavy metal, palm-muted guitar").intent, random.Random(1))
    lead = next(t for t in tracks if t.role == "lead")
    chugs = [t for t in tracks if t.program == 28]

    assert lead.program != 28
    assert chugs and all(t.role != "lead" for t in chugs)


def test_a_chord_instrument_that_leads_keeps_its_chords_too() -> None:
    """A lone named piano sings the melody in the right hand and still comps."""
    tracks = choose_tracks(decompose("dubstep, piano, 808").intent, random.Random(1))
    pianos = {t.role: t.name for t in tracks if t.program == 0}
    assert pianos == {"chords": "Piano", "lead": "Piano Melody"}


@pytest.mark.parametrize(
    ("prompt", "roles"),
    [
        ("church organ as the sole instrument", {"keys", "lead"}),
        ("gospel a cappella", {"pad"}),
    ],
)
def test_sole_and_a_cappella_limit_the_band(prompt: str, roles: set[str]) -> None:
    assert set(decompose(prompt).intent.roles) == roles


def test_an_unnamed_line_sits_under_the_named_lead(tmp_path: Path) -> None:
    """The arpeggiator is a colour here: the melody heard on top is the marimba's."""
    _, written = compose(tmp_path, "techno, marimba, arpeggiator, 16 bars")
    pitched = {t.program: t.pitches for t in written if t.channel != DRUM_CHANNEL}
    assert statistics.mean(pitched[81]) < statistics.mean(pitched[12])


def test_brushes_play_the_brush_kit(tmp_path: Path) -> None:
    _, written = compose(tmp_path, "eerie soul, brushes, 16 bars")
    kits = {t.program for t in written if t.channel == DRUM_CHANNEL}
    assert 40 in kits
