"""Every case of the episode wing's bad-input catalogue gets exactly its stated outcome."""

from __future__ import annotations

import pytest

from robotask.catalogue import run_case
from robotask.episode.badinput import CASES


@pytest.mark.parametrize("case", CASES, ids=[f"{c.group}: {c.name}" for c in CASES])
def test_case_outcome(case):
    outcome = run_case(case)
    assert outcome.ok, f"expected {case.outcome} matching {case.expect!r}, got {outcome.got}: {outcome.message}"


def test_catalogue_covers_its_groups():
    groups = {c.group for c in CASES}
    assert groups == {"videos", "annotation.hdf5", "collections", "outputs", "cache", "prediction files", "cluster"}
    assert len({c.name for c in CASES}) == len(CASES)
