"""A genre's bass and kit keep their idiom in any meter and at a doubled tempo.

Heard in the written MIDI file of songs composed from real prompts. Before: salsa played
a kick-locked bass on beat 1 (the tumbao only when an 808 was named), salsa in 7/8 got the
rock 7/8 kit, funk in 5/4 walked in quarters, cumbia, mambo and latin jazz had no latin
bass, and "trip hop 170" played its backbeat on 2 and 4 at 170.
"""

from __future__ import annotations

import pytest

from muse_tui.compose.parts.harmony import section_harmony
from muse_tui.theory.drums import KICK, KICK_ACOUSTIC, RIM, SNARE, SNARE_ELECTRIC

from .heard import Heard, compose


def _bass_steps(heard: Heard) -> list[int]:
    """The 16th step in its bar of every bass onset."""
    return [n.step % heard.steps_per_bar for n in heard.bass().notes]


def _share_on(heard: Heard, steps: set[int]) -> float:
    found = _bass_steps(heard)
    return sum(1 for s in found if s in steps) / len(found)


def _drum_steps(heard: Heard, pitches: tuple[int, ...]) -> list[int]:
    per_bar = heard.steps_per_bar
    return [n.step % per_bar for p in heard.role("drums") for n in p.notes if n.pitch in pitches]


