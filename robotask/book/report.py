"""Computed prose and tables for the notebooks: no number is typed into the book by hand."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import paths
from ..io import writable_dir


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
            else:
                out[col] = values.round(digits)
    names = {c: (headers or {}).get(c, human_header(c)) for c in out.columns}
    return out.rename(columns=names)


def show_table(frame: pd.DataFrame, digits: int = 1, index: bool = False, headers: dict | None = None,
               long_reason: str | None = None, code_columns: tuple = ()) -> None:
    """Display a DataFrame for a reader: rounded, integer counts, human headers, no index by default.

    ``headers`` renames columns explicitly. A table longer than a screen (60 rows) needs
    ``long_reason``: the book lint rejects long tables that give none. ``code_columns`` (original
    names) are shown as program text, e.g. the exact messages the study prints.
    """
    import html as html_lib

    from IPython.display import HTML, display

    shown = tidy_table(frame.reset_index() if index else frame, digits, headers)
    formatters = {}
    for col in code_columns:
        name = (headers or {}).get(col, human_header(col))
        formatters[name] = lambda v: f"<code>{html_lib.escape(str(v))}</code>" if str(v) else ""
    for name in shown.columns if formatters else ():
        if name not in formatters and shown[name].dtype == object:
            shown[name] = shown[name].map(lambda v: html_lib.escape(v) if isinstance(v, str) else v)
    html = shown.to_html(index=False, float_format=lambda v: f"{v:.{digits}f}", border=0,
                         classes="dataframe robotask-table", na_rep="–", formatters=formatters,
                         escape=not formatters)
    if long_reason:
        html = f'<div class="long-table" data-long-table="{html_lib.escape(long_reason)}">{html}</div>'
    display(HTML(html))


def output_dir(param: str, chapter_id: str) -> Path:
    """The folder a chapter writes to: ``param`` if set, else ``_build/results/<chapter_id>``.

    The folder is created if needed; a path that is a file or cannot be written is a clear error.
    """
    out = paths.resolve(param) if param else paths.results_dir() / chapter_id
    return writable_dir(out, "parameter 'output_dir'" if param else f"results folder of {chapter_id}")


def pct(x: float, digits: int = 1) -> str:
    """Format a fraction in [0, 1] as a percentage string, e.g. ``0.613 -> '61.3 %'``."""
    return f"{100 * x:.{digits}f} %"


def show_figure(fig, name: str, caption: str, alt: str) -> None:
    """Show ``fig`` as a numbered figure with ``caption`` and ``alt`` text, labelled ``name``.

    The figure is glued (``myst_nb.glue``) and placed by a ``{glue:figure}`` directive in a
    computed Markdown output, so captions, alt texts and labels may be computed (one notebook
    source backing several pages needs a label per page). Refer to it with :func:`fig_ref`.
    The figure is closed so that it is not shown a second time without its caption. It is shown
    as the PNG :func:`robotask.plots.save_figure` wrote (rendered once, at the saving dpi).
    """
    import matplotlib.pyplot as plt
    from IPython.display import Image
    from myst_nb import glue

    from ..plots import png_bytes

    glue(name, Image(data=png_bytes(fig), format="png"), display=False)
    plt.close(fig)
    alt_text = " ".join(alt.split())
    show_md(f"```{{glue:figure}} {name}\n:name: {name}\n:alt: {alt_text}\n\n{caption}\n```")


def fig_ref(name: str) -> str:
    """A numbered cross-reference ("Fig. N") to a figure shown with :func:`show_figure`."""
    return f"{{numref}}`{name}`"


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


def wins_over(records: list[dict], model: str, baseline: str, by: tuple[str, ...]) -> pd.DataFrame:
    """Per group ``by``: on how many items ``model`` beats ``baseline``, and how many items it ran on.

    ``records`` are flat result rows with ``model``, ``value``, ``higher_is_better``, ``status`` and
    an item key ``task`` (one row per group, item and model). An item counts as run when both values
    are present and the model's status is ``ok``.
    """
    frame = pd.DataFrame(records)
    rows = []
    for key, grp in frame.groupby(list(by), sort=False):
        wide = grp.pivot_table(index="task", columns="model", values="value", aggfunc="first")
        hib = grp.groupby("task")["higher_is_better"].first()
        ok = grp[(grp["model"] == model) & (grp["status"] == "ok")]["task"]
        both = wide.reindex(ok).dropna(subset=[model, baseline]) if {model, baseline} <= set(wide) else wide.iloc[:0]
        better = [(r[model] > r[baseline]) if hib[t] else (r[model] < r[baseline]) for t, r in both.iterrows()]
        rows.append({**dict(zip(by, key if isinstance(key, tuple) else (key,))),
                     "items": int(frame["task"].nunique()), "ran": len(both), "wins": int(sum(better))})
    return pd.DataFrame(rows)


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


def wins_sentence(wins: pd.DataFrame, model: str, baseline: str) -> str:
    """Read :func:`wins_over` as one sentence per group: "the minimal head beats the trivial
    baseline on 5 of 11 tasks that ran (12 in all)"."""
    lines = []
    for row in wins.itertuples(index=False):
        keys = [str(v) for k, v in row._asdict().items() if k not in ("items", "ran", "wins")]
        lines.append(f"- {' / '.join(keys)}: the {model} beats the {baseline} on {row.wins} of the "
                     f"{row.ran} tasks that ran ({row.items} in all).")
    return "\n".join(lines)
