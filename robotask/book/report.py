"""Computed prose and tables for the notebooks: no number is typed into the book by hand."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import paths


def show_md(text: str) -> None:
    """Display ``text`` as Markdown (MyST) in the executed notebook.

    Used by every chapter for sentences that contain computed numbers.
    """
    from IPython.display import Markdown, display

    display(Markdown(text))


def human_header(name: object) -> str:
    """A column name as a reader sees it: ``n_trials`` → "N trials"; other names unchanged."""
    text = str(name)
    if text.islower() and " " not in text:
        text = text.replace("_", " ")
        return text[:1].upper() + text[1:]
    return text


def tidy_table(frame: pd.DataFrame, digits: int = 1, headers: dict | None = None) -> pd.DataFrame:
    """Round floats, show whole-number float columns as integers, and humanise snake_case headers."""
    out = frame.copy()
    for col in out.columns:
        values = out[col]
        if pd.api.types.is_float_dtype(values):
            finite = values.dropna()
            if len(finite) and (finite == finite.round()).all() and finite.abs().max() < 2**53:
                out[col] = values.round().astype("Int64")
            else:
                out[col] = values.round(digits)
    names = {c: (headers or {}).get(c, human_header(c)) for c in out.columns}
    return out.rename(columns=names)


def show_table(frame: pd.DataFrame, digits: int = 1, index: bool = False, headers: dict | None = None,
               long_reason: str | None = None) -> None:
    """Display a DataFrame for a reader: rounded, integer counts, human headers, no index by default.

    ``headers`` renames columns explicitly. A table longer than a screen (60 rows) needs
    ``long_reason``: the book lint rejects long tables that give none.
    """
    from IPython.display import HTML, display

    shown = tidy_table(frame.reset_index() if index else frame, digits, headers)
    html = shown.to_html(index=False, float_format=lambda v: f"{v:.{digits}f}", border=0,
                         classes="dataframe robotask-table", na_rep="–")
    if long_reason:
        html = f'<div class="long-table" data-long-table="{long_reason}">{html}</div>'
    display(HTML(html))


def output_dir(param: str, chapter_id: str) -> Path:
    """The folder a chapter writes to: ``param`` if set, else ``_build/results/<chapter_id>``.

    The folder is created if needed.
    """
    out = paths.resolve(param) if param else paths.results_dir() / chapter_id
    out.mkdir(parents=True, exist_ok=True)
    return out


def pct(x: float, digits: int = 1) -> str:
    """Format a fraction in [0, 1] as a percentage string, e.g. ``0.613 -> '61.3 %'``."""
    return f"{100 * x:.{digits}f} %"
