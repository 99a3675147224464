"""LIBERO-Para's paraphrases of the LIBERO-Goal instructions, with one policy's logged outcome: ``data/libero_para/``.

Source: repository ``cau-hai-lab/LIBERO-Para`` (MIT). Three parts of a checkout are read, and nothing else:

* the paraphrase files ``libero/libero/bddl_files/libero_para/{high}_{mid}_{low}_eval{N}_ver{K}.bddl``, each
  holding one ``(:language <paraphrase>)`` line;
* the taxonomy ``metrics/libero_para_metadata.csv``: per paraphrase its ``high`` type (``act``, ``obj``,
  ``comp``), ``mid`` and ``low`` kinds of change, the eval id ``N``, the version ``batch_idx`` (= ``K``), the
  paraphrase and the original instruction, and the two similarities to the original;
* the logged episodes ``logs_para/<run>/seed7/eval{N}.json`` of one policy (Xiaomi-Robotics-0 in the source),
  each episode naming its ``bddl_file`` and its ``success``.

One row per paraphrase file: ``task`` (``eval{N}``), ``original``, ``text`` (the file's ``(:language)`` line),
the taxonomy under the source's own names, the two similarities, ``source`` (the file), ``revision`` and
``success`` (1 or 0). Metadata rows and episodes are joined by the file name; a file whose metadata text or
logged text differs from its ``(:language)`` line is left out and the accounting says why. ``accounting.csv``
lists every paraphrase file, every task, every metadata row and every logged episode with ``joined`` or
``unmatched`` and the reason.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from ...errors import RobotaskError
from .extracted import extraction_main, write_tables
from .libero import LANGUAGE, check_revision

REPOSITORY = "cau-hai-lab/LIBERO-Para"
PARA_ROOT = "libero/libero/bddl_files/libero_para"
METADATA = "metrics/libero_para_metadata.csv"
LOGS = "logs_para/example_xiaomi-robotics-0/seed7"
FILE_NAME = re.compile(r"(?P<high>[a-z]+)_(?P<mid>[a-z+]+)_(?P<low>[a-z_+]+)_eval(?P<eval>\d+)_ver(?P<ver>\d+)\.bddl")
METADATA_COLUMNS = ["high", "mid", "low", "eval", "batch_idx", "new_instruction", "original_instruction",
                    "structural_similarity", "keyword_similarity"]
CORPUS_COLUMNS = ["task", "original", "text", "high", "mid", "low", "keyword_similarity",
                  "structural_similarity", "source", "revision", "success"]
ACCOUNTING_COLUMNS = ["kind", "source", "key", "status", "reason", "revision"]


def file_name(high: str, mid: str, low: str, eval_id: int, version: int) -> str:
    """The paraphrase file of one metadata row: ``{high}_{mid}_{low}_eval{N}_ver{K}.bddl``."""
    return f"{high}_{mid}_{low}_eval{int(eval_id)}_ver{int(version)}.bddl"


def read_paraphrase_files(checkout: Path) -> tuple[dict[str, str], list[dict]]:
    """``file name → (:language) text`` of every paraphrase file, and the accounting of the left-out ones."""
    root = checkout / PARA_ROOT
    files = sorted(root.glob("*.bddl"))
    if not files:
        raise RobotaskError(f"{root}: no .bddl files; expected a LIBERO-Para checkout")
    texts, left = {}, []
    for file in files:
        found = LANGUAGE.findall(file.read_text(encoding="utf-8"))
        reason = ("" if len(found) == 1 and found[0].strip() else
                  f"{len(found)} non-empty (:language ...) lines; expected one")
        if not reason and not FILE_NAME.fullmatch(file.name):
            reason = "name is not {high}_{mid}_{low}_eval{N}_ver{K}.bddl"
        if reason:
            left.append(dict(kind="paraphrase file", source=f"{PARA_ROOT}/{file.name}", key=file.name,
                             status="unmatched", reason=reason))
        else:
            texts[file.name] = found[0]
    return texts, left


def read_metadata(checkout: Path) -> pd.DataFrame:
    """The taxonomy table with its file name (``file``), or a RobotaskError naming a missing column."""
    path = checkout / METADATA
    if not path.is_file():
        raise RobotaskError(f"{path} does not exist; expected LIBERO-Para's paraphrase metadata")
    frame = pd.read_csv(path, keep_default_na=False)
    missing = [c for c in METADATA_COLUMNS if c not in frame.columns]
    if missing:
        raise RobotaskError(f"{path}: missing columns {', '.join(missing)}; expected {', '.join(METADATA_COLUMNS)}")
    frame["file"] = [file_name(*r) for r in frame[["high", "mid", "low", "eval", "batch_idx"]].itertuples(index=False)]
    return frame


def read_episodes(checkout: Path) -> pd.DataFrame:
    """One row per logged episode: ``log`` (its file), ``eval``, ``bddl_file``, ``logged_text``, ``success``."""
    folder = checkout / LOGS
    files = sorted(folder.glob("eval*.json"))
    if not files:
        raise RobotaskError(f"{folder}: no eval*.json logs; expected LIBERO-Para's logged episodes")
    rows = []
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            episodes = data["episodes"]
            rows.extend(dict(log=f"{LOGS}/{file.name}", eval=int(data["eval_id"]), bddl_file=e["bddl_file"],
                             logged_text=e["paraphrased_instruction"], success=int(bool(e["success"])))
                        for e in episodes)
        except (ValueError, KeyError, TypeError) as err:
            raise RobotaskError(f"{file}: not a LIBERO-Para log ({type(err).__name__}: {err}); expected "
                                "eval_id and episodes with bddl_file, paraphrased_instruction, success") from None
    return pd.DataFrame(rows, columns=["log", "eval", "bddl_file", "logged_text", "success"])


def _why_unmatched(name: str, texts: dict[str, str], meta: dict[str, dict], logged: dict[str, dict]) -> str:
    """Why the paraphrase file ``name`` cannot be joined ("" when it can)."""
    if name not in meta:
        return "no metadata row names this file"
    if name not in logged:
        return "no logged episode names this file"
    if meta[name]["new_instruction"] != texts[name]:
        return "the metadata's paraphrase differs from the file's (:language) line"
    if logged[name]["logged_text"] != texts[name]:
        return "the logged paraphrase differs from the file's (:language) line"
    return ""


def libero_para_rows(checkout: str | Path, revision: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(corpus, accounting)`` of a LIBERO-Para checkout (module docstring)."""
    check_revision(revision)
    checkout = Path(checkout)
    texts, accounting = read_paraphrase_files(checkout)
    metadata, episodes = read_metadata(checkout), read_episodes(checkout)
    for column, what in ((metadata["file"], METADATA), (episodes["bddl_file"], f"{LOGS}/eval*.json")):
        twice = column[column.duplicated()]
        if len(twice):
            raise RobotaskError(f"{what} names the paraphrase file {twice.iloc[0]} twice; expected each file once")
    meta = metadata.set_index("file").to_dict("index")
    logged = episodes.set_index("bddl_file").to_dict("index")
    rows = []
    for name in sorted(texts):
        reason = _why_unmatched(name, texts, meta, logged)
        accounting.append(dict(kind="paraphrase file", source=f"{PARA_ROOT}/{name}", key=name,
                               status="unmatched" if reason else "joined", reason=reason or "metadata and log"))
        if reason:
            continue
        m = meta[name]
        rows.append(dict(task=f"eval{int(m['eval'])}", original=m["original_instruction"], text=texts[name],
                         high=m["high"], mid=m["mid"], low=m["low"], keyword_similarity=m["keyword_similarity"],
                         structural_similarity=m["structural_similarity"], source=f"{PARA_ROOT}/{name}",
                         revision=revision, success=int(logged[name]["success"])))
    corpus = pd.DataFrame(rows, columns=CORPUS_COLUMNS)
    joined = set(corpus["source"].str.rsplit("/", n=1).str[-1])
    for name in metadata["file"]:
        accounting.append(dict(kind="metadata row", source=METADATA, key=name,
                               **_join_status(name, joined, texts)))
    for e in episodes.itertuples(index=False):
        accounting.append(dict(kind="logged episode", source=e.log, key=e.bddl_file,
                               **_join_status(e.bddl_file, joined, texts)))
    accounting.extend(_task_rows(corpus, metadata))
    frame = pd.DataFrame(accounting).assign(revision=revision)
    return corpus, frame[ACCOUNTING_COLUMNS]


