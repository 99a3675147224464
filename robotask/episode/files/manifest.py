"""Episode collections: a folder of episode folders, or a manifest CSV ``episode_id,path[,subject,scene,…]``.

``load_collection(path)`` validates every episode up front (annotation readable with its required
groups, six MP4s present and openable) and returns a :class:`Collection`: the usable episodes with
their manifest columns, and one table of the unusable ones, each with its reason. Nothing stops at
the first bad episode. Used by ``robotask features --collection``, ``robotask suite --collection``
and notebook ``14_collections``.
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import h5py
import pandas as pd

import robotask.episode.files.format as fmt

from ...errors import RobotaskError, RobotaskWarning
from ...words import count, named
from .media import video_fps

MANIFEST = "manifest.csv"
PROBLEM_COLUMNS = ("episode_id", "path", "reason")


@dataclass
class Collection:
    """Usable episodes (``episodes``: episode_id, path (absolute) and manifest factors) and unusable ones."""

    root: Path
    episodes: pd.DataFrame
    problems: pd.DataFrame  # episode_id, path, reason

    @property
    def ids(self) -> list[str]:
        """Ids of the usable episodes, in manifest order."""
        return self.episodes["episode_id"].tolist()

    def path(self, episode: str) -> Path:
        """Folder of a usable episode."""
        row = self.episodes.loc[self.episodes["episode_id"] == episode, "path"]
        if row.empty:
            raise RobotaskError(f"episode {episode!r} is not a usable episode of {self.root}")
        return Path(row.iloc[0])

    def subset(self, ids: list[str]) -> Collection:
        """The collection restricted to the usable episodes ``ids`` (in that order; no unusable ones)."""
        table = self.episodes.set_index("episode_id").loc[list(ids)].reset_index()
        return Collection(self.root, table, self.problems.iloc[:0])


def episode_problem(folder: str | os.PathLike) -> str | None:
    """Why an episode folder is unusable (None when it passes the up-front checks)."""
    folder = Path(folder)
    if not folder.is_dir():
        return "episode folder not found"
    ann = folder / fmt.ANNOTATION
    if not ann.is_file():
        return f"no {fmt.ANNOTATION}"
    try:
        with h5py.File(ann, "r") as f:
            missing = [k for k in (fmt.CALIBRATION, fmt.SLAM_QUAT, fmt.SLAM_TRANS, fmt.SLAM_NAMES) if k not in f]
    except OSError as exc:
        return f"{fmt.ANNOTATION} is not readable HDF5 ({str(exc).splitlines()[0]})"
    if missing:
        return f"{fmt.ANNOTATION} lacks {', '.join(missing)}"
    for stream in fmt.VIDEO_STREAMS:
        video = folder / fmt.video_file(stream)
        if not video.is_file() or video.stat().st_size == 0:
            return f"{video.name} missing or empty"
        try:
            video_fps(video)
        except RobotaskError as exc:
            return f"{video.name} unreadable ({str(exc).split(': ', 1)[-1]})"
    return None


_PLAIN = re.compile(r"[A-Za-z0-9_.-]+")


def _plain_name(text: str) -> bool:
    """An id that is safe as a folder name: no separators, not ``.`` or ``..``, no leading dash."""
    return bool(_PLAIN.fullmatch(text)) and text not in (".", "..") and not text.startswith("-")


def _manifest_table(csv: Path) -> pd.DataFrame:
    """A manifest CSV with absolute paths (relative ones are taken from the CSV's folder)."""
    try:
        table = pd.read_csv(csv, dtype={"episode_id": str, "path": str}, keep_default_na=False)
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise RobotaskError(f"{csv}: not a readable manifest CSV ({exc})") from None
    missing = [c for c in ("episode_id", "path") if c not in table.columns]
    if missing:
        raise RobotaskError(f"{csv}: missing {named('column', missing)}; expected episode_id,path[,subject,scene,…]")
    pathlike = [i for i in table["episode_id"] if not _plain_name(i)]
    if pathlike:
        raise RobotaskError(f"{csv}: episode_id {pathlike[0]!r} is not a plain name; expected letters, digits, "
                            "'-', '_' or '.' (no '/', no '..', not empty), because results are written to a "
                            "folder of that name")
    dup = table["episode_id"][table["episode_id"].duplicated()].tolist()
    if dup:
        raise RobotaskError(f"{csv}: episode_id values repeat ({', '.join(map(str, dup[:5]))}); expected unique ids")
    table["path"] = [str(p if Path(p).is_absolute() else (csv.parent / p)) for p in table["path"]]
    resolved = pd.Series([str(Path(p).resolve()) for p in table["path"]])
    same = resolved[resolved.duplicated(keep=False)]
    if not same.empty:
        ids = table.loc[same.index, "episode_id"].tolist()
        raise RobotaskError(f"{csv}: episodes {', '.join(map(str, ids[:4]))} name the same folder "
                            f"{same.iloc[0]}; expected one row per episode folder")
    return table


def _unlisted_folders(root: Path, table: pd.DataFrame) -> list[str]:
    """Episode folders beside a manifest that it does not list (folders holding an annotation file)."""
    listed = {str(Path(p).resolve()) for p in table["path"]}
    return [p.name for p in sorted(root.iterdir())
            if p.is_dir() and not p.name.startswith(".") and (p / fmt.ANNOTATION).is_file()
            and str(p.resolve()) not in listed]


def _folder_table(root: Path) -> pd.DataFrame:
    """Every sub-folder of ``root`` (sorted) as an episode; hidden folders (temporary builds) are skipped."""
    subs = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    return pd.DataFrame({"episode_id": [p.name for p in subs], "path": [str(p) for p in subs]})


def load_collection(path: str | os.PathLike) -> Collection:
    """Read a collection (folder or manifest CSV), validate every episode, keep the usable ones.

    A folder with a ``manifest.csv`` uses it; otherwise every sub-folder is an episode.
    """
    path = Path(path)
    if path.is_file():
        root, table = path.parent, _manifest_table(path)
    elif path.is_dir():
        root = path
        table = _manifest_table(path / MANIFEST) if (path / MANIFEST).is_file() else _folder_table(path)
        unlisted = _unlisted_folders(path, table) if (path / MANIFEST).is_file() else []
        if unlisted:
            shown = ", ".join(unlisted[:5]) + (", …" if len(unlisted) > 5 else "")
            warnings.warn(f"{path}: {MANIFEST} does not list {count(len(unlisted), 'episode folder')} beside it "
                          f"({shown}); they are left out (add them to {MANIFEST} to use them)",
                          RobotaskWarning, stacklevel=2)
    else:
        raise RobotaskError(f"--collection {path}: not found; expected a folder of episode folders or a manifest CSV")
    if table.empty:
        raise RobotaskError(f"{path}: the collection holds no episodes")
    reasons = [episode_problem(p) for p in table["path"]]
    bad = [r is not None for r in reasons]
    problems = table.loc[bad, ["episode_id", "path"]].assign(reason=[r for r in reasons if r is not None])
    episodes = table.loc[[not b for b in bad]].reset_index(drop=True)
    return Collection(root, episodes, problems.reset_index(drop=True)[list(PROBLEM_COLUMNS)])
