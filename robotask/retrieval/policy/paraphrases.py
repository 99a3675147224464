"""The LIBERO-Para paraphrases with their policy outcome, and the two galleries they are retrieved from.

The paraphrases are ``data/libero_para/corpus.csv`` (:mod:`robotask.retrieval.libraries.libero_para`), one row
each, in file order. Each paraphrase's task is named by its LIBERO-Goal task id (``libero_goal/<original with
_>``, the file stems of ``data/libero``), so that both galleries use LIBERO's ids and the protocol's tie rule
(first task in sorted order) never favours a paraphrase's own task over a distractor (``libero_10``, ``libero_90``
and the other suites sort before ``libero_goal``).

Two galleries:

* ``originals``: the 10 original instructions, one text per task (the wording LIBERO-Para paraphrased);
* ``libero``: the same 10 beside the other 120 LIBERO task files of ``data/libero`` as distractors, 130 files in
  all. A distractor whose instruction is one of the originals' (two ``libero_90`` scenes read "turn on the stove")
  names the same task in the same words: it joins that task rather than compete with it.
"""

from __future__ import annotations

import pandas as pd

from ... import paths
from ...errors import RobotaskError
from ..libraries.libero import instruction_key

PARAPHRASES = "data/libero_para/corpus.csv"
LIBERO = "data/libero/corpus.csv"
GOAL_SUITE = "libero_goal"
GALLERIES = ("originals", "libero")
GALLERY_TITLES = {"originals": "10 originals", "libero": "130 LIBERO tasks"}
HIGH_TYPES = ("act", "obj", "comp")
HIGH_TITLES = {"act": "action reworded", "obj": "object reworded", "comp": "both reworded"}


def goal_task(original: str) -> str:
    """The LIBERO-Goal task id of an original instruction: ``libero_goal/<words joined by _>``."""
    return f"{GOAL_SUITE}/{instruction_key(original)}"


def load_paraphrases(path: str = PARAPHRASES) -> pd.DataFrame:
    """The paraphrases (file order) with ``eval`` (the source's task) and ``task`` (the LIBERO-Goal id)."""
    frame = pd.read_csv(paths.resolve(path), keep_default_na=False)
    needed = ["task", "original", "text", "high", "mid", "keyword_similarity", "structural_similarity", "success"]
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise RobotaskError(f"{path}: missing columns {', '.join(missing)}; expected data/libero_para's columns")
    frame = frame.rename(columns={"task": "eval"})
    frame.insert(0, "task", frame["original"].map(goal_task))
    frame["success"] = frame["success"].astype(int)
    return frame


def gallery_frame(paraphrases: pd.DataFrame, which: str, libero_path: str = LIBERO) -> pd.DataFrame:
    """``task, text`` rows of gallery ``which`` (:data:`GALLERIES`); raises if an original is not a LIBERO task."""
    if which not in GALLERIES:
        raise RobotaskError(f"gallery {which!r}: expected one of {', '.join(GALLERIES)}")
    originals = paraphrases[["task", "original"]].drop_duplicates().rename(columns={"original": "text"})
    if which == "originals":
        return originals.sort_values("task").reset_index(drop=True)
    libero = pd.read_csv(paths.resolve(libero_path), keep_default_na=False)
    missing = sorted(set(originals["task"]) - set(libero["task"]))
    if missing:
        raise RobotaskError(f"{libero_path}: no LIBERO task {', '.join(missing)}; expected the LIBERO-Goal tasks "
                            "the paraphrases name")
    others = libero[libero["suite"] != GOAL_SUITE]
    same = dict(zip(originals["text"].map(instruction_key), originals["task"], strict=True))
    merged = others["instruction_task"].map(same)
    others = others.assign(task=merged.fillna(others["task"]))[["task", "text"]]
    return pd.concat([originals, others], ignore_index=True).sort_values("task", kind="stable").reset_index(drop=True)

