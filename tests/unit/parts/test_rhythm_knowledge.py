"""The rhythm skill files: every vocabulary word has data, and a hand-edit mistake is named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from muse_tui.contracts import BassStyle, ChordRhythm
from muse_tui.knowledge import (
    BUNDLED_SKILLS,
    SkillFileError,
    genre_table,
    intent_lexicon,
    reload_rhythm_table,
    rhythm_table,
)


def test_every_family_style_and_comping_rhythm_has_data() -> None:
    table = rhythm_table()
    named = {dna.drum_family for dna in genre_table().genres.values()}
    named |= {h.drum_family for h in intent_lexicon().structure_hints.values() if h.drum_family}
    assert named - {"none"} <= set(table.drums.families)
    assert set(BassStyle.__args__) - {"none"} <= set(table.bass)  # type: ignore[attr-defined]
    assert set(ChordRhythm.__args__) - {"none"} <= set(table.comping)  # type: ignore[attr-defined]
    trap = table.drums.families["trap"]
    assert trap.hat_rolls is not None and table.grooves[trap.groove]
    assert rhythm_table() is table  # cached


def _copy_skills(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS / "rhythm", root / "rhythm")
    return root


def test_a_bad_grid_is_named_by_file_and_field(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    path = root / "rhythm" / "drum-families" / "urban.json"
    data = json.loads(path.read_text())
    data["families"]["trap"]["patterns"]["base"][0]["voices"]["kick"] = "X..q"
    path.write_text(json.dumps(data))
    with pytest.raises(SkillFileError) as caught:
        rhythm_table(root)
    message = str(caught.value)
    assert "drum-families/urban.json" in message and "families.trap.patterns.base.0" in message


def test_a_family_naming_a_missing_groove_is_refused(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    path = root / "rhythm" / "drum-families" / "band.json"
    data = json.loads(path.read_text())
    data["families"]["rock"]["groove"] = "stadium"
    path.write_text(json.dumps(data))
    with pytest.raises(SkillFileError, match=r"families\.rock\.groove: no groove 'stadium'"):
        rhythm_table(root)


def test_reload_reads_the_files_again(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    first = rhythm_table(root)
    path = root / "rhythm" / "grooves.json"
    data = json.loads(path.read_text())
    data["grooves"]["straight"]["timingMs"] = 7
    path.write_text(json.dumps(data))
    assert rhythm_table(root) is first
    reload_rhythm_table()
    assert rhythm_table(root).grooves["straight"].timing_ms == 7


def _edit(root: Path, name: str, change: object) -> None:
    path = root / name
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))


def test_the_roles_traits_come_from_tracks_json() -> None:
    tracks = rhythm_table().tracks
    assert tracks.kit_roles == {"drums", "percussion"}
    assert tracks.monophonic_roles == {"bass", "sub_bass", "lead"}
    assert tracks.drum_channel == 9


def test_a_pattern_naming_a_voice_that_is_not_a_kit_voice_is_refused(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    _edit(
        root,
        "rhythm/drum-families/band.json",
        lambda d: d["families"]["rock"]["patterns"]["busy"][0]["voices"].update(gong="x" * 16),
    )
    with pytest.raises(SkillFileError) as caught:
        rhythm_table(root)
    message = str(caught.value)
    assert (
        "drum-families/band.json" in message and "families.rock.patterns.busy.0.voices" in message
    )
    assert "'gong'" in message and "kitVoices in rhythm/tracks.json" in message


def test_a_track_override_naming_a_missing_family_is_refused(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    _edit(root, "rhythm/tracks.json", lambda d: d["overrides"][0].update(drumFamily="polka"))
    with pytest.raises(SkillFileError, match=r"tracks\.json: overrides\.0\.drumFamily: 'polka'"):
        rhythm_table(root)


def test_a_genre_naming_a_missing_drum_family_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS, root)
    _edit(root, "harmony/genre-dna.json", lambda d: d["genres"]["rock"].update(drumFamily="polka"))
    with pytest.raises(
        SkillFileError,
        match=r"genre-dna\.json: genres\.rock\.drumFamily: 'polka' is not a family in "
        r"rhythm/drum-families/",
    ):
        genre_table(root)


def test_a_kit_role_with_a_program_is_refused(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    _edit(root, "rhythm/tracks.json", lambda d: d["roles"]["drums"].update(program=0))
    with pytest.raises(SkillFileError, match=r"tracks\.json: roles\.drums: .*leave out program"):
        rhythm_table(root)


def test_a_family_in_two_files_is_refused_naming_both(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    band = json.loads((root / "rhythm" / "drum-families" / "band.json").read_text())
    copy = {"families": {"rock": band["families"]["rock"]}}
    (root / "rhythm" / "drum-families" / "zz-copy.json").write_text(json.dumps(copy))
    with pytest.raises(SkillFileError, match=r"zz-copy\.json: families\.rock: also in band\.json"):
        rhythm_table(root)


def test_a_family_naming_a_missing_fill_is_refused_in_its_own_file(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    _edit(
        root,
        "rhythm/drum-families/band.json",
        lambda d: d["families"]["rock"].update(fills=["nope"]),
    )
    with pytest.raises(SkillFileError, match=r"band\.json: families\.rock\.fills: no fill nope"):
        rhythm_table(root)
