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
# typos in parameters and output folders it cannot write, absurd values, signals and kills, a cache
# whose inputs changed under it. This appendix runs the catalogue of such inputs that each part of
# the package keeps, and shows, for every case, the outcome it must get (a clear error, a warning when
# the run can honestly go on, or the right result when the study can absorb the problem silently) and
# the message it really got.
#
# - **Inputs:** the cases of `robotask.book.badinput`, `robotask.retrieval.badinput` and
#   `robotask.episode.badinput` (each case builds its broken input in a temporary folder).
# - **Outputs:** the tables below and `summary.json` (one row per case: group, input, outcome,
#   message).

# %% tags=["parameters"]
groups: list = []  # case groups to run, e.g. parameters (empty: every group)
output_dir: str = ""  # result folder (empty: _build/results/98_bad_input)

# %% tags=["remove-input"]
from myst_nb import glue

import robotask.book.badinput
import robotask.cli
import robotask.episode.badinput
import robotask.retrieval.badinput
from robotask import catalogue
from robotask.book import Page, show_md
from robotask.io import write_json

page = Page("98_bad_input")
out = page.output_dir(output_dir)
every_case = (robotask.book.badinput.cases(robotask.cli.parameter_ranges())
              + robotask.retrieval.badinput.CASES + robotask.episode.badinput.CASES)
cases = [c for c in every_case if not groups or c.group in groups]
table = catalogue.outcome_table(catalogue.run_catalogue(cases))
for name, value in catalogue.outcome_values(table).items():
    glue(name, value, display=False)

# %% [markdown]
# ## What a user may rely on
#
# The promises below are what the cases check. They hold for every command (`robotask run`,
# `retrieval`, `synth`, `synth-collection`, `features`, `suite`) and for every chapter run with other
# parameters.
#
# - **One line, never a traceback.** Bad input stops the run before it does any work, with one line
#   that names the file, the key or the parameter and says what was expected; the exit code is 2.
# - **Nothing already written is lost.** Every result file is written beside its final name and moved
#   into place in one step, so an earlier result stays whole until the new one is complete. A chapter
#   whose run fails keeps its previous executed copy. Two commands writing into one output folder at
#   once are refused, not interleaved.
# - **Interrupted means stopped, cleanly.** Ctrl-C and SIGTERM (a scheduler stopping the job, `kill`,
#   `timeout`) print one line, end every child process (kernels, Dask workers, task processes) and
#   leave only complete files behind; the exit codes are 130 and 143.
# - **Absurd values are refused, not attempted.** Every count that could make a run take hours or fill
#   the memory (galleries, bootstrap replicates, frames, epochs, episodes, workers) has an allowed
#   range, checked in under a second, before any kernel starts; the message gives the range.
# - **The cache never serves stale results.** An input edited in place, anywhere in the file and even
#   with its size and modification time kept, changes the cache key; an entry whose content does not
#   match its checksum is rebuilt, never used; a read-only or full cache folder costs no result.
# - **Damaged data is named, and what can be saved is saved.** A collection folder with unusable
#   episodes (a truncated annotation, a symlink loop, a folder name that is not UTF-8) lists each with
#   its reason and runs on the rest; not-a-number or infinite sensor values and short videos go on with one
#   warning that says what was replaced.
# - **One text in any Unicode form is one text.** Every ranker sees each text in Unicode NFC, with
#   zero-width and other invisible characters removed and whitespace collapsed, so a query typed in
#   another normal form ranks and scores the same; the files keep each text as written.
# - **Nothing is read silently twice or dropped.** A task written twice in a YAML library, or a column
#   twice in a CSV header, is an error that names both; a repeated query is scored as a trial of its
#   own, and the command says how many repeat.
# - **Large inputs stream.** A query file is read and scored in chunks with progress on the terminal,
#   in memory that does not grow with its length; a gallery too large is refused with the limit.
#
# ## The summary
#
# Of {glue:text}`n_cases` cases in {glue:text}`n_groups` groups, {glue:text}`n_ok` got the outcome they
# must get and {glue:text}`n_crash` ended in a Python traceback. "Expected" is the outcome a case must
# get, and there are three:
#
# - *error* ({glue:text}`n_error` cases): the run stops before doing any work, with a message that
#   names the file, key or parameter and what was expected;
# - *warning* ({glue:text}`n_warning` cases): the run goes on and says what was degraded and by how
#   much;
# - *handled* ({glue:text}`n_handled` cases): the run goes on with nothing to say and the right result
#   (an input edited in place is read again, a killed build is rebuilt), which the case checks itself;
#   its message is what it checked.
#
# "Got" is what really happened; a traceback of any other exception counts as a *crash*, and a run that
# ends with no error, warning or check counts as *nothing*. A case counts as expected only when both the
# outcome and the words of its message are the ones it must get.

# %% tags=["remove-input"]
page.show_table(catalogue.group_table(table), headers={
    "group": "Group", "cases": "Cases", "as_expected": "As expected",
    "error": "Must stop with an error", "warning": "Must go on with a warning",
    "handled": "Must go on, silently right"},
    caption="Bad-input cases per group, and how many got the outcome they must get.")
if not table["ok"].all():
    show_md(f"**Note.** {int((~table['ok']).sum())} cases did not get their expected outcome; "
            "they are marked below.")

# %% [markdown]
# ## Every case and the message it got
#
# One table per group, folded below: open them to read each input, its expected outcome and the exact
# message the study printed (for a *handled* case, what the case checked). Temporary folders are shown
# as `<tmp>`. A case is a few lines of Python in its wing's `badinput.py`: it builds the broken input
# in an empty temporary folder and makes the call a user would make, usually the command line itself,
# so each row can be reproduced by hand with the same command on the same kind of input.
#
# ## Adding a case
#
# Met an input the study handles badly? Add a `Case(group=..., name=..., outcome=..., expect=...,
# run=...)` to the `badinput.py` of the wing it belongs to (the book wing's for parameters and chapter
# runs), with `expect` a regular expression the message must match. `tests/test_bad_input.py` runs
# every case, and the next build of this page shows it. A case that crashes is a bug to fix, not a row
# to explain away.

# %% tags=["remove-input", "hide-output"]
headers = {"input": "Input", "expected": "Expected", "got": "Got", "message": "Message"}
marked = [g if ok else f"{g} (not as expected)" for g, ok in zip(table["got"], table["ok"])]
shown = table.assign(got=marked)
for group, part in shown.groupby("group", sort=False):
    page.show_table(part[list(headers)], headers=headers, code_columns=("message",),
                    caption=f"Bad input: {group}.")

# %% tags=["remove-input"]
write_json(out / "summary.json", {**catalogue.outcome_values(table),
                                  "cases": table.to_dict(orient="records")})
assert len(table) > 0, "no bad-input case selected"
