"""CALVIN's instruction library: derive ``data/calvin/`` from a CALVIN checkout or git repository.

CALVIN's language annotations (``calvin_models/conf/annotations/new_playtable.yaml`` of
https://github.com/mees/calvin) are a YAML task library (each key a task, each value the list of
its instructions), read by :func:`robotask.retrieval.protocol.corpus_file.parse_library`.
:func:`write_calvin` derives ``data/calvin/`` (``corpus.csv``, ``NOTICE`` with CALVIN's MIT
licence, ``README.md``) from a CALVIN checkout or git repository;
``python -m robotask.retrieval.libraries.calvin --calvin DIR`` does the same.
"""
from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pandas as pd

from ... import io as rio
from ... import paths
from ...errors import RobotaskError
from ..protocol.corpus_file import parse_library

CALVIN_COLUMNS = ["task", "position", "text", "source", "revision"]

CALVIN_REPOSITORY = "mees/calvin"
CALVIN_PATH = "calvin_models/conf/annotations/new_playtable.yaml"
CALVIN_OUT = paths.DATA / "calvin"


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)


def read_repository_file(repo: str | Path, path: str, revision: str | None = None) -> tuple[str, str]:
    """(text, revision) of ``path`` in a git repository at ``revision`` (default HEAD) or a checkout."""
    repo = Path(repo)
    if revision is None and (repo / path).is_file():
        head = _git(repo, "rev-parse", "--short=12", "HEAD")
        commit = head.stdout.decode().strip() if head.returncode == 0 else ""
        return (repo / path).read_text(encoding="utf-8"), commit
    commit = _git(repo, "rev-parse", "--short=12", f"{revision or 'HEAD'}^{{commit}}")
    shown = _git(repo, "show", f"{revision or 'HEAD'}:{path}") if commit.returncode == 0 else commit
    if shown.returncode != 0:
        raise RobotaskError(f"{path} is not in {str(repo)!r} at {revision or 'HEAD'}; expected a CALVIN "
                            "checkout or git repository")
    return shown.stdout.decode("utf-8"), commit.stdout.decode().strip()


def calvin_corpus(repo: str | Path, revision: str | None = None, path: str = CALVIN_PATH) -> pd.DataFrame:
    """CALVIN's annotation texts (``CALVIN_COLUMNS``) from a checkout or git repository."""
    text, commit = read_repository_file(repo, path, revision)
    frame = parse_library(text, path)
    return frame.assign(source=path, revision=commit)[CALVIN_COLUMNS]


NOTICE_HEADER = """\
Source of the data in this folder
=================================

The texts in corpus.csv (column `text`) are the language annotations of CALVIN, copied unchanged
from the file
    {path}
of the CALVIN repository (https://github.com/{repository}) at revision {revision}.
No other CALVIN file is included here. CALVIN is distributed under the MIT licence, reproduced
below from the file LICENSE of that repository:

"""

README = """\
# CALVIN instruction library

`corpus.csv` holds the language annotations of CALVIN (O. Mees, L. Hermann, E. Rosete-Beas,
W. Burgard, "CALVIN: A Benchmark for Language-Conditioned Policy Learning for Long-Horizon Robot
Manipulation Tasks", IEEE Robotics and Automation Letters 7(3), 2022):
repository `{repository}`, file `{path}`,
revision {revision}. {n_tasks} tasks, {n_texts} texts, read with
`robotask.retrieval.protocol.corpus_file.read_corpus_file` (the YAML maps each task to its list of instructions;
texts kept unchanged, in the order of the file). See `NOTICE` for the MIT licence.

Columns: `task` (the YAML key), `position` (0-based place in the task's list), `text`, `source`
(path of the YAML file in the repository), `revision`.

Regenerate:

    python -m robotask.retrieval.libraries.calvin --calvin <CALVIN checkout or git repo> --revision {revision}
"""


def write_calvin(repo: str | Path, out_dir: str | Path = CALVIN_OUT,
                 revision: str | None = None) -> pd.DataFrame:
    """Write ``corpus.csv``, ``NOTICE`` (with CALVIN's LICENSE) and ``README.md`` to ``out_dir``."""
    corpus = calvin_corpus(repo, revision)
    commit = corpus["revision"].iloc[0]
    licence, _ = read_repository_file(repo, "LICENSE", revision)
    out = paths.resolve(out_dir)
    fields = {"repository": CALVIN_REPOSITORY, "path": CALVIN_PATH, "revision": commit,
              "n_tasks": corpus["task"].nunique(), "n_texts": len(corpus)}
    rio.write_csv(out / "corpus.csv", corpus)
    rio.write_text(out / "NOTICE", NOTICE_HEADER.format(**fields) + licence.rstrip("\n") + "\n")
    rio.write_text(out / "README.md", README.format(**fields))
    return corpus


def main(argv: list[str] | None = None) -> int:
    """``python -m robotask.retrieval.libraries.calvin --calvin DIR [--revision REV] [--out DIR]``."""
    parser = argparse.ArgumentParser(description="Derive data/calvin from a CALVIN repository.")
    parser.add_argument("--calvin", required=True, help="CALVIN checkout or git repository")
    parser.add_argument("--revision", default=None, help="revision to read (default HEAD)")
    parser.add_argument("--out", default=str(CALVIN_OUT), help="output folder")
    args = parser.parse_args(argv)
    corpus = write_calvin(args.calvin, args.out, args.revision)
    print(f"{corpus['task'].nunique()} tasks, {len(corpus)} texts")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
