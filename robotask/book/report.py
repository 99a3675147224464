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


def show_table(frame: pd.DataFrame, digits: int = 1, index: bool = False) -> None:
    """Display a DataFrame rounded to ``digits`` decimals, without its index by default."""
    from IPython.display import HTML, display

    styled = frame.round(digits)
    html = styled.to_html(index=index, float_format=lambda v: f"{v:.{digits}f}", border=0,
                          classes="dataframe robotask-table", na_rep="–")
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
