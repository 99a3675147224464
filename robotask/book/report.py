"""Computed prose and tables for the notebooks: no number is typed into the book by hand."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from .. import paths
from ..io import writable_dir
from ..words import keep_units
from . import chapters, titles


def show_md(text: str) -> None:
    """Display ``text`` as Markdown (MyST) in the executed notebook.

    Used by every chapter for sentences that contain computed numbers (units kept on the number's line).
    """
    from IPython.display import Markdown, display

    display(Markdown(keep_units(text)))


def human_header(name: object) -> str:
    """A column name as a reader sees it: ``n_trials`` → "N trials", "in paper" → "In paper",
    "original MLP" → "Original MLP"; underscores are kept in a name with a capital letter."""
    text = str(name)
    if text.islower():
        text = text.replace("_", " ")
    return text[:1].upper() + text[1:]


def tidy_table(frame: pd.DataFrame, digits: int = 1, headers: dict | None = None) -> pd.DataFrame:
    """Round floats, show whole-number float columns as integers, and humanise snake_case headers.

    Booleans read "yes"/"no" and lists are written as comma-separated words, never as Python reprs.
    """
    out = frame.copy()
    for col in out.columns:
        values = out[col]
        if pd.api.types.is_bool_dtype(values):
            out[col] = values.map({True: "yes", False: "no"})
        elif values.map(lambda v: isinstance(v, (list, tuple))).any():
            out[col] = values.map(lambda v: ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
        elif pd.api.types.is_float_dtype(values):
            finite = values.dropna()
            if len(finite) and (finite == finite.round()).all() and finite.abs().max() < 2**53:
                ints = values.round().astype("Int64")
                out[col] = ints.astype(object).where(values.notna(), "–") if values.isna().any() else ints
            else:  # a nonzero value that rounds to zero is kept whole: float_text gives it its sign
                rounded = values.round(digits)
                out[col] = rounded.where((rounded != 0) | (values == 0) | values.isna(), values)
    names = {c: (headers or {}).get(c, human_header(c)) for c in out.columns}
    return out.rename(columns=names)


class Page:
    """One page of the book, which numbers its captioned tables: "Table 2.1", "Table 2.2", … on chapter 02.

    A chapter makes one at the start (``page = Page("02_five_rankers")``) and shows its captioned tables
    with ``page.show_table(...)``; the numbers follow the page's chapter number, as its figures' do
    (``12.3.1`` on the third task page; "1", "2", … on an unnumbered page).
    """

    def __init__(self, chapter_id: str) -> None:
        self.chapter_id = chapter_id
        self.prefix = titles.number_prefix(titles.page_label(chapter_id, [c.id for c in chapters.CHAPTERS]))
        self.tables = 0

    def output_dir(self, param: str) -> Path:
        """The folder this page writes to: :func:`output_dir` of ``param`` for this page's chapter."""
        return output_dir(param, self.chapter_id)

    def next_table_number(self) -> str:
        """The number of the next captioned table on this page."""
        self.tables += 1
        return f"{self.prefix}.{self.tables}" if self.prefix else str(self.tables)

    def show_table(self, frame: pd.DataFrame, digits: int = 1, index: bool = False, headers: dict | None = None,
                   long_reason: str | None = None, code_columns: tuple = (), caption: str | None = None) -> None:
        """:func:`show_table`, numbered on this page when it has a ``caption``."""
        number = self.next_table_number() if caption else None
        numbered = f"Table {number}. {caption}" if caption else None
        stem = f"{self.chapter_id}-table-{number.replace('.', '-')}" if number else f"{self.chapter_id}-table"
        display_table(frame, digits, index, headers, long_reason, code_columns, numbered, stem)


def show_table(frame: pd.DataFrame, digits: int = 1, index: bool = False, headers: dict | None = None,
               long_reason: str | None = None, code_columns: tuple = ()) -> None:
    """Display a DataFrame for a reader: rounded, integer counts, human headers, no index by default.
    A captioned, numbered table goes through a chapter's :class:`Page` (``page.show_table(..., caption=…)``).

    ``headers`` renames columns explicitly. A table longer than a screen (60 rows) needs
    ``long_reason``: the book lint rejects long tables that give none. ``code_columns`` (original
    names) are shown as program text, e.g. the exact messages the study prints; they wrap.
    """
    display_table(frame, digits, index, headers, long_reason, code_columns, None)


def display_table(frame: pd.DataFrame, digits: int, index: bool, headers: dict | None, long_reason: str | None,
                  code_columns: tuple, numbered: str | None, stem: str = "table") -> None:
    """The table as HTML in the executed notebook, with its numbered caption if any, and below it its
    "Data" link (:func:`data_link`) to the values shown, as ``<stem>.csv`` (a table without a number gets
    ``<stem>-<digest>.csv``, a name that does not change between runs)."""
    from IPython.display import HTML, display

    values = shown_values(frame, digits, index, headers, code_columns)
    if not numbered:
        stem = f"{stem}-{_digest(values)}"
    display(HTML(table_html(frame, digits, index, headers, long_reason, code_columns, numbered)
                 + data_link(values, f"{stem}.csv")))


def shown_values(frame: pd.DataFrame, digits: int = 1, index: bool = False,
                 headers: dict | None = None, code_columns: tuple = ()) -> pd.DataFrame:
    """The table :func:`table_html` shows as plain text, for its CSV: the shown headers, numbers as
    shown (floats to ``digits``, a hyphen-minus for a program to read), an empty cell where the page
    shows a dash, text without its Markdown code marks (kept in ``code_columns``, shown as program text)."""
    import numbers

    def plain(value: object, code: bool) -> str:
        if _is_missing(value) or (isinstance(value, str) and value == "–"):
            return ""
        if isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)):
            return float_text(float(value), digits)
        text = str(value) if code else re.sub(r"`([^`]+)`", r"\1", str(value))
        return re.sub(r"^−(?=\.?\d)", "-", text)  # a number given as text: its minus spelled for a program

    source = frame.reset_index() if index else frame
    code = [c in code_columns for c in source.columns]
    shown = tidy_table(source, digits, headers)
    return pd.DataFrame({c: [plain(v, code[i]) for v in shown.iloc[:, i]] for i, c in enumerate(shown.columns)},
                        columns=list(shown.columns), dtype=object)


