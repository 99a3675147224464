"""One content-hash cache for every cached artifact: feature arrays, synthetic episodes, embeddings.

An entry lives at ``paths.cache_dir()/<namespace>/<name>`` where ``name`` carries a readable prefix and
a hash of everything the entry depends on (input files' content, parameters, a code version). An entry
is either a ``.npz`` file or a folder; both are built beside their final name and moved into place in
one step, so a killed run never leaves a half-written entry under its final name, and two processes
building the same entry both end with one complete copy.

Why our own module and not ``joblib.Memory``: joblib keys a call by pickling its arguments (a loaded
episode or a multi-GB array would be hashed on every call), stores pickles (our entries are ``.npz``
arrays and whole episode folders that other tools read), and cannot key on the *content* of input
files that the function opens itself. What we need is ~100 lines: a key, an atomic file, an atomic folder.

What the cache promises (DEVELOPING.md tells it for users): an entry is used only when every input
file's bytes are the ones it was built from (:func:`file_fingerprint` hashes every byte, remembered
per path, size, mtime, ctime and inode) and its own content matches the checksum it was written with
(an ``.npz`` entry holds ``__checksum__``, a folder entry ``.entry-checksums.json``); a truncated or
corrupted entry is rebuilt, with a warning. A cache folder that cannot be written still serves what
it holds; a missing ``.npz`` entry is computed and used without being kept (a warning says so).

Building an entry holds a lock file ``.<name>.lock`` beside it, so a second process that wants the
same entry waits for the first and then reads its result instead of building it again (the lock
dies with its process: a killed build never blocks the next one). Entries get the umask's modes.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import tempfile
import time
import warnings
import zipfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from . import paths
from .errors import RobotaskError, RobotaskWarning
from .io import DISK_FULL, default_mode, exclusive_lock, unwritable, write_json, write_npz

HASH = "sha256"  # 1.8 GB/s with the CPU's SHA instructions (blake2b: 0.8 GB/s)
CACHE_FORMAT = 2  # in every key: entries of format 1 (sampled hashes, no checksum) are never looked up
BLOCK = 4 << 20  # bytes read at a time while hashing
SETTLED_NS = 2_000_000_000  # a file changed less than 2 s ago is hashed, but its hash is not remembered
MEMO = ".hashes"  # folder of remembered file hashes in the cache root (dot-named: never an entry)
CHECKSUM = "__checksum__"  # the member of an .npz entry that holds the checksum of the others
FOLDER_CHECKSUMS = ".entry-checksums.json"  # the file of a folder entry that lists its files' checksums


def _identity(st: os.stat_result) -> dict[str, int]:
    """What identifies one version of a file without reading it: any write changes ``ctime``."""
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "ctime_ns": st.st_ctime_ns,
            "inode": st.st_ino, "device": st.st_dev}


def hash_file(path: str | os.PathLike) -> str:
    """The sha256 of every byte of ``path`` (hex)."""
    h = hashlib.new(HASH)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(BLOCK), b""):
            h.update(block)
    return h.hexdigest()


def _memo_path(resolved: str) -> Path:
    digest = hashlib.sha256(resolved.encode(errors="surrogateescape")).hexdigest()
    return paths.cache_dir() / MEMO / f"{digest[:32]}.json"


def file_fingerprint(path: str | os.PathLike) -> str:
    """Content hash of a file: the sha256 of all its bytes, remembered beside the cache.

    The hash is remembered per (path, size, mtime, ctime, inode, device) in ``<cache>/.hashes``, as DVC
    and ccache do, so an unchanged multi-GB annotation is not read again; any write to the file
    changes its ctime, and the whole file is hashed again. A file changed in the last 2 s is hashed
    every time (a second write within the file system's clock tick could keep the same times).
    Remembering is best effort: a read-only or full cache folder only costs the re-hash.
    """
    path = Path(path)
    resolved = str(path.resolve())
    st = path.stat()
    identity = {"path": resolved, "hash": HASH, **_identity(st)}
    memo = _memo_path(resolved)
    try:
        known = json.loads(memo.read_text())
        if {k: known.get(k) for k in identity} == identity and isinstance(known.get("digest"), str):
            return known["digest"]
    except (OSError, ValueError):
        pass
    digest = hash_file(path)
    after = path.stat()
    settled = time.time_ns() - max(after.st_mtime_ns, after.st_ctime_ns) > SETTLED_NS
    if settled and _identity(after) == _identity(st):  # unchanged while we read it
        try:
            write_json(memo, {**identity, "digest": digest})
        except (OSError, RobotaskError):
            pass
    return digest


def content_key(params: Any, files: Sequence[str | os.PathLike] = (), length: int = 20) -> str:
    """Hex key over the JSON of ``params`` (sorted keys) and the content hashes of ``files``."""
    doc = {"files": [file_fingerprint(p) for p in files], "params": params, "format": CACHE_FORMAT}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:length]


def arrays_checksum(arrays: dict[str, np.ndarray]) -> str:
    """The sha256 over the names, dtypes, shapes and bytes of ``arrays`` (in name order)."""
    h = hashlib.new(HASH)
    for name in sorted(arrays):
        value = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{value.dtype.str}|{value.shape}|".encode())
        h.update(memoryview(value).cast("B") if value.size else b"")
    return h.hexdigest()


def folder_checksums(folder: Path) -> dict[str, list]:
    """``{relative path: [size, sha256]}`` of every file under ``folder`` (the checksum file excepted)."""
    out: dict[str, list] = {}
    for item in sorted(folder.rglob("*")):
        if item.is_file() and item.name != FOLDER_CHECKSUMS:
            out[item.relative_to(folder).as_posix()] = [item.stat().st_size, hash_file(item)]
    return out


def folder_intact(folder: Path) -> bool:
    """Whether every file ``folder``'s checksum file lists is there with its size and hash."""
    try:
        listed = json.loads((folder / FOLDER_CHECKSUMS).read_text())
        for rel, (size, digest) in listed.items():
            item = folder / rel
            if item.stat().st_size != size or hash_file(item) != digest:
                return False
    except (OSError, ValueError, TypeError, AttributeError):
        return False
    return True


class Cache:
    """A namespace of cache entries under ``paths.cache_dir()/<namespace>``."""

    def __init__(self, namespace: str):
        self.namespace = namespace

    @property
    def root(self) -> Path:
        """The namespace folder (follows ``ROBOTASK_CACHE`` at call time)."""
        return paths.cache_dir() / self.namespace

    def path(self, name: str) -> Path:
        """Final path of the entry ``name``."""
        return self.root / name

    def load_npz(self, name: str) -> dict[str, np.ndarray] | None:
        """The arrays of an ``.npz`` entry, or None when absent, unreadable or not matching its checksum
        (a warning says which: the caller rebuilds it)."""
        path = self.path(name)
        if not path.is_file():
            return None
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            warnings.warn(f"{path}: unreadable cache entry; recomputing", RobotaskWarning, stacklevel=2)
            return None
        claimed = arrays.pop(CHECKSUM, None)
        if claimed is None or str(claimed) != arrays_checksum(arrays):
            warnings.warn(f"{path}: cache entry does not match its checksum (truncated or corrupted); "
                          "recomputing it", RobotaskWarning, stacklevel=2)
            return None
        return arrays

    def save_npz(self, name: str, **arrays: Any) -> Path:
        """Write an ``.npz`` entry atomically, with the checksum of its arrays."""
        arrays = {k: np.asanyarray(v) for k, v in arrays.items()}
        return write_npz(self.path(name), **arrays, **{CHECKSUM: np.array(arrays_checksum(arrays))})

    def keep_npz(self, name: str, arrays: dict[str, Any]) -> bool:
        """Save an entry if the cache folder can take it; otherwise warn (the run goes on) and return False."""
        try:
            self.save_npz(name, **arrays)
        except (OSError, RobotaskError) as exc:
            self._not_kept(name, getattr(exc, "strerror", None) or str(exc))
            return False
        return True

    def _not_kept(self, name: str, reason: str) -> None:
        warnings.warn(f"cache folder {self.root} cannot keep {name} ({reason}); the result is used but not "
                      "kept: free some space, fix its permissions or set ROBOTASK_CACHE to another folder",
                      RobotaskWarning, stacklevel=3)

    def npz(self, name: str, compute: Callable[[], dict[str, Any]]) -> dict[str, np.ndarray]:
        """The arrays of entry ``name``, computing and storing them first when missing.

        A cache folder that cannot be written (read-only, no permission) still serves the entries it
        holds; a missing one is computed and used, with a warning that it was not kept.
        """
        found = self.load_npz(name)
        if found is not None:
            return found
        reason = unwritable(self.root)
        if reason is not None:
            arrays = compute()
            self._not_kept(name, reason)
            return arrays
        with self._lock(name):
            found = self.load_npz(name)  # another process may have built it while we waited
            if found is not None:
                return found
            arrays = compute()
            self.keep_npz(name, arrays)
        return arrays

    def _lock(self, name: str):
        """The build lock of entry ``name`` (waits for another process building the same entry)."""
        return exclusive_lock(self.root / f".{name}.lock", f"cache entry {self.path(name)}", wait=float("inf"))

    def folder(self, name: str, build: Callable[[Path], Any], marker: str) -> Path:
        """Path of the folder entry ``name``; ``build(tmp)`` fills a temporary folder first when missing.

        ``marker`` is a file the complete folder holds; a folder without it, or whose files do not
        match the checksums listed when it was built, is rebuilt. A cache folder that cannot be
        written serves the complete entries it holds and refuses to build one with a clear error.
        """
        final = self.path(name)
        if self._complete(final, marker):
            return final
        reason = unwritable(self.root)
        if reason is not None:
            raise RobotaskError(f"cache folder {self.root} cannot be written ({reason}), and entry {name} must "
                                "be built there: fix its permissions or set ROBOTASK_CACHE to a writable folder")
        with self._lock(name):
            if not self._complete(final, marker):
                self._build_folder(name, build, marker)
        return final

    @staticmethod
    def _complete(final: Path, marker: str) -> bool:
        if not (final / marker).is_file():
            return False
        if folder_intact(final):
            return True
        warnings.warn(f"{final}: cache entry does not match its checksums (truncated or corrupted); "
                      "rebuilding it", RobotaskWarning, stacklevel=3)
        return False

    def _build_folder(self, name: str, build: Callable[[Path], Any], marker: str) -> None:
        """Build entry ``name`` in a dot-prefixed temporary folder, list its checksums, move it into place.

        It runs under the entry's lock, so another ``.<name>.*`` folder is a build that was killed before its
        move (a Dask worker lost mid-task): it is removed first, and a killed build costs no disk for long."""
        final = self.path(name)
        for left in self.root.glob(f".{glob.escape(name)}.*"):
            if left.is_dir():
                shutil.rmtree(left, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=self.root))
        try:
            try:
                build(tmp)
                write_json(tmp / FOLDER_CHECKSUMS, folder_checksums(tmp))
            except OSError as exc:
                if exc.errno not in DISK_FULL:
                    raise
                raise RobotaskError(f"the disk holding the cache folder {self.root} is full while building "
                                    f"{name}; nothing half-built was left: free some space or set "
                                    "ROBOTASK_CACHE to another folder") from None
            os.chmod(tmp, default_mode(folder=True))  # mkdtemp's 0700 would survive the rename
            if final.exists():  # a half-built or corrupted folder: moved aside, then removed
                stale = self.root / f".{name}.stale-{os.getpid()}"
                os.replace(final, stale)
                shutil.rmtree(stale, ignore_errors=True)
            os.replace(tmp, final)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def root_at(folder: str | os.PathLike) -> Iterator[Path]:
    """``ROBOTASK_CACHE`` set to ``folder`` while the block runs (a throw-away cache), restored after."""
    old = os.environ.get("ROBOTASK_CACHE")
    os.environ["ROBOTASK_CACHE"] = str(folder)
    try:
        yield Path(folder)
    finally:
        if old is None:
            os.environ.pop("ROBOTASK_CACHE", None)
        else:
            os.environ["ROBOTASK_CACHE"] = old


def adopt_entries(source: str | os.PathLike) -> int:
    """Copy into this cache the complete entries of another cache root that it lacks; return how many.

    For a timing run that had to start from a throw-away cold cache (``collection_study.measure_scaling``):
    its entries are keyed by content, so a copy is what building them again here would write. Dot-named
    items (locks, half-built folders) are skipped; each copy is moved into place in one step.
    """
    adopted = 0
    for space in sorted(p for p in Path(source).iterdir() if p.is_dir() and not p.name.startswith(".")):
        target = paths.cache_dir() / space.name
        for entry in sorted(p for p in space.iterdir() if not p.name.startswith(".")):
            final = target / entry.name
            if final.exists():
                continue
            target.mkdir(parents=True, exist_ok=True)
            tmp = target / f".{entry.name}.adopt-{os.getpid()}"
            (shutil.copytree if entry.is_dir() else shutil.copy2)(entry, tmp)
            try:
                os.replace(tmp, final)
                adopted += 1
            except OSError:  # built meanwhile by another process: keep theirs
                if tmp.is_dir():
                    shutil.rmtree(tmp, ignore_errors=True)
                else:
                    tmp.unlink(missing_ok=True)
    return adopted
