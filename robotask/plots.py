"""Shared figure style and saving. Chapter-specific figures live in ``figures_*`` modules."""

from __future__ import annotations

import io
import weakref
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt

STYLE = {
    "figure.figsize": (7.0, 3.8),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "lines.linewidth": 2.0,
    "font.size": 10,
    "axes.titlesize": 10,
    "legend.frameon": False,
    "svg.hashsalt": "robotask",
}
mpl.rcParams.update(STYLE)

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


_RENDERED: "weakref.WeakKeyDictionary[plt.Figure, bytes]" = weakref.WeakKeyDictionary()


def png_bytes(fig: plt.Figure) -> bytes:
    """``fig`` as PNG at the saving dpi, rendered once per figure object.

    Saving (:func:`save_figure`) and showing (:func:`robotask.book.report.show_figure`) reuse the
    bytes, so call them when the figure is finished: later changes to it are not rendered again.
    """
    data = _RENDERED.get(fig)
    if data is None:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", metadata={"Software": None})
        data = _RENDERED[fig] = buffer.getvalue()
    return data


def save_figure(fig: plt.Figure, out_dir: str | Path, name: str) -> Path:
    """Save ``fig`` as ``<out_dir>/<name>.png`` at fixed dpi (atomically) and return the path."""
    from .io import atomic_path

    path = Path(out_dir) / f"{name}.png"
    data = png_bytes(fig)
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return path
