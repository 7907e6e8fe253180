"""S8: write the whole session folder MPC Beats loads, the manifest last.

Every file goes through `write_atomic`, so a crash leaves whole files and
`*.tmp` leftovers, never half a file; no manifest means the session is
incomplete. The files are written in one batch (one fsync per folder), the
manifest renamed last; inside a session change they join the change.
Writing the same pipeline twice gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from muse_tui import __version__
from muse_tui.compose.assembly import assign_channels
from muse_tui.contracts import (
    ComposerPipeline,
    EffectChain,
    ManifestFile,
    PresetAssignment,
    SessionManifest,
    SongState,
    SoundsOutput,
)
from muse_tui.knowledge.instruments import instrument_table
from muse_tui.knowledge.mpc import pad_table
from muse_tui.store.atomic import current_size, remove_file, remove_temp_files, write_atomic
from muse_tui.store.checkpoint import STATE_DIR, pipeline_path, song_path, write_checkpoint
from muse_tui.store.manifest import (
    MANIFEST_DESCRIPTION,
    MANIFEST_FILE,
    quality_summary,
    read_manifest,
    stage_timings,
    write_manifest,
)
from muse_tui.store.mpc_patterns import PATTERN_DIR, PATTERN_WORDS, drum_pads
from muse_tui.store.producer_notes import (
    ARRANGEMENT_FILE,
    EFFECTS_FILE,
    PRESETS_FILE,
    PRODUCER_NOTES_FILE,
    SessionSheet,
    TrackSheet,
    arrangement_map,
    effect_chains,
    preset_assignments,
    producer_notes,
)
from muse_tui.store.progression_file import (
    PROGRESSION_FILE,
    section_progression_file,
    write_progression,
)
from muse_tui.store.sessions import inside_session
from muse_tui.store.smf import (
    FULL_ARRANGEMENT,
    MIDI_DIR,
    midi_entries,
    midi_file_names,
    write_song_midi,
)
from muse_tui.store.transaction import CHANGE_DIR, session_batch

_DESCRIPTIONS = {
    "state/song-state.json": "The song (tracks, arrangement, chords, history) for muse-studio",
    "state/pipeline-state.json": "The pipeline checkpoint: resume or inspect the run",
    PRESETS_FILE: "The sound for each track, why it was chosen, and alternatives",
    EFFECTS_FILE: "Insert effects and sends for each track and bus",
    ARRANGEMENT_FILE: "Every section: bars, energy, who plays, transitions",
    PRODUCER_NOTES_FILE: "Start here: the session at a glance and an MPC Beats quick start",
    MANIFEST_FILE: MANIFEST_DESCRIPTION,
}


def write_session(
    session_dir: Path,
    pipeline: ComposerPipeline,
    *,
    presets: Sequence[PresetAssignment] | None = None,
    midi_written: bool = False,
    state_written: bool = False,
) -> SessionManifest:
    """Write state, progression, MIDI and notes into `session_dir`, then the manifest.

    `presets` defaults to what S5 chose. `midi_written` says assembly already wrote
    this song's MIDI files, and `state_written` that the engine checkpoints the
    state files itself. Those are listed, never written here, and their folder
    is left alone: the engine's checkpoint writer may be writing it now (its
    temp files are its own), and it sweeps the folder itself (`RunLedger`).
    Their sizes are the ones on disk now; the run's finish refreshes them once
    its last checkpoint has landed. Raises WriteFailed (one sentence) when the
    disk refuses, leaving the session incomplete but with whole files.
    """
    session_dir.mkdir(parents=True, exist_ok=True)
    # From an earlier writer that was killed; a change in flight is `recover`'s to finish.
    engines = frozenset({CHANGE_DIR, STATE_DIR} if state_written else {CHANGE_DIR})
    remove_temp_files(session_dir, skip=engines)
    with session_batch(session_dir):
        return _write_session(session_dir, pipeline, presets, midi_written, state_written)


def _write_session(
    session_dir: Path,
    pipeline: ComposerPipeline,
    presets: Sequence[PresetAssignment] | None,
    midi_written: bool,
    state_written: bool,
) -> SessionManifest:
    song = pipeline.song_state
    if not state_written:
        write_checkpoint(session_dir, pipeline)
    files = [
        _entry(session_dir, song_path(session_dir)),
        _entry(session_dir, pipeline_path(session_dir)),
    ]
    if song.progression is not None:
        files.append(write_progression(session_dir, song.progression, song.title or None))
    files += section_progressions(session_dir, song)
    if not song.tracks:
        midi = []
    elif midi_written:
        midi = midi_entries(session_dir, song, pipeline.config.drum_map)
    else:
        midi = write_song_midi(session_dir, song, drum_map=pipeline.config.drum_map)
    remove_stale_song_files(session_dir, midi)
    files += midi

    sounds = _sounds(pipeline)
    chosen = list(presets) if presets is not None else (sounds.presets if sounds else [])
    planned = [*files, *(_planned(p) for p in (PRESETS_FILE, EFFECTS_FILE, ARRANGEMENT_FILE))]
    planned += [_planned(PRODUCER_NOTES_FILE), _planned(MANIFEST_FILE)]
    sheet = session_sheet(pipeline, chosen, [(f.path, f.description) for f in planned])
    for path, text in (
        (PRESETS_FILE, preset_assignments(sheet, chosen)),
        (EFFECTS_FILE, effect_chains(_chains(song, sounds))),
        (ARRANGEMENT_FILE, arrangement_map(sheet)),
        (PRODUCER_NOTES_FILE, producer_notes(sheet)),
    ):
        size = write_atomic(inside_session(session_dir, path), text)
        files.append(
            ManifestFile(path=path, type="notes", description=_DESCRIPTIONS[path], size_bytes=size)
        )

    manifest = SessionManifest(
        session_id=pipeline.session_id,
        pipeline_id=pipeline.pipeline_id,
        created_at=pipeline.created_at,
        prompt=pipeline.raw_prompt,
        genre=song.genre or ", ".join(pipeline.intent.genre if pipeline.intent else []),
        key=f"{song.key} {song.mode}",
        tempo=song.tempo,
        time_signature=song.time_signature,
        total_bars=song_bars(song),
        track_count=len(song.tracks),
        status=pipeline.status,
        files=files,
        stage_timings=stage_timings(pipeline),
        quality_score_summary=quality_summary(pipeline),
        muse_version=__version__,
    )
    return write_manifest(session_dir, manifest)


def session_sheet(
    pipeline: ComposerPipeline,
    presets: Sequence[PresetAssignment],
    files: list[tuple[str, str]],
) -> SessionSheet:
    """What the notes say about this session, gathered from the pipeline."""
    song = pipeline.song_state
    drum_map = pipeline.config.drum_map
    names = midi_file_names(song.tracks)
    by_track = {p.track_id: p.preset for p in presets}
    patterns = [p for p, _ in files if p.startswith(f"{PATTERN_DIR}/")]
    if patterns:  # one line for the folder, not one per pattern
        at = next(i for i, (p, _) in enumerate(files) if p in patterns)
        files = [f for f in files if f[0] not in patterns]
        files.insert(at, (f"{PATTERN_DIR}/", f"{len(patterns)} MPC patterns: {PATTERN_WORDS}"))
    sheets = []
    for number, (track, channel) in enumerate(
        zip(song.tracks, assign_channels(song.tracks), strict=True), start=1
    ):
        preset = by_track.get(track.id) or track.preset
        sheets.append(
            TrackSheet(
                track_id=track.id,
                number=number,
                name=track.name,
                role=track.role,
                channel=channel,
                midi_file=names[track.id],
                engine=preset.engine if preset else None,
                patch=preset.name if preset else None,
                idiom=instrument_table().idiom_of(track.instrument),
            )
        )
    return SessionSheet(
        title=song.title,
        prompt=pipeline.raw_prompt,
        genre=song.genre,
        key=f"{song.key} {song.mode}",
        tempo=song.tempo,
        time_signature=song.time_signature,
        bars=song_bars(song),
        tracks=sheets,
        meter_words="" if song.meter.is_common else song.meter.feel_words,
        meter_changes=[
            (s.start_bar + 1, s.name, s.meter.label)
            for s in (song.arrangement.sections if song.arrangement else [])
            if s.meter is not None
        ],
        sections=list(song.arrangement.sections) if song.arrangement else [],
        chords=[c.symbol for c in song.progression.chords] if song.progression else [],
        section_chords=_section_chords(song),
        files=files,
        full_arrangement=f"{MIDI_DIR}/{FULL_ARRANGEMENT}.mid" if song.tracks else None,
        progression_file=PROGRESSION_FILE if song.progression else None,
        patterns_dir=PATTERN_DIR if patterns else None,
        pads=[(p.pad, p.name, p.gm_note, p.note) for p in drum_pads(song, drum_map)],
        pad_layout=pad_table().maps[drum_map].label,
    )


def _section_chords(song: SongState) -> list[tuple[str, list[str]]]:
    """(section kind, chord symbols) for each kind the song has that plays its own chords."""
    if song.progression is None or song.arrangement is None:
        return []
    kinds = dict.fromkeys(s.kind for s in song.arrangement.sections)
    own = song.progression.sections
    return [(k, [c.symbol for c in own[k].chords]) for k in kinds if k in own]


def song_bars(song: SongState) -> int:
    """The song's length in bars: the arrangement's, or up to the last note."""
    if song.arrangement is not None:
        return song.arrangement.total_bars
    end = max((n.end_beat for t in song.tracks for n in t.notes), default=0.0)
    return math.ceil(end / song.beats_per_bar - 1e-9)


def _sounds(pipeline: ComposerPipeline) -> SoundsOutput | None:
    record = pipeline.stages.get(5)
    output = record.output if record else None
    return output if isinstance(output, SoundsOutput) else None


def _chains(song: SongState, sounds: SoundsOutput | None) -> list[tuple[str, EffectChain]]:
    labels = {t.id: f"Track {n}: {t.name} ({t.role})" for n, t in enumerate(song.tracks, start=1)}
    labels |= {b.id: f"Bus: {b.name}" for b in song.buses}
    chains = list(sounds.effect_chains) if sounds and sounds.effect_chains else []
    if not chains:
        chains = [t.effect_chain for t in song.tracks if t.effect_chain]
        chains += [b.effect_chain for b in song.buses if b.effect_chain]
    order = list(labels)
    chains.sort(key=lambda c: order.index(c.target_id) if c.target_id in labels else len(order))
    return [(labels.get(c.target_id, c.target_id), c) for c in chains]


def remove_stale_song_files(session_dir: Path, written: list[ManifestFile]) -> None:
    """MIDI files and patterns `write_song_midi` did not write this time (a track removed, a
    section a track no longer plays in) must not stay behind."""
    _remove_stale(session_dir, MIDI_DIR, "*.mid", written)
    _remove_stale(session_dir, PATTERN_DIR, "*.mpcpattern", written)


def _remove_stale(
    session_dir: Path, folder_name: str, pattern: str, written: list[ManifestFile]
) -> None:
    """Files of ours (`pattern` in the folder) this write did not produce must not stay behind."""
    keep = {f.path for f in written}
    folder = inside_session(session_dir, folder_name)
    for path in folder.glob(pattern) if folder.is_dir() else []:
        if f"{folder_name}/{path.name}" not in keep:
            remove_file(path)


def _entry(session_dir: Path, path: Path) -> ManifestFile:
    """A state file's entry; one the engine's writer has yet to land counts 0 bytes for now."""
    relative = path.relative_to(session_dir).as_posix()
    try:
        size = current_size(path)
    except FileNotFoundError:
        size = 0
    return ManifestFile(
        path=relative, type="state", description=_DESCRIPTIONS[relative], size_bytes=size
    )


def _planned(path: str) -> ManifestFile:
    kind = "manifest" if path == MANIFEST_FILE else "notes"
    return ManifestFile(path=path, type=kind, description=_DESCRIPTIONS[path], size_bytes=0)


def section_progressions(session_dir: Path, song: SongState) -> list[ManifestFile]:
    """A `.progression` file for each section with chords of its own; stale ones removed.

    Only `section-*` files are ours to remove: any other may be the producer's own.
    """
    sections = song.arrangement.sections if song.arrangement else []
    files = [
        write_progression(session_dir, s.progression, s.name, path=section_progression_file(s.name))
        for s in sections
        if s.progression is not None
    ]
    _remove_stale(session_dir, "progression", "section-*.progression", files)
    return files


def record_run_in_manifest(
    session_dir: Path, pipeline: ComposerPipeline, song_files: list[ManifestFile] | None = None
) -> bool:
    """Bring an existing manifest's timings, status and sizes up to date; False if none yet.

    `song_files` (what `write_song_midi` just wrote) replace the MIDI and pattern entries:
    a track's part may now play in a section it did not, or no longer in one it did.
    An unreadable manifest is written anew from the pipeline, with the whole
    session, so a corrupt manifest never stops a change half way.
    """
    path = session_dir / MANIFEST_FILE
    if not path.exists():
        return False
    try:
        manifest = read_manifest(session_dir)
    except (ValueError, ValidationError, OSError, RecursionError):
        write_session(session_dir, pipeline)
        return True
    # The state files were checkpointed again after S8 listed them: refresh their sizes.
    files = [
        entry.model_copy(update={"size_bytes": current_size(session_dir / entry.path)})
        if _is_file(session_dir / entry.path)
        else entry
        for entry in manifest.files
    ]
    if song_files is not None:
        song_kinds = {"midi", "pattern"}
        at = next((i for i, f in enumerate(files) if f.type in song_kinds), len(files))
        rest = [f for f in files if f.type not in song_kinds]
        files = [*rest[:at], *song_files, *rest[at:]]
    manifest = manifest.model_copy(
        update={"stage_timings": stage_timings(pipeline), "status": pipeline.status, "files": files}
    )
    write_manifest(session_dir, manifest)  # keeps the manifest's own size entry right
    return True


def _is_file(path: Path) -> bool:
    try:
        current_size(path)
    except OSError:
        return False
    return not path.is_dir()
