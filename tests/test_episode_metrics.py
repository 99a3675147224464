"""Episode-suite metrics against hand-computed cases (spec §5.0)."""

from __future__ import annotations

import numpy as np
import pytest

from robotask.episode.tasks import blockwise
from robotask.episode.tasks import metrics as M


def cosine_similarity(queries: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """Cosine similarity of every query row with every candidate row (norm floor 1e-8), in float64: the
    whole-matrix oracle of ``M.cosine_ranks``."""
    q, c = np.asarray(queries, dtype=np.float64), np.asarray(candidates, dtype=np.float64)
    q = q / np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-8)
    c = c / np.maximum(np.linalg.norm(c, axis=1, keepdims=True), 1e-8)
    return q @ c.T


def test_classification_averages_over_supported_classes_only():
    names = ["a", "b", "c"]  # "c" has no test support
    y = np.array([0, 0, 1, 1])
    p = np.array([0, 1, 1, 2])
    m = M.classification_metrics(y, p, names)
    assert m["accuracy"] == pytest.approx(0.5)
    # a: P 1, R 0.5, F1 2/3; b: P 0.5, R 0.5, F1 0.5
    assert m["macro_f1"] == pytest.approx((2 / 3 + 0.5) / 2)
    assert m["balanced_accuracy"] == pytest.approx(0.5)
    assert m["weighted_f1"] == pytest.approx((2 / 3 + 0.5) / 2)
    cm = M.confusion_table(y, p, names)
    assert cm.iloc[1, 1:].tolist() == [0, 1, 1]
    table = M.per_class_table(y, p, names)
    assert table["predicted"].tolist() == [1, 2, 1]


def test_binary_counts():
    m = M.binary_metrics(np.array([1, 1, 0, 0, 1]), np.array([1, 0, 1, 0, 1]))
    assert (m["tp"], m["tn"], m["fp"], m["fn"]) == (2, 1, 1, 1)
    assert m["precision"] == pytest.approx(2 / 3) and m["recall"] == pytest.approx(2 / 3)
    assert m["f1"] == pytest.approx(2 / 3) and m["accuracy"] == pytest.approx(0.6)


def test_pooled_r2_by_hand():
    y = np.array([[1.0, 10.0], [3.0, 30.0]])
    p = np.array([[2.0, 10.0], [2.0, 40.0]])
    # column means 2 and 20: SS_tot = 1 + 1 + 100 + 100 = 202; SS_res = 1 + 1 + 0 + 100 = 102
    assert M.pooled_r2(y, p) == pytest.approx(1 - 102 / 202)
    assert M.pooled_r2(np.ones((3, 2)), np.zeros((3, 2))) == 0.0
    m = M.regression_metrics(y, p)
    assert m["mse"] == pytest.approx(102 / 4) and m["mae"] == pytest.approx(12 / 4)


def test_mpjpe_and_final_frame():
    y = np.zeros((1, 2 * 1 * 3))  # 2 future frames, 1 joint
    p = np.array([[3.0, 4.0, 0.0, 0.0, 0.0, 1.0]])
    assert M.mpjpe(y, p, 2) == pytest.approx((5 + 1) / 2)
    assert M.mpjpe(y, p, 2, final_only=True) == pytest.approx(1.0)


def test_retrieval_ranks_and_groups():
    sim = np.array([[0.9, 0.1, 0.5], [0.8, 0.2, 0.1], [0.3, 0.4, 0.35]])
    ranks = M.retrieval_ranks(sim)
    assert ranks.tolist() == [1, 2, 2]
    m = M.retrieval_metrics(ranks)
    assert m["mrr"] == pytest.approx((1 + 0.5 + 0.5) / 3) and m["top1_accuracy"] == pytest.approx(1 / 3)
    # candidates 0 and 1 share a caption: query 1 now counts candidate 0 as correct
    assert M.retrieval_ranks(sim, np.array([0, 0, 1])).tolist() == [1, 1, 2]
    # a zero candidate has similarity 0 (norm floor), not NaN: query 1's positive ranks behind candidate 0
    assert M.cosine_ranks(np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([[2.0, 0.0], [0.0, 0.0]])).tolist() == [1, 2]


