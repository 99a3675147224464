"""Where things live, anchored on this file so any working directory works."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
RLBENCH_DATA = DATA / "rlbench"
NOTEBOOKS = ROOT / "notebooks"
PARAMS = ROOT / "params"
BOOK = ROOT / "book"
CHAPTERS_OUT = BOOK / "chapters"
BUILD = ROOT / "_build"


def cache_dir() -> Path:
    """Root of the on-disk caches (episodes, features); ``ROBOTASK_CACHE`` overrides it."""
    return resolve(os.environ.get("ROBOTASK_CACHE", BUILD / "cache"))


def results_dir() -> Path:
    """Root of the result folders the notebooks write; ``ROBOTASK_RESULTS`` overrides it."""
    return resolve(os.environ.get("ROBOTASK_RESULTS", BUILD / "results"))


def from_caller(text: str) -> str:
    """A path typed on the command line, made absolute from the caller's working directory.

    The command line is the caller's: ``robotask features --collection col --out feat`` run in
    ``/home/me`` writes ``/home/me/feat``, and Dask workers receive that absolute path. Used as the
    ``type=`` of every path option of the CLI; an empty string (an unset optional path) stays empty.
    """
    return str(Path(text).expanduser().absolute()) if text else text


def resolve(path: str | os.PathLike) -> Path:
    """A user-supplied path: absolute as given; relative paths are taken from the repository root.

    Notebooks run with different working directories (papermill uses the repo root, nbval the
    notebook's folder), so the package never resolves a relative path against the working directory.
    """
    path = Path(path).expanduser()
    return path if path.is_absolute() else ROOT / path


def outside_inputs(out: str | os.PathLike, inputs: dict[str, str | os.PathLike], option: str = "--out") -> Path:
    """``out``, refused (:class:`~robotask.errors.RobotaskError`) when it is one of ``inputs`` or lies
    inside one: what a command writes there would be read as input the next time (an unlisted episode
    folder of a collection, a stray file in an episode), and a result file could replace an input file.
    ``inputs`` maps what each input is ("the episode folder") to its path."""
    from .errors import RobotaskError

    target = Path(out).expanduser().resolve()
    for what, folder in inputs.items():
        source = Path(folder).expanduser().resolve()
        if target == source or source in target.parents:
            where = "is" if target == source else "lies inside"
            raise RobotaskError(f"{option} {out} {where} {what} {folder}: results are never written into "
                                "an input folder; choose an output folder outside it")
    return target
