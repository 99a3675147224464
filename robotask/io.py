"""Atomic writes: a result file is either the old one or the complete new one.

Temporary files are dot-prefixed (``.<name>.<random>.tmp``) beside their final name and get the mode
the umask gives (0644 under umask 0022), like a plain ``open(path, "w")`` would: ``mkstemp``'s 0600
would otherwise survive the rename and make results unreadable to other users. Also here: the
check that an output folder can be written (:func:`writable_dir`) and an exclusive lock file
(:func:`exclusive_lock`) that keeps two runs from writing the same outputs at once.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .errors import RobotaskError


def umask() -> int:
    """The process umask (read by setting it and restoring it at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def default_mode(folder: bool = False) -> int:
    """The mode a plain ``open()`` (0666) or ``mkdir()`` (0777) gets under the current umask."""
    return (0o777 if folder else 0o666) & ~umask()


def writable_dir(path: str | os.PathLike, what: str = "output folder") -> Path:
    """Create ``path`` as a folder if needed and check it can be written; raise a clear error if not.

    Errors name the path and say why: it is an existing file, a parent is a file, or it is not
    writable (permissions or a read-only file system).
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise RobotaskError(f"{what} {path} is an existing file; expected a folder (or a path that does not exist)")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise RobotaskError(f"{what} {path} cannot be created: {parent} is a file, not a folder")
            break
    reason = unwritable(path)
    if reason is not None:
        raise RobotaskError(f"{what} {path} is not writable ({reason}); choose another folder "
                            "(e.g. output_dir / --out) or fix its permissions")
    return path


def unwritable(folder: Path) -> str | None:
    """Why ``folder`` (created if needed) cannot take a new file, or None when it can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-probe.", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


@contextmanager
def atomic_path(path: str | os.PathLike, size: int | None = None) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; move it into place only on success.

    A full disk (or quota) while writing is one :class:`RobotaskError` naming the folder and how much
    was to be written (``size`` bytes, when the writer knows it); the temporary file is removed and the
    file already at ``path`` is kept.
    """
    path = Path(path)
    if path.is_dir():
        raise RobotaskError(f"output file {path} is an existing folder; expected a file path")
    if not path.parent.is_dir():
        writable_dir(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        if exc.errno in DISK_FULL:
            raise disk_full(path, 0, size) from None
        raise RobotaskError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.fchmod(fd, default_mode())
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, path)
    except OSError as exc:
        if exc.errno not in DISK_FULL:
            raise
        written = tmp_path.stat().st_size if tmp_path.exists() else 0
        raise disk_full(path, written, size) from None
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


DISK_FULL = (errno.ENOSPC, errno.EDQUOT)  # no space left on the device; disk quota exceeded


def size_words(n: int) -> str:
    """A byte count as a person writes it: "812 bytes", "3.4 kB", "12.0 MB"."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def disk_full(path: Path, written: int, size: int | None = None) -> RobotaskError:
    """The one-line error of a write that ran out of space: the folder, what was written, what is free."""
    try:
        free = size_words(shutil.disk_usage(path.parent).free)
    except OSError:
        free = "unknown"
    what = f"{path.name} ({size_words(size)})" if size is not None else path.name
    return RobotaskError(f"the disk holding {path.parent} is full: writing {what} stopped after "
                         f"{size_words(written)} ({free} free); nothing half-written was left and the files "
                         "written before are unchanged; free some space or choose another folder (--out / output_dir)")


def _json_default(obj: Any) -> Any:
    import numpy as np  # here, not at the top: `robotask run` refuses bad input before numpy loads

    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"cannot write {type(obj).__name__} to JSON")


def write_json(path: str | os.PathLike, obj: Any) -> Path:
    """Write ``obj`` as indented, key-sorted JSON, atomically."""
    data = (json.dumps(obj, indent=2, sort_keys=True, default=_json_default) + "\n").encode()
    with atomic_path(path, len(data)) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` atomically."""
    data = text.encode()
    with atomic_path(path, len(data)) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_csv(path: str | os.PathLike, frame: pandas.DataFrame) -> Path:  # noqa: F821
    """Write a DataFrame as CSV (no index, fixed float format), atomically."""
    data = frame.to_csv(index=False, lineterminator="\n").encode()
    with atomic_path(path, len(data)) as tmp:
        tmp.write_bytes(data)
    return Path(path)


ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)  # fixed member timestamps: the same arrays give the same bytes


def write_npz(path: str | os.PathLike, **arrays: Any) -> Path:
    """Write arrays to an uncompressed ``.npz`` atomically; byte-identical for identical arrays.

    ``np.savez`` stamps each member with the current time, so two runs differ; here every member
    carries :data:`ZIP_EPOCH` (``np.load`` reads the file as usual; no pickles are written).
    A value that is not an ndarray but has ``shape``, ``dtype`` and ``blocks(rows)`` (yielding
    ``(row slice, rows)``: a matrix read from disk on demand) is written one block of rows at a time, in
    the bytes ``np.save`` gives the whole matrix.
    """
    import zipfile

    import numpy as np

    with atomic_path(path) as tmp:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
            for name, value in arrays.items():
                info = zipfile.ZipInfo(f"{name}.npy", date_time=ZIP_EPOCH)
                info.external_attr = 0o644 << 16
                with zf.open(info, "w", force_zip64=True) as member:
                    if isinstance(value, np.ndarray) or not hasattr(value, "blocks"):
                        np.lib.format.write_array(member, np.asanyarray(value), allow_pickle=False)
                    else:
                        _write_rows(member, value)
    return Path(path)


def _write_rows(member: Any, matrix: Any) -> None:
    """The ``.npy`` bytes of a C-ordered matrix of plain numbers, from its blocks of rows (see :func:`write_npz`)."""
    import numpy as np

    dtype = np.dtype(matrix.dtype)
    header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": tuple(matrix.shape)}
    np.lib.format.write_array_header_1_0(member, header)  # ``write_array``'s header (version 1.0 fits a matrix)
    rows = max(1, (16 << 20) // max(dtype.itemsize * int(np.prod(matrix.shape[1:])), 1))
    for _, block in matrix.blocks(rows):
        member.write(np.ascontiguousarray(block, dtype=dtype).tobytes())


@contextmanager
def exclusive_lock(path: str | os.PathLike, what: str, wait: float = 0.0) -> Iterator[Path]:
    """Hold an exclusive lock on the lock file ``path`` while the block runs (``filelock``: ``flock``
    on Unix, ``msvcrt`` on Windows).

    A second process (or a second lock in this one) asking for the same lock waits up to ``wait``
    seconds (``inf``: as long as it takes), then raises a :class:`RobotaskError` naming ``what`` is
    busy. The lock goes with the process (a killed run leaves no stale lock: no soft-lock fallback);
    the lock file itself stays (a dot-file, empty).
    """
    from filelock import FileLock, Timeout  # here: `robotask run` refuses bad input before it loads

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(path, timeout=-1 if wait == float("inf") else wait, preserve_lock_file=True,
                    fallback_to_soft=False, poll_interval=0.2)
    try:
        lock.acquire()
    except Timeout:
        raise RobotaskError(f"{what} is in use by another run (lock {path}); wait for it "
                            "to finish or write elsewhere") from None
    try:
        yield path
    finally:
        lock.release()


def output_lock(out: str | os.PathLike, option: str = "--out"):
    """The exclusive lock of an output folder, ``.<name>.lock`` beside it: a second command writing into
    the same folder at once is refused with one line (the lock goes with the process that holds it)."""
    out = Path(out).absolute()
    return exclusive_lock(out.parent / f".{out.name}.lock", f"{option} {out}")