def _bars_sounding_all(heard: Heard, steps: set[int]) -> float:
    """Share of the bars the bass plays in that sound every one of these steps."""
    per_bar = heard.steps_per_bar
    bars: dict[int, set[int]] = {}
    for note in heard.bass().notes:
        bars.setdefault(note.step // per_bar, set()).add(note.step % per_bar)
    return sum(1 for found in bars.values() if steps <= found) / len(bars)


def _bars_sounding_one(heard: Heard) -> float:
    """Share of the bars the bass plays in that have a note on the downbeat."""
    per_bar = heard.steps_per_bar
    bars = {n.step // per_bar for n in heard.bass().notes}
    on_one = {n.step // per_bar for n in heard.bass().notes if n.step % per_bar == 0}
    return len(on_one) / len(bars)


#: The tumbao: the bombó on the '&' of 2 and the ponche on 4 (steps 6 and 12 of a 4/4 bar).
TUMBAO = {6, 12}


@pytest.mark.parametrize("prompt", ["salsa, 180", "mambo, 190", "latin jazz, 200"])
def test_latin_genres_play_the_tumbao_without_an_808(prompt: str) -> None:
    heard = compose(prompt)
    assert _bars_sounding_all(heard, TUMBAO) >= 0.85
    assert _share_on(heard, TUMBAO) >= 0.75  # a section's first downbeat, a run into the next
    assert _bars_sounding_one(heard) <= 0.3  # the downbeat left to the listener


def test_the_tumbao_ponche_plays_the_coming_chord_and_holds_over_the_bar_line() -> None:
    """Beat 4 anticipates: it plays the bass of the chord arriving on the next downbeat and
    rings through it, so the change is heard a beat early (the ponche)."""
    heard = compose("salsa, 180")
    song = heard.song
    assert song.arrangement is not None
    early = right = 0
    for section in song.arrangement.sections:
        origin = song.bar_beat(section.start_bar)
        harmony = section_harmony(song, section, heard.harmonic)
        for note in heard.bass().notes:
            beat = note.start - origin
            if note.step % heard.steps_per_bar != 12 or not 0 <= beat < (section.bars - 1) * 4:
                continue
            early += 1
            right += note.pitch % 12 == harmony.at(round(beat) + 1.0).bass_pc
            assert note.length >= 1.0  # held over the bar line into the bombó's bar
    assert early >= 20
    assert right / early >= 0.9


def test_salsa_in_seven_keeps_the_tumbao_and_the_clave_kit() -> None:
    """7/8 as 2+2+3: the bombó on the '&' of the second group (step 6), the ponche on the
    last 8th (step 12); the kick plays the same two (and the bar's one, so the odd bar is
    heard), the cross-stick the clave."""
    heard = compose("salsa in 7/8, 190")
    assert heard.steps_per_bar == 14
    assert _bars_sounding_all(heard, {6, 12}) >= 0.85
    assert _bars_sounding_one(heard) <= 0.3
    kicks = _drum_steps(heard, (KICK, KICK_ACOUSTIC))
    # the bombó and the ponche, and the one that marks the odd bar's length
    assert kicks and sum(1 for s in kicks if s in {0, 6, 12}) / len(kicks) >= 0.85
    assert sum(1 for s in kicks if s in {6, 12}) / len(kicks) >= 0.6
    rims = _drum_steps(heard, (RIM,))
    assert len(rims) >= 2 * len(heard.bass().notes) // 3  # the clave on every bar


def test_cumbia_bass_is_not_a_tumbao() -> None:
    """Cumbia: the root on 1, then even beats on 3 and 4 leading into the next downbeat."""
    heard = compose("cumbia, 95")
    assert _share_on(heard, {0, 8, 12}) >= 0.85
    assert _bars_sounding_one(heard) >= 0.8


def test_funk_in_five_plays_syncopated_sixteenths_on_the_one() -> None:
    heard = compose("funk in 5/4")
    assert heard.steps_per_bar == 20
    assert _bars_sounding_one(heard) >= 0.85
    steps = _bass_steps(heard)
    off_eighths = sum(1 for s in steps if s % 2) / len(steps)
    assert off_eighths >= 0.2  # 16th pickups, not walking quarters
    assert _share_on(heard, {0, 12}) >= 0.15  # the one of each 3+2 group


def test_bluegrass_boom_chick_in_seven_alternates_root_and_fifth_on_the_groups() -> None:
    """7/8 as 2+2+3: boom on every group, the second group's note a fifth from the first."""
    heard = compose("bluegrass in 7/8, 120")
    per_bar = heard.steps_per_bar
    assert _bars_sounding_one(heard) >= 0.95
    assert _share_on(heard, {0, 4, 8, 12}) >= 0.85  # a walk-up may end a section
    by_bar: dict[int, dict[int, int]] = {}
    for note in heard.bass().notes:
        by_bar.setdefault(note.step // per_bar, {})[note.step % per_bar] = note.pitch
    pairs = [(b[0], b[4]) for b in by_bar.values() if 0 in b and 4 in b]
    fifths = sum(1 for one, two in pairs if (two - one) % 12 in (7, 5))
    assert pairs and fifths / len(pairs) >= 0.7


@pytest.mark.parametrize("prompt", ["bluegrass, 120", "bluegrass in 7/8, 120"])
def test_bluegrass_bass_sounds_beat_one_of_every_bar(prompt: str) -> None:
    assert _bars_sounding_one(compose(prompt)) >= 0.95


HALF_TIME = ["trip hop at 170", "jazz rap, 180", "chillwave, 160", "lofi, 150"]


def _snare_bars(heard: Heard) -> list[set[int]]:
    """The steps of each bar's snare hits, for the bars the snare plays in."""
    per_bar = heard.steps_per_bar
    bars: dict[int, set[int]] = {}
    for part in heard.role("drums"):
        for note in part.notes:
            if note.pitch in (SNARE, SNARE_ELECTRIC):
                bars.setdefault(note.step // per_bar, set()).add(note.step % per_bar)
    return list(bars.values())


@pytest.mark.parametrize("prompt", HALF_TIME)
def test_a_doubled_tempo_plays_the_backbeat_on_three(prompt: str) -> None:
    bars = _snare_bars(compose(prompt))
    assert len(bars) >= 16
    assert sum(1 for b in bars if 8 in b) / len(bars) >= 0.75
    assert sum(1 for b in bars if {4, 12} <= b) / len(bars) <= 0.1  # not 2 and 4


def test_a_doubled_tempo_bass_moves_at_the_half_time_pulse() -> None:
    """Jazz rap's 16th kick pushes, doubled, are 8ths: no onset on a 16th 'e' (swing moves
    an 8th's '&' late, never onto the 'e' after a beat)."""
    steps = _bass_steps(compose("jazz rap, 180"))
    assert sum(1 for s in steps if s % 4 == 1) / len(steps) <= 0.05


def test_the_genre_at_its_own_tempo_keeps_the_backbeat_on_two_and_four() -> None:
    bars = _snare_bars(compose("trip hop, 90"))
    assert sum(1 for b in bars if {4, 12} <= b) / len(bars) >= 0.75
