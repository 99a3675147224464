"""The neural MLP head of the episode task suite (spec §6), PyTorch on the CPU; used by
``robotask.episode.tasks.registry``.

LayerNorm(d) → Linear(d, 128) → GELU → Dropout(0.1) → Linear(128, 128) → GELU → Dropout(0.1) → Linear(128, out),
AdamW (lr 1e-3, weight decay 1e-4), 80 epochs, batch 128. ``torch.manual_seed(seed)`` before init, a
``torch.Generator`` seeded with seed + epoch for each shuffle, AdamW from ``adamw.py`` and a fixed thread
count: two runs give identical weights and metrics. Optional validation split with early stopping
(improved protocol, §8.3). Notebook ``12_task`` reports it beside the minimal head.

The inputs are a matrix in memory or z-scored rows in a raw file (``row_blocks.RowBlocks``, the
collection suite's): on disk, each step reads its batch's rows and validation and predictions read
a block of rows at a time (``mlp_input``), so memory does not grow with the rows, and the weights,
losses and outputs are the in-memory run's bits.

PyTorch is imported inside the functions that train or run a network, so that importing this module
(for :class:`MLPConfig`) or running the minimal heads alone never loads it.
"""

from __future__ import annotations

import copy
import io
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...io import atomic_path, write_json
from .adamw import AdamW
from .mlp_input import EVAL_ROWS, LEAST_ROWS, Rows, folded_input, input_blocks, shape_of, spans

if TYPE_CHECKING:  # annotations only
    import torch
    from torch import nn


@dataclass(frozen=True)
class MLPConfig:
    """Hyperparameters of the MLP (spec §6 defaults)."""

    hidden_dim: int = 128
    dropout: float = 0.10
    epochs: int = 80
    batch_size: int = 128
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    seed: int = 7
    threads: int = 1  # one intra-op thread: the bits do not depend on the thread count or the machine
    patience: int = 10  # early stopping patience in epochs (only with a validation set)


def build_mlp(d_in: int, d_out: int, cfg: MLPConfig) -> nn.Sequential:
    """The §6 architecture."""
    from torch import nn

    return nn.Sequential(
        nn.LayerNorm(d_in), nn.Linear(d_in, cfg.hidden_dim), nn.GELU(), nn.Dropout(cfg.dropout),
        nn.Linear(cfg.hidden_dim, cfg.hidden_dim), nn.GELU(), nn.Dropout(cfg.dropout),
        nn.Linear(cfg.hidden_dim, d_out))


def _loss_fn(kind: str, class_weight: np.ndarray | None, pos_weight: np.ndarray | None) -> nn.Module:
    """Cross-entropy (weighted), BCE-with-logits (pos_weight) or MSE."""
    import torch
    from torch import nn

    if kind == "classifier":
        return nn.CrossEntropyLoss(weight=None if class_weight is None else torch.as_tensor(class_weight,
                                                                                          dtype=torch.float32))
    if kind == "multilabel":
        return nn.BCEWithLogitsLoss(pos_weight=torch.as_tensor(pos_weight, dtype=torch.float32))
    return nn.MSELoss()


@dataclass
class MLPResult:
    """A trained MLP with its training log."""

    model: nn.Sequential
    kind: str
    history: list[dict]
    best_epoch: int
    config: MLPConfig

    def predict(self, x: Rows, batch: int = EVAL_ROWS) -> np.ndarray:
        """Raw network outputs (logits or standardised regression values) as float32, ``batch`` rows at a time
        (in memory or read from disk: the same blocks)."""
        return _outputs(self.model, x, spans(shape_of(x)[0], batch)).numpy().astype(np.float32)

    def save(self, out_dir: Path, extra: dict) -> None:
        """Write ``model.pt`` ({model_type, state_dict, config, ...extra}) and ``history.json``."""
        import torch

        out_dir.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()  # saved through a buffer: a file name would be embedded in the archive
        torch.save({"model_type": self.kind, "state_dict": self.model.state_dict(),
                    "hyperparameters": asdict(self.config), **extra}, buffer)
        with atomic_path(out_dir / "model.pt") as tmp:
            tmp.write_bytes(buffer.getvalue())
        write_json(out_dir / "history.json", self.history)