DATA_LINK_CLASS = "robotask-data"
"""The class of the paragraph that holds a table's or a figure's "Data" link (the HTML checks find it)."""


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """``frame`` as UTF-8 CSV, no index, ``\\n`` line ends: the same bytes on every run."""
    return frame.to_csv(index=False, lineterminator="\n").encode("utf-8")


def _digest(frame: pd.DataFrame) -> str:
    import hashlib

    return hashlib.sha256(csv_bytes(frame)).hexdigest()[:8]


def data_link(frame: pd.DataFrame, filename: str) -> str:
    """A paragraph with a "Data" link to ``frame`` as CSV, saved as ``filename``: the CSV is inside the
    link (a ``data:`` URI), so it goes wherever the page's HTML goes, with no file to publish beside it."""
    import base64
    import html as html_lib

    uri = "data:text/csv;charset=utf-8;base64," + base64.b64encode(csv_bytes(frame)).decode("ascii")
    return (f'<p class="{DATA_LINK_CLASS}"><a href="{uri}" download="{html_lib.escape(filename)}">'
            f"Data (CSV, {len(frame)} {'row' if len(frame) == 1 else 'rows'})</a></p>")


def _is_number(value: object) -> bool:
    """A cell a reader reads as a number (booleans and text are not)."""
    import numbers

    return isinstance(value, numbers.Number) and not isinstance(value, bool)


def _is_missing(value: object) -> bool:
    """A missing cell (None, NaN, pd.NA): shown as a dash."""
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def column_alignment(values: pd.Series) -> str:
    """ "right" for a column of numbers (missing cells and dashes allowed), else "left"."""
    present = [v for v in values if not _is_missing(v) and not (isinstance(v, str) and v == "–")]
    return "right" if present and all(_is_number(v) for v in present) else "left"


ROUNDING_NOISE = 1e-9
"""A table shows a float smaller than this as zero: below any quantity the book reports (its smallest tolerance
is 1e-6), it is floating-point rounding, not a difference."""


def float_text(value: float, digits: int) -> str:
    """A float cell to ``digits`` decimals, but none at 1,000 and above (four significant digits and more are
    already shown): ``float_text(1559.748, 3)`` → "1560", ``float_text(0.1234, 3)`` → "0.123". A nonzero value
    that rounds to zero keeps one significant digit, and with it its sign (an interval's end near zero shows which
    side it is on): ``float_text(-0.0004, 3)`` → "-0.0004", never "-0.000"; zero is "0.000", whatever its sign, and
    so is a value under :data:`ROUNDING_NOISE` (two computations of one number, e.g. micro and macro accuracy over
    equal classes, differ by 1e-15)."""
    if abs(value) < ROUNDING_NOISE:
        return f"{0.0:.{digits}f}"
    if abs(value) < 0.5 * 10.0 ** -digits:
        return f"{value:.1g}"
    return f"{value:.{0 if abs(value) >= 1000 else digits}f}"


def _cell_text(value: object, digits: int, code: bool) -> str:
    """One cell as HTML: a dash when missing, floats to ``digits``, a negative number with a true minus
    "−", text escaped (a Markdown code span such as `` `index == 0` `` becomes program text; a line may
    break after ``_``)."""
    import html as html_lib
    import numbers

    if _is_missing(value):
        return "–"
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)):
        text = float_text(float(value), digits)
    else:
        text = str(value)
    if _is_number(value) and text.startswith("-"):
        text = "−" + text[1:]  # a true minus sign "−", never a hyphen-minus
    if code:
        return f'<code style="{CODE_STYLE}">{html_lib.escape(text)}</code>' if text else ""
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", html_lib.escape(text))  # Markdown code spans
    return text.replace("_", "_<wbr>")  # a long id such as a file name may break after "_"


CODE_STYLE = "white-space: pre-wrap; overflow-wrap: anywhere"


