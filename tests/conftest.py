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



@pytest.fixture(scope="module")
def small_store(request, tmp_path_factory):
    """Four small synthetic episodes (160 frames, 16 px, seed 5) with their features, a private cache, and the
    collection suite's store of the requesting module's ``TASKS`` under the improved protocol:
    ``(collection, root, store, protocol)``."""
    from robotask.episode.features.distributed import extract_collection
    from robotask.episode.files.manifest import load_collection
    from robotask.episode.synthesis.varied import synth_collection
    from robotask.episode.tasks.protocols import get_protocol
    from robotask.episode.unseen.task_data import build_store

    root = tmp_path_factory.mktemp("store")
    mp = pytest.MonkeyPatch()
    mp.setenv("ROBOTASK_CACHE", str(root / "cache"))
    mp.setenv("ROBOTASK_PROGRESS", "0")
    synth_collection(root / "coll", 4, 160, 16, 5, workers=2)
    collection = load_collection(root / "coll")
    extract_collection(collection, root / "features", workers=1, progress=False)
    proto = get_protocol("improved")
    store = build_store(collection, root / "features", [proto], request.module.TASKS, root / "store", progress=False)
    yield collection, root, store, proto
    mp.undo()
