"""Shared fixtures. Notebooks executed at smoke scale go to _build/smoke (read by nbval afterwards)."""

from __future__ import annotations

import os

import pytest

from robotask import paths

SMOKE_DIR = paths.BUILD / "smoke"


@pytest.fixture(scope="session")
def smoke_env():
    """Route smoke-run results away from the book's results and return the smoke folder."""
    SMOKE_DIR.mkdir(parents=True, exist_ok=True)
    old = os.environ.get("ROBOTASK_RESULTS")
    os.environ["ROBOTASK_RESULTS"] = str(SMOKE_DIR / "results")
    yield SMOKE_DIR
    if old is None:
        os.environ.pop("ROBOTASK_RESULTS", None)
    else:
        os.environ["ROBOTASK_RESULTS"] = old

