"""One table from an error to its sentence, next step and exit code, for the CLI and the studio."""

from __future__ import annotations

import errno
from pathlib import Path

from muse_tui.engine.alternatives import AlternativesError
from muse_tui.engine.proposals import ProposalStale
from muse_tui.knowledge import SkillFileError
from muse_tui.session.failures import ExitCode, NotComposed, error_sentence, failure_of
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.lock import SessionBusy, busy_sentence
from muse_tui.tui.editing import edit_sentence


def test_a_full_disk_says_so_and_what_to_do() -> None:
    full = WriteFailed(errno.ENOSPC, "could not write midi/bass.mid: no space left on device")
    failure = failure_of(full)
    assert failure is not None and failure.kept
    assert failure.next_step == "Free some space, then try again."
    assert failure.exit_code == ExitCode.FAILED


def test_a_rival_writer_is_its_own_sentence_not_a_write_failure() -> None:
    busy = SessionBusy(busy_sentence(Path("session-1"), "42"))
    failure = failure_of(busy)
    assert failure is not None and failure.next_step == "" and "pid 42" in failure.sentence


def test_an_unknown_element_is_bad_usage_and_a_broken_skill_file_names_the_file() -> None:
    assert failure_of(AlternativesError("no such element")).exit_code == ExitCode.USAGE  # type: ignore[union-attr]
    broken = failure_of(SkillFileError(Path("skills/jam/personas.json"), "not JSON"))
    assert broken is not None and "personas.json" in broken.sentence
    assert broken.next_step == "Fix the file or restore it from the repository."


def test_a_session_without_a_song_says_to_resume_it() -> None:
    failure = failure_of(NotComposed(Path("/tmp/session-20261128-abc123")))
    assert failure is not None
    assert failure.sentence == "session-20261128-abc123 was never composed past its prompt."
    assert failure.next_step == "Resume it first: `muse-studio resume session-20261128-abc123`."


def test_a_bug_is_not_in_the_table() -> None:
    assert failure_of(KeyError("tracks")) is None
    assert error_sentence(KeyError("tracks")).endswith("report it with this message.")


def test_the_studio_shows_the_same_words_and_that_the_song_is_as_it_was() -> None:
    busy = SessionBusy(busy_sentence(Path("session-1"), "42"))
    assert edit_sentence(busy) == (
        "Session session-1 is being changed by another muse-studio (pid 42); "
        "try again when it finishes; the song on screen is as it was."
    )
    stale = ProposalStale("The song changed after this proposal was made.")
    assert edit_sentence(stale) == "The song changed after this proposal was made."
