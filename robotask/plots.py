"""Shared figure style and saving. Chapter-specific figures live in the wings' ``figures_*`` modules.

Importing this module changes nothing: the style (:data:`STYLE`) is applied by an explicit call.
A notebook calls :func:`use_style` once, in its setup cell, before it draws; a function that draws
a figure may instead run inside :func:`style` (or be decorated with :func:`styled`), which applies
the style for the block only. Figures are always rendered for saving and showing inside the style
(:func:`png_bytes`), so a saved PNG does not depend on what else changed ``matplotlib.rcParams``.
"""

from __future__ import annotations

import functools
import io
import weakref
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import ParamSpec, TypeVar

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

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
"""The book's figure style: ``matplotlib.rcParams`` values, applied by :func:`use_style` or :func:`style`."""

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


_RENDERED: weakref.WeakKeyDictionary[plt.Figure, bytes] = weakref.WeakKeyDictionary()
P = ParamSpec("P")
R = TypeVar("R")


def use_style() -> None:
    """Apply :data:`STYLE` to ``matplotlib.rcParams`` for the rest of the process (a notebook's setup)."""
    mpl.rcParams.update(STYLE)


def style() -> AbstractContextManager[None]:
    """A context in which :data:`STYLE` applies; ``rcParams`` are restored when it ends::

        with plots.style():
            fig, ax = plt.subplots()
            ...
    """
    return mpl.rc_context(STYLE)


def styled(draw: Callable[P, R]) -> Callable[P, R]:
    """Decorate a function that builds a figure so that it runs inside :func:`style`."""

    @functools.wraps(draw)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with style():
            return draw(*args, **kwargs)

    return wrapper


def png_bytes(fig: plt.Figure) -> bytes:
    """``fig`` as PNG at the saving dpi, rendered once per figure object.

    Rendered inside :func:`style`. Saving (:func:`save_figure`) and showing
    (:func:`robotask.book.report.show_figure`) reuse the bytes, so call them when the figure is
    finished: later changes to it are not rendered again.
    """
    data = _RENDERED.get(fig)
    if data is None:
        buffer = io.BytesIO()
        with style():  # the saving dpi and bounding box, whatever rcParams hold now
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


def annotate_cells(ax: plt.Axes, share: np.ndarray, counts: np.ndarray, fontsize: float = 10) -> None:
    """Write each cell's share and count (``0.83`` over ``(n = 12)``) on a heat map drawn with ``imshow``."""
    for (i, j), value in np.ndenumerate(share):
        ax.text(j, i, f"{value:.2f}\n(n = {int(counts[i, j])})", ha="center", va="center",
                fontsize=fontsize, color="white" if value > 0.6 else "black")


FIGURE_DATA_COLUMNS = ("axes", "axes_title", "x_label", "y_label", "kind", "artist", "series",
                       "x", "y", "low", "high", "width", "value", "x_category", "y_category")
"""The columns of :func:`figure_data`: which axes (1, 2, … in the figure's order, with its title and axis
labels), which artist (``line 2``: the second line of that axes; ``kind`` line, points, vertical line,
horizontal line, scatter, bar, barh, band, error bar, segment, vertical span, horizontal span, rectangle,
image, text, or ``not extracted: <class>``), its legend label (``series``) and the plotted values, in axis
units. ``low``/``high`` are a band's or an error bar's bounds (along y, or along x for a horizontal bar or
error bar), ``width`` a bar's width, ``value`` an image cell's value or a text's words; ``x_category`` and
``y_category`` name the tick a value sits on (the category of a bar chart)."""


def _public_label(artist) -> str:
    label = str(artist.get_label() or "")
    return "" if label.startswith("_") else label


def _tick_names(axis) -> dict[float, str]:
    """Tick position → tick label text, for the ticks that carry a label (after the figure was drawn)."""
    names = {}
    for loc, text in zip(axis.get_ticklocs(), axis.get_ticklabels()):
        words = text.get_text()
        if words and _as_float(words.replace("\u2212", "-")) is None:  # a category, not a number
            names[float(loc)] = words
    return names


def _numbers(values) -> np.ndarray:
    try:
        return np.ma.filled(np.ma.asarray(values, dtype=float), np.nan).ravel()
    except (TypeError, ValueError):
        return np.full(len(values), np.nan)


def _segment_rows(segments, base: dict) -> list[dict]:
    rows = []
    for seg in segments:
        seg = np.asarray(seg, dtype=float)
        if len(seg) == 2 and seg[0, 0] == seg[1, 0]:
            rows.append({**base, "x": seg[0, 0], "low": min(seg[:, 1]), "high": max(seg[:, 1])})
        elif len(seg) == 2 and seg[0, 1] == seg[1, 1]:
            rows.append({**base, "kind": f"{base['kind']} (horizontal)", "y": seg[0, 1],
                         "low": min(seg[:, 0]), "high": max(seg[:, 0])})
        else:
            rows += [{**base, "x": px, "y": py} for px, py in seg]
    return rows