def train_mlp(x_train: Rows, y_train: np.ndarray, kind: str, d_out: int, cfg: MLPConfig,
              class_weight: np.ndarray | None = None, pos_weight: np.ndarray | None = None,
              x_val: Rows | None = None, y_val: np.ndarray | None = None) -> MLPResult:
    """Train the MLP; with a validation set, keep the epoch of lowest validation loss (early stopping).

    Parameters
    ----------
    x_train : z-scored float32 inputs (n, d), in memory or on disk (a ``RowBlocks`` with no scaler attached).
    y_train : int labels (classifier), 0/1 matrix (multilabel) or z-scored float targets (regressor).
    kind : "classifier", "multilabel" or "regressor".
    d_out : output units.
    """
    import torch

    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    model = build_mlp(shape_of(x_train)[1], d_out, cfg)
    opt = AdamW(model.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay)
    loss_fn = _loss_fn(kind, class_weight, pos_weight)
    block = folded_input(model, x_train)
    yt = torch.as_tensor(y_train, dtype=torch.long if kind == "classifier" else torch.float32)
    log_every = max(cfg.epochs // 5, 1)
    history: list[dict] = []
    best = (np.inf, 0, None)
    for epoch in range(1, cfg.epochs + 1):
        model.train()
        order = torch.randperm(len(yt), generator=torch.Generator().manual_seed(cfg.seed + epoch))
        total, correct = 0.0, 0
        for s in range(0, len(order), cfg.batch_size):
            idx = order[s:s + cfg.batch_size]
            hidden = block.forward(idx)
            out = model[2:](hidden)
            loss = loss_fn(out, yt[idx])
            opt.zero_grad()
            loss.backward()
            block.backward(hidden)
            opt.step()
            total += float(loss.detach()) * len(idx)
            if kind == "classifier":
                correct += int((out.argmax(1) == yt[idx]).sum())
        row = {"epoch": epoch, "loss": total / len(yt)}
        if kind == "classifier":
            row["train_accuracy"] = correct / len(yt)
        if x_val is not None and shape_of(x_val)[0]:
            val_loss = _eval_loss(model, loss_fn, x_val, y_val, kind)
            row["val_loss"] = val_loss
            if val_loss < best[0]:
                best = (val_loss, epoch, copy.deepcopy(model.state_dict()))
            elif epoch - best[1] >= cfg.patience:
                history.append(row)
                break
        if epoch == 1 or epoch % log_every == 0 or epoch == cfg.epochs:
            history.append(row)
    best_epoch = epoch
    if best[2] is not None:
        model.load_state_dict(best[2])
        best_epoch = best[1]
    return MLPResult(model, kind, history, best_epoch, cfg)


def _eval_loss(model: nn.Module, loss_fn: nn.Module, x: Rows, y: np.ndarray, kind: str) -> float:
    """Loss on held-out rows in eval mode, over the outputs of all rows (:func:`_validation_outputs`)."""
    import torch

    out = _validation_outputs(model, x)
    with torch.no_grad():
        return float(loss_fn(out, torch.as_tensor(y, dtype=torch.long if kind == "classifier" else torch.float32)))


def _validation_outputs(model: nn.Module, x: Rows) -> torch.Tensor:
    """Outputs on validation rows: all at once in memory, a block of rows at a time from disk (the same bits:
    no block is short)."""
    n = shape_of(x)[0]
    return _outputs(model, x, [(0, n)] if isinstance(x, np.ndarray) else spans(n, EVAL_ROWS, LEAST_ROWS))


def _outputs(model: nn.Module, x: Rows, blocks: list[tuple[int, int]]) -> torch.Tensor:
    """The network's outputs in eval mode on rows of ``x``, one (start, stop) block of rows at a time."""
    import torch

    model.eval()
    with torch.no_grad():
        outs = [model(torch.from_numpy(rows)) for rows in input_blocks(x, blocks)]
    if not outs:
        return torch.empty(0, model[-1].out_features)
    return outs[0] if len(outs) == 1 else torch.cat(outs)


def n_parameters(model: nn.Module) -> int:
    """Number of trainable parameters."""
    return int(sum(p.numel() for p in model.parameters()))
