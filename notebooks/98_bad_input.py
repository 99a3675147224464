# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Feed the study bad input and record what it says
#
# A study that is run by other people meets broken videos, truncated annotation files, odd corpora,
# typos in parameters and output folders it cannot write. This appendix runs the catalogue of such
# inputs that each part of the package keeps, and shows, for every case, the outcome it must get (a
# clear error, or a warning when the run can honestly go on) and the message it really got.
#
# - **Inputs:** the cases of `robotask.book.badinput`, `robotask.retrieval.badinput` and
#   `robotask.episode.badinput` (each case builds its broken input in a temporary folder).
# - **Outputs:** the tables below and `summary.json` (one row per case: group, input, outcome,
#   message).

# %% tags=["parameters"]
groups: list = []  # case groups to run, e.g. parameters (empty: every group)
output_dir: str = ""  # result folder (empty: _build/results/98_bad_input)

# %%
import contextlib
import io

import pandas as pd

import robotask.book.badinput
import robotask.cli
import robotask.episode.badinput
import robotask.retrieval.badinput
from robotask import catalogue
from robotask.book import Page, show_md
from robotask.io import write_json
from robotask.words import yes_no

page = Page("98_bad_input")
out = page.output_dir(output_dir)
every_case = (robotask.book.badinput.cases(robotask.cli.parameter_ranges())
              + robotask.retrieval.badinput.CASES + robotask.episode.badinput.CASES)
cases = [c for c in every_case if not groups or c.group in groups]
with contextlib.redirect_stdout(io.StringIO()):  # what a command prints is not the case's message
    outcomes = [catalogue.run_case(c) for c in cases]
table = pd.DataFrame([
    {"group": o.case.group, "input": o.case.name, "expected": o.case.outcome, "got": o.got,
     "message": o.message, "ok": yes_no(o.ok)}
    for o in outcomes])

# %% [markdown]
# ## The summary
#
# Of {glue:text}`n_cases` cases in {glue:text}`n_groups` groups, {glue:text}`n_ok` got the outcome they
# must get and {glue:text}`n_crash` ended in a Python traceback. "Expected" is the outcome a case must
# get: *error* means the run stops before doing any work, with a message that names the file, key or
# parameter and what was expected; *warning* means the run goes on and says what was degraded and by
# how much. "Got" is what really happened; a traceback of any other exception counts as a *crash*.

# %% tags=["remove-input"]
from myst_nb import glue

n_ok = sum(o.ok for o in outcomes)
by_group = table.groupby("group", sort=False).size().to_dict()
for name, value in {"n_cases": len(outcomes), "n_groups": len(by_group), "n_ok": n_ok,
                    "n_crash": sum(o.got == "crash" for o in outcomes)}.items():
    glue(name, value, display=False)
ok, must = table["ok"] == "yes", table["expected"]
groups = pd.DataFrame({"cases": table.groupby("group", sort=False).size(),
                       "as_expected": ok.groupby(table["group"], sort=False).sum(),
                       "errors": (must == "error").groupby(table["group"], sort=False).sum(),
                       "warnings": (must == "warning").groupby(table["group"], sort=False).sum()})
page.show_table(groups.reset_index(), headers={
    "group": "Group", "cases": "Cases", "as_expected": "As expected",
    "errors": "Must stop with an error", "warnings": "Must go on with a warning"},
    caption="Bad-input cases per group, and how many got the outcome they must get.")
not_ok = table[table["ok"] != "yes"]
if len(not_ok):
    show_md(f"**Note.** {len(not_ok)} cases did not get their expected outcome; "
                   "they are marked below.")

# %% [markdown]
# ## Every case and the message it got
#
# One table per group, folded below: open them to read each input, its expected outcome and the exact
# message the study printed. Temporary folders are shown as `<tmp>`.

# %% tags=["remove-input", "hide-output"]
headers = {"input": "Input", "expected": "Expected", "got": "Got", "message": "Message"}
shown = table.assign(got=[g if ok == "yes" else f"{g} (not as expected)"
                          for g, ok in zip(table["got"], table["ok"])])
for group, part in shown.groupby("group", sort=False):
    page.show_table(part[list(headers)], headers=headers, code_columns=("message",),
                      caption=f"Bad input: {group}.")

# %%
write_json(out / "summary.json", {"n_cases": len(outcomes), "n_ok": n_ok,
                                  "cases": table.to_dict(orient="records")})
assert len(outcomes) > 0, "no bad-input case selected"