def _band_rows(collection, base: dict) -> list[dict]:
    """A filled band (``fill_between``): its lower and upper boundary at each x of its outline (at each y,
    along x, for ``fill_betweenx``: kind "band (horizontal)")."""
    along = 1 if getattr(collection, "t_direction", "x") == "y" else 0
    at, kind = ("y", "band (horizontal)") if along else ("x", base["kind"])
    rows = []
    for path in collection.get_paths():
        vertices = np.asarray(path.vertices, dtype=float)
        for t in dict.fromkeys(vertices[:, along]):
            bounds = vertices[vertices[:, along] == t, 1 - along]
            rows.append({**base, "kind": kind, at: t, "low": bounds.min(), "high": bounds.max()})
    return sorted(rows, key=lambda r: r[at]) if rows else [{**base, "kind": "band (empty)"}]


def _container_rows(ax, number, done: set[int]) -> list[dict]:
    """Bars and error bars, read from the axes' containers (their artists are then not read again)."""
    from matplotlib.container import BarContainer, ErrorbarContainer

    rows = []
    for container in ax.containers:
        label = _public_label(container)
        if isinstance(container, BarContainer):
            horizontal = getattr(container, "orientation", "vertical") == "horizontal"
            kind = "barh" if horizontal else "bar"
            base = {"kind": kind, "artist": number(kind), "series": label}
            for patch in container.patches:
                done.add(id(patch))
                x0, y0, w, h = patch.get_x(), patch.get_y(), patch.get_width(), patch.get_height()
                rows.append({**base, "x": x0 + w, "y": y0 + h / 2, "low": x0, "high": x0 + w, "width": h}
                            if horizontal else
                            {**base, "x": x0 + w / 2, "y": y0 + h, "low": y0, "high": y0 + h, "width": w})
        elif isinstance(container, ErrorbarContainer):
            data_line, caplines, barlinecols = container.lines
            done.update(id(a) for a in (data_line, *caplines, *barlinecols) if a is not None)
            base = {"kind": "error bar", "artist": number("error bar"), "series": label}
            if data_line is not None:
                rows += [{**base, "kind": "error bar centre", "x": px, "y": py}
                         for px, py in np.asarray(data_line.get_xydata(), dtype=float)]
            for cols in barlinecols:
                rows += _segment_rows(cols.get_segments(), base)
    return rows


def _line_rows(ax, number, done: set[int]) -> list[dict]:
    """Each line's points in axis units; a line across the axes (``axvline``, ``axhline``) by its one value."""
    rows: list[dict] = []
    for line in ax.lines:
        if id(line) in done:
            continue
        kind = "points" if line.get_linestyle() in ("None", "none", "", " ") else "line"
        where = line.get_transform()
        if where == ax.get_xaxis_transform() or where == ax.get_yaxis_transform():  # axvline, axhline
            kind = "vertical line" if where == ax.get_xaxis_transform() else "horizontal line"
        elif where != ax.transData:
            rows.append(_not_extracted(line, number))
            continue
        base = {"kind": kind, "artist": number(kind), "series": _public_label(line)}
        xs, ys = _numbers(line.get_xydata()[:, 0]), _numbers(line.get_xydata()[:, 1])  # in axis units
        if kind == "vertical line":
            rows += [{**base, "x": px} for px in dict.fromkeys(xs)]
        elif kind == "horizontal line":
            rows += [{**base, "y": py} for py in dict.fromkeys(ys)]
        else:
            rows += [{**base, "x": px, "y": py} for px, py in zip(xs, ys)]
    return rows