def test_random_ranking_expectation_is_harmonic():
    n = 4
    r = M.random_retrieval_metrics(n)
    assert r["mrr"] == pytest.approx((1 + 1 / 2 + 1 / 3 + 1 / 4) / 4)
    assert r["top1_accuracy"] == pytest.approx(0.25) and r["top5_accuracy"] == 1.0


def test_multilabel_micro_macro_exact():
    y = np.array([[1, 0, 0], [1, 1, 0]])
    p = np.array([[1, 0, 0], [0, 1, 1]])
    m = M.multilabel_metrics(y, p)
    # cells: tp 2, fp 1, fn 1
    assert m["micro_precision"] == pytest.approx(2 / 3) and m["micro_f1"] == pytest.approx(2 / 3)
    # per label F1: 2/3, 1, 0 (label 2 absent from truth counts as 0)
    assert m["macro_f1"] == pytest.approx((2 / 3 + 1 + 0) / 3)
    assert m["exact_match"] == pytest.approx(0.5)


def test_boundary_f1_greedy_matching():
    # prediction 95 takes boundary 100 (nearest, within 10); 104 then has nothing unused within 10;
    # 200 matches nothing; 305 matches 300
    r = M.boundary_f1([95, 104, 200, 305], [100, 300, 400], tolerance=10)
    assert r["matched_boundaries"] == 2 and r["predicted_boundaries"] == 4 and r["true_boundaries"] == 3
    assert r["boundary_precision"] == pytest.approx(0.5) and r["boundary_recall"] == pytest.approx(2 / 3)
    assert r["boundary_f1"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    assert r["mean_abs_timing_error_frames"] == pytest.approx(5.0)
    assert M.boundary_f1([], [100])["mean_abs_timing_error_frames"] is None
    # greedy, in prediction order: 108 grabs 100 although 101 would be closer for the second prediction
    r = M.boundary_f1([108, 101], [100, 95], tolerance=10)
    assert r["matched_boundaries"] == 2 and r["mean_abs_timing_error_frames"] == pytest.approx((8 + 6) / 2)


def test_boundary_nms_keeps_local_maxima():
    kept = M.boundary_nms(np.array([90, 95, 100, 105, 300]), np.array([0.6, 0.9, 0.8, 0.7, 0.55]), radius=20)
    assert kept.tolist() == [95, 300]


def test_label_coverage():
    assert M.label_coverage(np.array([0, 1]), np.array([1, 2, 2, 0])) == pytest.approx(0.5)


def _wide(rng: np.random.Generator, n: int, w: int, dtype: type) -> np.ndarray:
    """Values of very different sizes, where any change of summation order shows in the last bits."""
    return (rng.normal(size=(n, w)) * np.exp(rng.normal(size=(n, w)) * 3) + 5).astype(dtype)


@pytest.mark.parametrize("n,w", [(1, 1), (7, 3), (130, 1), (1000, 2), (301, 5096), (2150, 630)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blockwise_sums_are_numpys_bit_for_bit(n: int, w: int, dtype: type) -> None:
    """``blockwise.total`` / ``column_total`` / ``column_std`` equal NumPy's sum, axis-0 sum and std exactly."""
    rng = np.random.default_rng(n * w)
    x = _wide(rng, n, w, dtype)
    xf = x.astype(np.float64)
    assert blockwise.total(lambda a, b: xf[a:b] ** 2, n, w) == np.sum(xf ** 2)
    assert np.array_equal(blockwise.column_total(lambda a, b: xf[a:b], n, w), xf.sum(axis=0))
    std = blockwise.column_std(x)
    assert std.dtype == x.std(axis=0).dtype and np.array_equal(std, x.std(axis=0))


@pytest.mark.parametrize("n,w", [(1, 4), (50, 1), (2150, 5096), (700, 40)])
def test_block_metrics_equal_the_whole_matrix_formulas(n: int, w: int) -> None:
    """Regression metrics in row blocks equal the formulas on whole float64 copies (the former code)."""
    rng = np.random.default_rng(w)
    t, p = _wide(rng, n, w, np.float32), _wide(rng, n, w, np.float32)
    tf, pf = t.astype(np.float64), p.astype(np.float64)
    den = float(np.sum((tf - tf.mean(axis=0)) ** 2))
    r2 = 1.0 - float(np.sum((tf - pf) ** 2)) / den if den > 0 else 0.0
    m = M.regression_metrics(t, p)
    assert (m["mse"], m["mae"], m["r2"]) == (float(np.mean((tf - pf) ** 2)), float(np.mean(np.abs(tf - pf))), r2)
    std = t.std(axis=0) + 0.5
    ts, ps = (t / std).astype(np.float64), (p / std).astype(np.float64)
    den = float(np.sum((ts - ts.mean(axis=0)) ** 2))
    assert M.standardized_r2(t, p, std) == (1.0 - float(np.sum((ts - ps) ** 2)) / den if den > 0 else 0.0)


@pytest.mark.parametrize("n,w", [(3, 5), (67, 30), (700, 384), (300, 2600)])
def test_cosine_ranks_in_blocks_equal_the_whole_matrix(n: int, w: int, monkeypatch) -> None:
    """Ranks from blocks of queries and candidates equal those of the whole similarity matrix, with and
    without groups, including blocks that end mid-way (small blocks forced)."""
    rng = np.random.default_rng(n)
    truth = rng.normal(size=(n, w)).astype(np.float32)
    pred = (truth + rng.normal(size=(n, w)) * 2).astype(np.float32)
    pred[n // 2] = truth[n // 2]  # an exact tie
    groups = rng.integers(0, max(n // 3, 1), size=n)
    for block in (M.RANK_BLOCK_BYTES, 64 * 8 * 64):
        monkeypatch.setattr(M, "RANK_BLOCK_BYTES", block)
        for g in (None, groups):
            assert np.array_equal(M.cosine_ranks(pred, truth, g),
                                  M.retrieval_ranks(cosine_similarity(pred, truth), g))


@pytest.mark.parametrize("n", [1, 70, 2300])
def test_mpjpe_in_blocks_and_on_disk_equals_the_whole_formula(n: int, tmp_path) -> None:
    """MPJPE one block of rows at a time (``blockwise.total``) is the mean over whole float64 copies, bit
    for bit; so are the regression metrics of targets and predictions read from disk (``LazyRows``)."""
    from robotask.episode.models.row_blocks import RowBlocks, RowFile

    rng = np.random.default_rng(n)
    t = rng.normal(size=(n, 20 * 21 * 3)).astype(np.float32)
    p = (t + rng.normal(size=t.shape) * 0.05).astype(np.float32)

    def on_disk(a: np.ndarray, name: str):
        file = RowFile(tmp_path / name, a.shape[1])
        file.append(a)
        return RowBlocks(file.path, a.shape[1], ((0, len(a)),)).matrix()

    lt, lp = on_disk(t, "t.f32"), on_disk(p, "p.f32")
    for final in (False, True):
        tf, pf = t.astype(np.float64).reshape(n, 20, -1, 3), p.astype(np.float64).reshape(n, 20, -1, 3)
        if final:
            tf, pf = tf[:, -1], pf[:, -1]
        whole = float(np.linalg.norm(tf - pf, axis=-1).mean())
        assert M.mpjpe(t, p, 20, final_only=final) == whole == M.mpjpe(lt, lp, 20, final_only=final)
    assert M.regression_metrics(t, p) == M.regression_metrics(lt, lp)
    std = blockwise.column_std(t)
    assert np.array_equal(std, blockwise.column_std(lt))
    assert M.standardized_r2(t, p, std) == M.standardized_r2(lt, lp, std)
