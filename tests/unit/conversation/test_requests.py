"""Issue 31: every request of `requests.yaml` does what the producer said, and nothing more.

One test per row: the songs are composed once per run, each request runs on a
fresh copy of its session, and the MIDI before and after is compared
(`harness.py`). A row that still fails is marked `xfail` in the table with the
reason, strictly, so it is noticed when it starts to pass.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .harness import FAMILIES, Song, compose_songs, row_id, rows, run_row

pytestmark = pytest.mark.slow


def _param(index: int, row: dict[str, Any]) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=row["xfail"])] if row.get("xfail") else []
    return pytest.param(index, row, id=row_id(row), marks=marks)


@pytest.fixture(scope="module")
def songs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Song]:
    return compose_songs(tmp_path_factory.mktemp("conversation"))


def test_the_table_has_thirty_requests_in_each_family() -> None:
    found = [r["family"] for r in rows()]
    assert {f: found.count(f) for f in FAMILIES} == dict.fromkeys(FAMILIES, 30)
    assert len({row_id(r) for r in rows()}) == len(found), "a request is in the table twice"


@pytest.mark.parametrize(("index", "row"), [_param(i, r) for i, r in enumerate(rows())])
def test_request_does_what_was_asked(
    index: int, row: dict[str, Any], songs: dict[str, Song], tmp_path: Path
) -> None:
    outcome = run_row(row, songs, tmp_path, index)
    assert outcome.passed, f"{outcome.why} ({outcome.status}: “{outcome.summary}”)"
