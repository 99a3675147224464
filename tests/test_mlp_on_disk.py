"""The MLP on z-scored rows kept on disk (``mlp_input.StreamedInput``): the in-memory MLP's bits, with
one batch of rows in memory at a time."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import robotask.episode.models.mlp as M
from robotask.episode.models.minimal import ZScaler
from robotask.episode.models.mlp import MLPConfig, train_mlp
from robotask.episode.models.mlp_input import RowReader, spans, subset_rows
from robotask.episode.models.row_blocks import RowBlocks, RowFile


def _on_disk(x: np.ndarray, path, pieces: int = 5) -> RowBlocks:
    """``x`` written as RowBlocks whose ranges are out of the file's order (as a split's episodes may be)."""
    cuts = np.linspace(0, len(x), pieces + 1).astype(int)
    file = RowFile(path, x.shape[1])
    file.append(np.zeros((3, x.shape[1]), np.float32))  # rows no range names
    ranges = {k: file.append(x[a:b]) for k, (a, b) in reversed(list(enumerate(zip(cuts[:-1], cuts[1:]))))}
    return RowBlocks(file.path, x.shape[1], tuple(ranges[k] for k in range(pieces)))


def _toy(n: int = 300, d: int = 20):
    rng = np.random.default_rng(0)
    x = (rng.normal(size=(n, d)) * 2 + 0.5).astype(np.float32)
    y = (x[:, 0] + x[:, 1] + rng.normal(size=n) > 1).astype(np.int64)
    return x, y


def _same_run(a: M.MLPResult, b: M.MLPResult, x: np.ndarray, xd: RowBlocks) -> None:
    assert a.history == b.history and a.best_epoch == b.best_epoch
    for p, q in zip(a.model.state_dict().values(), b.model.state_dict().values()):
        assert np.array_equal(p.numpy(), q.numpy())
    assert np.array_equal(a.predict(x), b.predict(xd))


def test_reader_reads_any_rows_in_their_order(tmp_path):
    x, _ = _toy(50, 7)
    rows = _on_disk(x, tmp_path / "x.f32")
    reader = RowReader(rows)
    for idx in (np.array([4, 17, 3, 40, 5, 0, 49, 10, 11, 12]), np.arange(50), np.arange(9, 31), np.array([6])):
        assert np.array_equal(reader.read(idx), x[idx])
    some = np.array([1, 2, 3, 30, 31, 8, 49])
    assert np.array_equal(RowReader(subset_rows(rows, some)).read(np.arange(len(some))), x[some])
    assert spans(10, 4) == [(0, 4), (4, 8), (8, 10)] and spans(10, 4, 3) == [(0, 4), (4, 10)]
    with pytest.raises(ValueError):  # rows z-scored on read: copy them to a file first
        RowReader(rows.scaled(ZScaler(np.zeros(7, np.float32), np.ones(7, np.float32))))


@pytest.mark.parametrize("kind", ["classifier", "multilabel", "regressor"])
def test_training_on_disk_is_the_in_memory_training_bit_for_bit(tmp_path, kind, monkeypatch):
    x, y = _toy()
    monkeypatch.setattr(RowBlocks, "gather", lambda self: pytest.fail("the rows were gathered"))
    if kind == "multilabel":
        y = np.stack([y, (x[:, 2] > 0)], axis=1).astype(np.float32)
    elif kind == "regressor":
        y = x[:, :3] * 0.5 + np.float32(0.1)
    d_out = {"classifier": 2, "multilabel": 2, "regressor": 3}[kind]
    extra = ({"class_weight": np.array([0.8, 1.2], np.float32)} if kind == "classifier" else
             {"pos_weight": np.ones(2, np.float32)} if kind == "multilabel" else {})
    xd = _on_disk(x, tmp_path / "x.f32")
    cfg = MLPConfig(epochs=6, batch_size=32, patience=2)
    val = np.arange(200, 300)
    a = train_mlp(x[:200], y[:200], kind, d_out, cfg, x_val=x[200:], y_val=y[200:], **extra)
    b = train_mlp(subset_rows(xd, np.arange(200)), y[:200], kind, d_out, cfg, x_val=subset_rows(xd, val),
                  y_val=y[200:], **extra)
    _same_run(a, b, x, xd)


def test_validation_read_in_blocks_has_the_whole_matrix_bits(tmp_path, monkeypatch):
    """Validation rows read in blocks (a short last block joined to the one before), early stopping."""
    x, y = _toy(330)
    y = np.where(np.random.default_rng(1).random(len(y)) < 0.3, 1 - y, y)  # noisy: validation loss turns up
    monkeypatch.setattr(M, "EVAL_ROWS", 32)  # 130 validation rows: blocks of 32, the last of 34
    xd = _on_disk(x, tmp_path / "x.f32")
    cfg = MLPConfig(epochs=40, batch_size=64, patience=3)
    a = train_mlp(x[:200], y[:200], "classifier", 2, cfg, x_val=x[200:], y_val=y[200:])
    b = train_mlp(subset_rows(xd, np.arange(200)), y[:200], "classifier", 2, cfg,
                  x_val=subset_rows(xd, np.arange(200, 330)), y_val=y[200:])
    assert a.best_epoch < a.history[-1]["epoch"]  # stopped early
    _same_run(a, b, x, xd)
    whole = M._validation_outputs(a.model, x[200:])  # each validation row's outputs, not only their mean loss
    assert np.array_equal(M._validation_outputs(a.model, subset_rows(xd, np.arange(200, 330))).numpy(), whole.numpy())


def test_memory_holds_a_batch_not_the_rows(tmp_path):
    """NumPy's allocations while training on disk stay far below the matrix (torch's: one batch's x̂)."""
    x, y = _toy(4000, 200)  # 3.2 MB of rows
    xd = _on_disk(x, tmp_path / "x.f32")
    del x
    tracemalloc.start()
    try:
        train_mlp(xd, y, "classifier", 2, MLPConfig(epochs=1, batch_size=128))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4000 * 200 * 4 / 4