def _join_status(name: str, joined: set[str], texts: dict[str, str]) -> dict[str, str]:
    """``status`` and ``reason`` of a metadata row or logged episode naming the paraphrase file ``name``."""
    if name in joined:
        return dict(status="joined", reason="paraphrase file")
    if name not in texts:
        return dict(status="unmatched", reason="no paraphrase file of this name")
    return dict(status="unmatched", reason="its paraphrase file is not joined (see that file's row)")


def _task_rows(corpus: pd.DataFrame, metadata: pd.DataFrame) -> list[dict]:
    """One accounting row per task (eval id) of the metadata: how many of its paraphrases were joined."""
    out = []
    for eval_id, group in metadata.groupby("eval", sort=True):
        task = f"eval{int(eval_id)}"
        n = int((corpus["task"] == task).sum())
        original = "; ".join(sorted(set(group["original_instruction"])))
        out.append(dict(kind="task", source=METADATA, key=task, status="joined" if n else "unmatched",
                        reason=f"{n} of {len(group)} paraphrases joined; original: {original}"))
    return out


def notice(checkout: str | Path, revision: str) -> str:
    """The NOTICE text: what was taken from where, and the repository's LICENSE reproduced."""
    path = Path(checkout) / "LICENSE"
    if not path.is_file():
        raise RobotaskError(f"{path} does not exist; expected the LIBERO-Para checkout's LICENSE")
    return (f"Source of the data in this folder\n=================================\n\n"
            f"The texts, taxonomy, similarities and logged outcomes in corpus.csv were published by the\n"
            f"LIBERO-Para authors in the repository https://github.com/{REPOSITORY}, revision\n"
            f"{revision}: the (:language ...) lines of the files\n  {PARA_ROOT}/*.bddl,\n"
            f"the table\n  {METADATA}\nand the logged episodes\n  {LOGS}/eval*.json,\n"
            f"taken unchanged (success written as 1 or 0). No LIBERO-Para source file is included here.\n"
            f"The repository's LICENSE file follows.\n\n"
            f"{path.read_text(encoding='utf-8').rstrip()}\n")


def write_libero_para(checkout: str | Path, out_dir: str | Path, revision: str) -> Path:
    """Write ``corpus.csv``, ``accounting.csv`` and ``NOTICE`` into ``out_dir`` (README is authored)."""
    corpus, accounting = libero_para_rows(checkout, revision)
    return write_tables(out_dir, {"corpus": corpus, "accounting": accounting}, notice(checkout, revision))


def main(argv: list[str] | None = None) -> int:
    """``python -m robotask.retrieval.libraries.libero_para CHECKOUT --revision REV [--out DIR]``."""
    return extraction_main("libero_para", "LIBERO-Para", write_libero_para, argv)


if __name__ == "__main__":
    raise SystemExit(main())