def table_html(frame: pd.DataFrame, digits: int = 1, index: bool = False, headers: dict | None = None,
               long_reason: str | None = None, code_columns: tuple = (), caption: str | None = None) -> str:
    """The HTML :func:`show_table` displays, ``caption`` (numbered) above it. Headers align like their
    cells; a long id may break after an underscore; a table still too wide scrolls in its own box."""
    import html as html_lib

    shown = tidy_table(frame.reset_index() if index else frame, digits, headers)
    code_names = {(headers or {}).get(c, human_header(c)) for c in code_columns}
    align = [column_alignment(shown[c]) for c in shown.columns]
    head = "".join(f'<th style="text-align: {a}">{html_lib.escape(str(c))}</th>'
                   for c, a in zip(shown.columns, align))
    rows = []
    for row in shown.itertuples(index=False):
        cells = "".join(
            f'<td style="text-align: {a}{"; " + CODE_STYLE if c in code_names else ""}">'
            f"{_cell_text(v, digits, c in code_names)}</td>"
            for v, c, a in zip(row, shown.columns, align))
        rows.append(f"<tr>{cells}</tr>")
    caption_html = (f'<caption style="caption-side: top; text-align: left; font-weight: normal">'
                    f"{html_lib.escape(' '.join(caption.split()))}</caption>") if caption else ""
    html = (f'<div class="robotask-table-box" style="overflow-x: auto">'
            f'<table class="dataframe robotask-table">{caption_html}<thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')
    if long_reason:
        html = f'<div class="long-table" data-long-table="{html_lib.escape(long_reason)}">{html}</div>'
    return html


def output_dir(param: str, chapter_id: str) -> Path:
    """The folder a chapter writes to: ``param`` if set, else ``_build/results/<chapter_id>``.

    The folder is created if needed; a path that is a file or cannot be written is a clear error.
    """
    out = paths.resolve(param) if param else paths.results_dir() / chapter_id
    return writable_dir(out, "parameter 'output_dir'" if param else f"results folder of {chapter_id}")


def show_figure(fig, name: str, caption: str, alt: str) -> None:
    """Show ``fig`` as a numbered figure with ``caption`` and ``alt`` text, labelled ``name``.

    The figure is glued (``myst_nb.glue``) and placed by a ``{glue:figure}`` directive in a
    computed Markdown output, so captions, alt texts and labels may be computed (one notebook
    source backing several pages needs a label per page). Refer to it with :func:`fig_ref`.
    The figure is closed so that it is not shown a second time without its caption. It is shown
    as the PNG :func:`robotask.plots.save_figure` wrote (rendered once, at the saving dpi). Below the
    caption, in the same output, a "Data" link (:func:`data_link`, ``<name>.csv``) holds the values the
    figure plots, read from its artists by :func:`robotask.plots.figure_data`.
    """
    import matplotlib.pyplot as plt
    from IPython.display import Image, Markdown, display
    from myst_nb import glue

    from ..plots import figure_data, png_bytes

    glue(name, Image(data=png_bytes(fig), format="png"), display=False)
    values = figure_data(fig)  # after rendering: tick labels are then known
    values = values[[c for c in values.columns if c in ("axes", "kind", "artist", "series")
                     or values[c].replace("", None).notna().any()]]  # a column empty for every row says nothing
    plt.close(fig)
    alt_text = " ".join(alt.split())
    directive = keep_units(f"```{{glue:figure}} {name}\n:name: {name}\n:alt: {alt_text}\n\n{caption}\n```")
    display(Markdown(f"{directive}\n\n{data_link(values, f'{name}.csv')}\n"))


def glue_values(**values: object) -> None:
    """Glue every keyword for the page's Markdown (``{glue:text}`name:.1f```), shown nowhere else.

    A NumPy scalar is glued as the Python number it holds (MyST-NB formats only plain numbers). A chapter
    calls this in the cell just before the paragraph that reads the values.
    """
    from myst_nb import glue

    for name, value in values.items():
        plain = value.item() if hasattr(value, "item") and not isinstance(value, str) else value
        glue(name, plain, display=False)


def read_summary(chapter_id: str, name: str = "summary.json", root: str = "") -> dict | None:
    """The JSON a chapter wrote to its result folder (``<root>/<chapter_id>/<name>``).

    ``root`` defaults to :func:`robotask.paths.results_dir`. ``None`` when the chapter has not run
    in this build, so a page that reads other chapters' results can say so in a plain sentence.
    """
    import json

    path = (paths.resolve(root) if root else paths.results_dir()) / chapter_id / name
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def plain_value(text: str) -> str:
    """A JSON-encoded parameter value as a reader reads it: ``0.75`` stays ``0.75`` (never
    rounded), ``"x"`` → x, ``["a", "b"]`` → "a, b", ``true`` → yes, ``""`` → (empty)."""
    import json

    value = json.loads(text) if isinstance(text, str) else text
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(plain_value(json.dumps(v)) for v in value) or "(none)"
    if value == "" or value is None:
        return "(empty)"
    return str(value)
