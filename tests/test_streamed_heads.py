"""The streamed minimal heads (``models.streamed``) are the in-memory heads (``models.minimal``) to rounding."""

from __future__ import annotations

import numpy as np
import pytest

import robotask.episode.models.products as P
import robotask.episode.models.streamed as S
import robotask.episode.models.streamed_ridge as SR
from robotask.episode.models.minimal import MultiLabelHead, SoftmaxHead, ZScaler, fit_dual_ridge
from robotask.episode.models.row_blocks import RowBlocks, RowFile, streamed_moments
from robotask.episode.models.streamed import fit_multilabel, fit_softmax
from robotask.episode.models.streamed_ridge import fit_ridge


def _stored(tmp_path, x: np.ndarray, sizes: list[int]) -> RowBlocks:
    """``x`` appended in episode-sized pieces, with a foreign piece between, read back as blocks."""
    store = RowFile(tmp_path / "x.f32", x.shape[1])
    ranges, at = [], 0
    for size in sizes:
        ranges.append(store.append(x[at:at + size]))
        store.append(np.full((3, x.shape[1]), 99.0))  # rows of another task: never read
        at += size
    return RowBlocks(store.path, x.shape[1], tuple(ranges))


@pytest.mark.parametrize("n,d,dual", [(60, 90, True), (60, 90, False), (120, 40, False)])
def test_streamed_heads_equal_in_memory(tmp_path, monkeypatch, n: int, d: int, dual: bool) -> None:
    """Dual on a Gram matrix summed from disk, or streamed primal epochs (forced by a zero Gram budget)."""
    if not dual:
        monkeypatch.setattr(S, "DUAL_BYTES", 0)
    rng = np.random.default_rng(3)
    x = (rng.normal(size=(n, d)) * rng.uniform(0.5, 3, size=d) + 2).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 4).astype(int) + (x[:, 2] > 2)
    rows = _stored(tmp_path, x, [n // 3, n // 3, n - 2 * (n // 3)])
    assert np.array_equal(rows.gather(), x)
    scaler, streamed = ZScaler.fit(x), streamed_moments(rows)
    np.testing.assert_allclose(streamed.mean, scaler.mean, rtol=1e-6)
    np.testing.assert_allclose(streamed.std, scaler.std, rtol=1e-6)
    z = scaler.transform(x)
    zr = rows.scaled(scaler)
    head = SoftmaxHead(3, epochs=50, stable_step=True).fit(z, y)
    fit = fit_softmax(zr, y, 3, epochs=50, stable_step=True)
    assert fit.smoothness == pytest.approx(head.smoothness, rel=1e-6)
    np.testing.assert_allclose(fit.predict_proba(zr), head.predict_proba(z), rtol=1e-4, atol=1e-6)
    assert fit.history[-1]["loss"] == pytest.approx(head.history[-1]["loss"], rel=1e-5)
    assert fit.history[-1]["train_accuracy"] == head.history[-1]["train_accuracy"]
    multi = (np.stack([x[:, 0] > 2, x[:, 1] > 2.5, x[:, 3] > 1]).T).astype(np.int8)
    ml, mls = MultiLabelHead(epochs=30).fit(z, multi), fit_multilabel(zr, multi, epochs=30)
    np.testing.assert_allclose(mls.predict_proba(zr), ml.predict_proba(z), rtol=1e-4, atol=1e-6)
    assert mls.history[-1]["loss"] == pytest.approx(ml.history[-1]["loss"], rel=1e-5)
    target = np.stack([x[:, 0] * 2 - x[:, 4], x[:, 5]]).T.astype(np.float32)
    ridge, ridge_s = fit_dual_ridge(z, target, dtype=np.float64), fit_ridge(zr, target, dtype=np.float64)
    np.testing.assert_allclose(ridge_s.predict(zr), ridge.predict(z), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n", [1, 2, 37, 40, 301])
def test_packed_gram_is_the_whole_matrix_in_half_the_memory(n: int) -> None:
    """Orders odd and even: sums of aᵀa over blocks of rows (the primal) and blocks of K = zzᵀ from pairs of row
    blocks (the dual, diagonal blocks included) give the whole matrix; its Cholesky solve, in place, is
    NumPy's LU solve to rounding; a matrix that is not positive definite is refused."""
    rng = np.random.default_rng(5)
    x = rng.normal(size=(n + 9, n))
    primal = P.PackedGram(n)
    for start in range(0, len(x), 7):
        primal.add_gram(x[start:start + 7])
    assert primal.data.nbytes == 8 * n * (n + 1) // 2
    np.testing.assert_allclose(primal.full(), x.T @ x, rtol=1e-12, atol=1e-12)
    z = rng.normal(size=(n, 11))
    dual = P.PackedGram(n)
    for i0 in range(0, n, 10):
        for j0 in range(i0, n, 3):
            dual.set_block(j0, i0, (z[i0:i0 + 10] @ z[j0:j0 + 3].T).T)
    np.testing.assert_allclose(dual.full(), z @ z.T, rtol=1e-12, atol=1e-12)
    dual.data[dual.diagonal()] += 10.0
    rhs = rng.normal(size=(n, 5))
    expected = np.linalg.solve(z @ z.T + 10.0 * np.eye(n), rhs)
    work = np.asfortranarray(rhs)
    out = dual.factor().solve(work)
    assert np.shares_memory(out, work)  # solved over the right-hand side
    np.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-12)
    if n > 1:
        with pytest.raises(np.linalg.LinAlgError):
            P.PackedGram(n).factor()


@pytest.mark.parametrize("n,d", [(100, 150), (200, 30)])
def test_ridge_with_episodes_longer_than_a_block(tmp_path, monkeypatch, n: int, d: int) -> None:
    """A range longer than a block is cut into blocks: the bias buffers hold one (dual and primal), wide targets
    too."""
    sizes = {S.BLOCK_BYTES: 32, S.PANEL_BYTES: 40, SR.RIDGE_PANEL_BYTES: 40}  # rows per block and per panel
    monkeypatch.setattr(S, "block_rows", lambda width, size=S.BLOCK_BYTES, itemsize=4: sizes[size])
    monkeypatch.setattr(SR, "block_rows", S.block_rows)
    rng = np.random.default_rng(9)
    x = rng.normal(size=(n, d)).astype(np.float32)
    target = (x[:, :3] @ rng.normal(size=(3, 90)) + rng.normal(size=(n, 90))).astype(np.float32)
    rows = _stored(tmp_path, x, [n // 2, n - n // 2])
    assert rows.largest_block(32) == 32
    ridge, ridge_s = fit_dual_ridge(x, target, dtype=np.float64), fit_ridge(rows, target, dtype=np.float64)
    np.testing.assert_allclose(ridge_s.predict(rows), ridge.predict(x), rtol=1e-5, atol=1e-6)


def test_blocks_are_fixed_row_counts_across_episodes(tmp_path) -> None:
    """With ``max_rows`` the blocks are rows k·max_rows to (k + 1)·max_rows over all ranges, whatever the
    episodes' lengths (joined or cut), skipping unread those before ``from_row``; without, one per range."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(103, 5)).astype(np.float32)
    rows = _stored(tmp_path, x, [7, 60, 1, 35])
    for size in (1, 8, 32, 50, 200):
        got = [(sl, block.copy()) for sl, block in rows.blocks(size)]
        assert [sl.start for sl, _ in got] == list(range(0, 103, size))
        assert all(np.array_equal(block, x[sl]) for sl, block in got)
        assert rows.largest_block(size) == min(size, 103)
        later = [sl.start for sl, _ in rows.blocks(size, from_row=size)]
        assert later == list(range(size, 103, size))
    assert [len(block) for block in rows] == [7, 60, 1, 35]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_products_added_in_place(dtype: type) -> None:
    """``add_product`` and ``add_gram`` + ``mirror_upper`` add aᵀb and aᵀa into the matrix itself (no copy),
    to rounding of the NumPy product; the Gram sum is exactly symmetric."""
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(40, 300)).astype(dtype), rng.normal(size=(40, 9)).astype(dtype)
    out, gram = rng.normal(size=(300, 9)).astype(dtype), np.zeros((300, 300), dtype=dtype)
    expected, where = out + a.T @ b, (out.ctypes.data, gram.ctypes.data)
    P.add_product(out, a, b)
    P.add_gram(gram, a[:25])
    P.add_gram(gram, a[25:])
    P.mirror_upper(gram, panel=64)
    assert (out.ctypes.data, gram.ctypes.data) == where
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out, expected, rtol=tol, atol=tol)
    np.testing.assert_allclose(gram, a.T @ a, rtol=tol, atol=tol * 10)
    assert np.array_equal(gram, gram.T)


def test_lazy_rows_read_slices_and_means_as_numpy(tmp_path) -> None:
    """LazyRows over ranges of a raw file: slices, index arrays, masks, and ``ndarray.mean``'s bits."""
    rng = np.random.default_rng(4)
    x = (rng.normal(size=(900, 70)) * rng.uniform(0.1, 500.0, size=70)).astype(np.float32)
    m = _stored(tmp_path, x, [300, 1, 599]).matrix()
    assert m.shape == x.shape and np.array_equal(np.asarray(m), x)
    assert np.array_equal(np.asarray(m[250:620][3:40]), x[250:620][3:40])
    idx = rng.permutation(900)[:333]
    assert np.array_equal(m[idx], x[idx]) and np.array_equal(m[x[:, 0] > 0], x[x[:, 0] > 0])
    for dtype in (None, np.float64):
        assert np.array_equal(m.mean(axis=0, dtype=dtype), x.mean(axis=0, dtype=dtype))
    assert np.array_equal(m[100:].mean(axis=0, keepdims=True), x[100:].mean(axis=0, keepdims=True))


@pytest.mark.parametrize("n,d", [(80, 120), (300, 40)])
def test_ridge_on_targets_on_disk_is_the_ridge_in_memory(tmp_path, n: int, d: int) -> None:
    """Dual and primal, float64 and float32: targets read from disk a block at a time give the same weights
    and the same predictions, written to disk by ``predict_to``."""
    rng = np.random.default_rng(6)
    x = rng.normal(size=(n, d)).astype(np.float32)
    y = (rng.normal(size=(n, 300)) * 4 + 2).astype(np.float32)
    rows = _stored(tmp_path, x, [n // 2, n - n // 2])
    file = RowFile(tmp_path / "y.f32", 300)
    file.append(y)
    lazy = RowBlocks(file.path, 300, ((0, n),)).matrix()
    for dtype in (np.float64, np.float32):
        ridge, on_disk = fit_ridge(rows, y, std_floor=1e-3, dtype=dtype), fit_ridge(rows, lazy, std_floor=1e-3,
                                                                                    dtype=dtype)
        assert np.array_equal(ridge.W, on_disk.W)
        pred = on_disk.predict_to(rows, tmp_path / "pred.f32", lambda sl: np.ones((sl.stop - sl.start, 300)))
        assert np.array_equal(np.asarray(pred), (ridge.predict(rows) + 1.0).astype(np.float32))
        pred.discard()
        assert not (tmp_path / "pred.f32").exists()


def test_ridge_panel_size_keeps_the_bits(tmp_path, monkeypatch) -> None:
    """The ridge's outer panel (held beside its Gram matrix) is smaller than the dual heads': the weights are
    those of the former 64 MB panel to rounding (the same bits at the suite's widths with 16 MB, measured; not
    at every panel size: BLAS may form a diagonal block's entries in another order)."""
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(12)
    x = rng.normal(size=(900, 1500)).astype(np.float32)
    y = rng.normal(size=(900, 9)).astype(np.float32)
    rows = _stored(tmp_path, x, [400, 500])
    monkeypatch.setattr(SR, "RIDGE_PANEL_BYTES", 2 << 20)
    assert S.panel_rows(1500, 8, SR.RIDGE_PANEL_BYTES) < 900  # several panels
    with threadpool_limits(1, user_api="blas"):
        small = fit_ridge(rows, y, std_floor=1e-3, dtype=np.float64).W
        monkeypatch.setattr(SR, "RIDGE_PANEL_BYTES", 64 << 20)
        whole = fit_ridge(rows, y, std_floor=1e-3, dtype=np.float64).W
    np.testing.assert_allclose(small, whole, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("n,d", [(120, 300), (300, 40)])
def test_float64_ridge_solved_a_panel_of_target_columns_at_a_time_is_the_whole_solve(tmp_path, monkeypatch, n: int,
                                                                                     d: int) -> None:
    """Dual and primal, the float64 ridge solves ``SOLVE_COLUMNS`` target columns at a time through one Cholesky
    factorization (the dual's weights of each panel waiting in a scratch file): the weights of one whole solve to
    1e-10, whatever the panels' widths. (Bit for bit only where the widths are multiples of the column tiles of
    the BLAS kernel the CPU selects, which differ between machines: not asserted.)"""
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(13)
    x = rng.normal(size=(n, d)).astype(np.float32)
    y = rng.normal(size=(n, 23)).astype(np.float32)
    rows = _stored(tmp_path, x, [50, n - 50])
    with threadpool_limits(1, user_api="blas"):
        monkeypatch.setattr(SR, "SOLVE_COLUMNS", 8)  # three panels, the last of 7 columns
        panels = fit_ridge(rows, y, std_floor=1e-3, dtype=np.float64)
        monkeypatch.setattr(SR, "SOLVE_COLUMNS", 5)
        odd = fit_ridge(rows, y, std_floor=1e-3, dtype=np.float64)
        monkeypatch.setattr(SR, "SOLVE_COLUMNS", 256)
        whole = fit_ridge(rows, y, std_floor=1e-3, dtype=np.float64)
    np.testing.assert_allclose(panels.W, whole.W, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(odd.W, whole.W, rtol=1e-10, atol=1e-14)
    assert not list(tmp_path.glob("tmp*"))  # the scratch file is gone


def test_the_dual_is_chosen_where_its_predicted_time_is_the_smaller_and_its_gram_matrix_fits() -> None:
    """The 16-episode pair tasks go to the dual (counting multiply-adds alone had sent them to the primal, 3-4×
    slower, measured); one epoch never pays for a Gram matrix; beyond :data:`DUAL_BYTES` or n ≥ d, the primal."""
    assert S.use_dual(2552, 25638, 2, 400) and S.use_dual(2398, 7511, 2, 400)
    assert not S.use_dual(2552, 25638, 2, 1)
    assert not S.use_dual(3000, 25638, 2, 400)  # 8 n² = 72 MB > 64 MB
    assert not S.use_dual(500, 400, 2, 400)