def _artist_rows(ax, number, done: set[int]) -> list[dict]:
    """Lines, collections, patches, images and texts of ``ax`` not read from a container."""
    from matplotlib.collections import LineCollection, PathCollection, PolyCollection
    from matplotlib.image import AxesImage
    from matplotlib.text import Annotation

    rows = _line_rows(ax, number, done)
    for coll in ax.collections:
        if id(coll) in done:
            continue
        label = _public_label(coll)
        if isinstance(coll, PathCollection):
            base = {"kind": "scatter", "artist": number("scatter"), "series": label}
            rows += [{**base, "x": px, "y": py} for px, py in np.asarray(coll.get_offsets(), dtype=float)]
        elif isinstance(coll, LineCollection):
            rows += _segment_rows(coll.get_segments(), {"kind": "segment", "artist": number("segment"),
                                                        "series": label})
        elif isinstance(coll, PolyCollection):
            rows += _band_rows(coll, {"kind": "band", "artist": number("band"), "series": label})
        else:
            rows.append(_not_extracted(coll, number))
    for patch in ax.patches:
        if id(patch) not in done:
            rows.append(_patch_row(ax, patch, number))
    for image in ax.images:
        if not isinstance(image, AxesImage):
            rows.append(_not_extracted(image, number))
            continue
        base = {"kind": "image", "artist": number("image"), "series": _public_label(image)}
        cells = np.ma.filled(np.ma.asarray(image.get_array(), dtype=float), np.nan)
        if cells.ndim != 2:
            rows.append(_not_extracted(image, number))
            continue
        x0, x1, y0, y1 = image.get_extent()  # each cell at its centre, in axis units
        m, n = cells.shape
        top, down = (y1, y0 - y1) if image.origin == "upper" else (y0, y1 - y0)
        rows += [{**base, "x": x0 + (j + 0.5) * (x1 - x0) / n, "y": top + (i + 0.5) * down / m, "value": v}
                 for (i, j), v in np.ndenumerate(cells)]
    for text in ax.texts:
        if isinstance(text, Annotation) and text.xycoords == "data":
            (px, py), kind = text.xy, "text"
        elif not isinstance(text, Annotation) and text.get_transform() == ax.transData:
            (px, py), kind = text.get_position(), "text"
        else:
            (px, py), kind = (np.nan, np.nan), "text (placed outside the data coordinates)"
        rows.append({"kind": kind, "artist": number(kind), "series": "", "x": px, "y": py, "value": text.get_text()})
    return rows


def _patch_row(ax, patch, number) -> dict:
    """A patch drawn on its own: a span (``axvspan``, ``axhspan``) or a rectangle in data coordinates."""
    from matplotlib.patches import Rectangle

    if not isinstance(patch, Rectangle):
        return _not_extracted(patch, number)
    x0, y0, w, h = patch.get_x(), patch.get_y(), patch.get_width(), patch.get_height()
    where = patch.get_data_transform()
    if where == ax.get_xaxis_transform():
        found = {"kind": "vertical span", "low": x0, "high": x0 + w}
    elif where == ax.get_yaxis_transform():
        found = {"kind": "horizontal span", "low": y0, "high": y0 + h}
    elif where == ax.transData:
        found = {"kind": "rectangle", "x": x0 + w / 2, "low": y0, "high": y0 + h, "width": w}
    else:
        return _not_extracted(patch, number)
    return {**found, "artist": number(found["kind"]), "series": _public_label(patch)}


def _not_extracted(artist, number) -> dict:
    kind = f"not extracted: {type(artist).__name__}"
    return {"kind": kind, "artist": number(kind), "series": _public_label(artist)}


def figure_data(fig: plt.Figure):
    """The values ``fig`` plots, one row per plotted point, in the columns of :data:`FIGURE_DATA_COLUMNS`.

    Read from the figure's artists, so no figure function has to say what it drew: each line's x and y, a
    scatter's points, each bar, each band's lower and upper boundary per x, error bars, an image's cells and
    the texts written on an axes. An artist of another kind gets one ``not extracted: <class>`` row, never
    dropped silently; a colour bar's axes are left out (its image or mesh holds the values). Call it on a
    finished figure (tick labels are read after the figure was drawn, as :func:`png_bytes` does).
    """
    import pandas as pd

    rows: list[dict] = []
    for index, ax in enumerate(fig.axes, start=1):
        if getattr(ax, "_colorbar", None) is not None or not ax.get_visible():
            continue
        counts: dict[str, int] = {}

        def number(kind: str, counts: dict[str, int] = counts) -> str:
            counts[kind] = counts.get(kind, 0) + 1
            return f"{kind} {counts[kind]}"

        done: set[int] = set()
        found = _container_rows(ax, number, done) + _artist_rows(ax, number, done)
        xs, ys = _tick_names(ax.xaxis), _tick_names(ax.yaxis)
        head = {"axes": index, "axes_title": ax.get_title(), "x_label": ax.get_xlabel(), "y_label": ax.get_ylabel()}
        for row in found:
            row.update(head, x_category=xs.get(_as_float(row.get("x")), ""),
                       y_category=ys.get(_as_float(row.get("y")), ""))
        rows += found
    return pd.DataFrame(rows, columns=list(FIGURE_DATA_COLUMNS))


def _as_float(value) -> float | None:
    try:
        return None if value is None else float(value)
    except (TypeError, ValueError):
        return None
