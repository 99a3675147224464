"""What the cache promises: an input edited in place is never served from the cache, whatever its
size and wherever the edit; an entry that does not match its checksum is rebuilt, never used; a
cache folder that is read-only or full never costs a result."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import h5py
import numpy as np
import pytest

from robotask import cache
from robotask.errors import RobotaskError, RobotaskWarning
from robotask.io import write_npz

BIG = 65 << 20  # over the old 64 MiB limit, above which only 16 sampled 1 MiB blocks were hashed


@pytest.fixture
def own_cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("ROBOTASK_CACHE", str(root))
    return root


@pytest.fixture(scope="module")
def big_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("big") / "annotation.hdf5"
    path.write_bytes(np.random.default_rng(0).integers(0, 256, BIG, dtype=np.uint8).tobytes())
    return path


def _edit_in_place(path: Path, offset: int, keep_mtime: bool) -> None:
    """Overwrite 8 bytes at ``offset`` (same size); optionally put the old mtime back as a careless tool might."""
    st = path.stat()
    with open(path, "r+b") as fh:
        fh.seek(offset)
        old = fh.read(8)
        fh.seek(offset)
        fh.write(bytes(b ^ 0xFF for b in old))
    if keep_mtime:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size


@pytest.mark.parametrize("offset", [3 << 20, BIG // 2 + 12345, BIG - (5 << 20)])  # between the old samples
def test_a_same_size_edit_anywhere_in_a_large_file_changes_its_key(big_file, own_cache, monkeypatch, offset):
    monkeypatch.setattr(cache, "SETTLED_NS", 0)  # remember the hash at once: the edit must still be seen
    before = cache.content_key({"x": 1}, [big_file])
    assert cache.content_key({"x": 1}, [big_file]) == before
    time.sleep(0.02)
    _edit_in_place(big_file, offset, keep_mtime=True)
    after = cache.content_key({"x": 1}, [big_file])
    assert after != before
    assert cache.file_fingerprint(big_file) == cache.hash_file(big_file)
    _edit_in_place(big_file, offset, keep_mtime=False)  # undo: the original bytes, the original key
    assert cache.content_key({"x": 1}, [big_file]) == before


def test_an_unchanged_file_is_hashed_once_and_a_fresh_one_every_time(tmp_path, own_cache, monkeypatch):
    path = tmp_path / "a.bin"
    path.write_bytes(b"x" * 1000)
    calls = []
    real = cache.hash_file
    monkeypatch.setattr(cache, "hash_file", lambda p: calls.append(p) or real(p))
    cache.file_fingerprint(path)
    cache.file_fingerprint(path)
    assert len(calls) == 2  # changed less than 2 s ago: a second write in the same clock tick could hide
    old = time.time_ns() - 10**10
    os.utime(path, ns=(old, old))
    monkeypatch.setattr(cache, "SETTLED_NS", 0)  # ctime is now; trust it for the test
    digest = cache.file_fingerprint(path)
    assert cache.file_fingerprint(path) == digest and len(calls) == 3
    assert len(list((own_cache / cache.MEMO).iterdir())) == 1


def test_the_remembered_hashes_are_best_effort(tmp_path, own_cache, monkeypatch):
    path = tmp_path / "a.bin"
    path.write_bytes(b"abc")
    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    cache.file_fingerprint(path)
    for memo in (own_cache / cache.MEMO).iterdir():
        memo.write_text("{ half a json")
    assert cache.file_fingerprint(path) == cache.hash_file(path)


def test_an_npz_entry_that_does_not_match_its_checksum_is_rebuilt(own_cache):
    store, calls = cache.Cache("c"), []
    compute = lambda: calls.append(1) or {"x": np.arange(5.0)}  # noqa: E731
    store.npz("e.npz", compute)
    with np.load(store.path("e.npz")) as z:
        claimed = z[cache.CHECKSUM]
    write_npz(store.path("e.npz"), x=np.arange(5.0) + 1, **{cache.CHECKSUM: claimed})  # other bytes, old claim
    with pytest.warns(RobotaskWarning, match=r"e\.npz: cache entry does not match its checksum"):
        np.testing.assert_array_equal(store.npz("e.npz", compute)["x"], np.arange(5.0))
    assert len(calls) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(store.npz("e.npz", compute)["x"], np.arange(5.0))  # the rebuilt entry
    assert len(calls) == 2


def test_a_truncated_npz_entry_is_rebuilt(own_cache):
    store = cache.Cache("c")
    store.npz("e.npz", lambda: {"x": np.arange(1000.0)})
    data = store.path("e.npz").read_bytes()
    store.path("e.npz").write_bytes(data[: len(data) // 2])
    with pytest.warns(UserWarning, match="unreadable cache entry"):
        np.testing.assert_array_equal(store.npz("e.npz", lambda: {"x": np.arange(3.0)})["x"], np.arange(3.0))


def test_an_entry_without_a_checksum_is_not_used(own_cache):
    store = cache.Cache("c")
    write_npz(store.path("old.npz"), x=np.arange(3))
    with pytest.warns(RobotaskWarning, match="does not match its checksum"):
        assert store.load_npz("old.npz") is None


def test_a_corrupted_or_truncated_folder_entry_is_rebuilt(own_cache):
    store, calls = cache.Cache("f"), []

    def build(tmp: Path) -> None:
        calls.append(1)
        (tmp / "data.bin").write_bytes(b"0123456789" * 100)
        (tmp / "done.txt").write_text("ok")

    entry = store.folder("e", build, marker="done.txt")
    (entry / "data.bin").write_bytes(b"0123456789" * 50)  # truncated
    with pytest.warns(RobotaskWarning, match=r"cache entry does not match its checksums"):
        assert store.folder("e", build, marker="done.txt") == entry
    assert (entry / "data.bin").read_bytes() == b"0123456789" * 100 and len(calls) == 2
    with open(entry / "data.bin", "r+b") as fh:  # same size, one byte changed
        fh.seek(500)
        fh.write(b"X")
    with pytest.warns(RobotaskWarning, match=r"does not match its checksums"):
        store.folder("e", build, marker="done.txt")
    assert len(calls) == 3 and not [p for p in store.root.iterdir() if ".stale" in p.name]


KILLED_BUILDER = """import os, signal, sys
from robotask import cache


def build(tmp):
    (tmp / "half.bin").write_bytes(b"x" * 1000)
    os.kill(os.getpid(), signal.SIGKILL)  # a worker lost mid-task


cache.Cache("f").folder(sys.argv[1], build, marker="done.txt")
"""


def test_a_killed_builders_half_built_folder_is_removed_by_the_next_build(own_cache):
    """A process killed while it builds an entry leaves its ``.<name>.*`` folder; the next build of that entry
    (under the same lock) removes it, and leaves another entry's alone."""
    store = cache.Cache("f")
    for name in ("ep", "ep-2"):
        run = subprocess.run([sys.executable, "-c", KILLED_BUILDER, name], capture_output=True)
        assert run.returncode == -signal.SIGKILL, run.stderr
    left = sorted(p.name for p in store.root.iterdir() if p.is_dir())
    assert len(left) == 2 and all(n.startswith((".ep.", ".ep-2.")) for n in left), left
    entry = store.folder("ep", lambda tmp: (tmp / "done.txt").write_text("ok"), marker="done.txt")
    assert (entry / "done.txt").read_text() == "ok"
    dirs = sorted(p.name for p in store.root.iterdir() if p.is_dir())
    assert dirs[0].startswith(".ep-2.") and dirs[1:] == ["ep"], dirs


def _mount(target: Path, options: str) -> None:
    target.mkdir(parents=True, exist_ok=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")


def test_a_read_only_cache_serves_its_entries_and_computes_the_rest(tmp_path, monkeypatch):
    root = tmp_path / "ro"
    _mount(root, "size=1m")
    try:
        monkeypatch.setenv("ROBOTASK_CACHE", str(root))
        store = cache.Cache("c")
        store.npz("kept.npz", lambda: {"x": np.arange(3)})
        store.folder("ep", lambda tmp: (tmp / "done.txt").write_text("ok"), marker="done.txt")
        subprocess.run(["mount", "-o", "remount,ro", str(root)], check=True)
        np.testing.assert_array_equal(store.npz("kept.npz", lambda: {"x": np.zeros(1)})["x"], np.arange(3))
        assert store.folder("ep", lambda tmp: None, marker="done.txt") == root / "c" / "ep"
        with pytest.warns(RobotaskWarning, match=r"cache folder .*ro/c cannot keep new\.npz \(Read-only file "
                                                 r"system\); the result is used but not kept"):
            np.testing.assert_array_equal(store.npz("new.npz", lambda: {"x": np.ones(2)})["x"], np.ones(2))
        with pytest.raises(RobotaskError, match=r"cache folder .*ro/c cannot be written \(Read-only file system\), "
                                                r"and entry ep2 must be built there: .*ROBOTASK_CACHE"):
            store.folder("ep2", lambda tmp: None, marker="done.txt")
    finally:
        subprocess.run(["umount", str(root)], check=False)


def test_a_full_cache_disk_keeps_nothing_half_written(tmp_path, monkeypatch):
    root = tmp_path / "small"
    _mount(root, "size=64k")
    try:
        monkeypatch.setenv("ROBOTASK_CACHE", str(root))
        store = cache.Cache("c")
        with pytest.warns(RobotaskWarning, match=r"cannot keep big\.npz \(the disk holding .* is full"):
            got = store.npz("big.npz", lambda: {"x": np.ones(100_000)})
        assert got["x"].shape == (100_000,)

        def build(tmp: Path) -> None:
            (tmp / "big.bin").write_bytes(b"x" * 200_000)

        with pytest.raises(RobotaskError, match=r"the disk holding the cache folder .* is full while building ep"):
            store.folder("ep", build, marker="big.bin")
        assert sorted(p.name for p in store.root.iterdir() if not p.name.endswith(".lock")) == []
    finally:
        subprocess.run(["umount", str(root)], check=False)


def test_features_of_a_large_annotation_follow_a_same_size_edit(tmp_path, own_cache, monkeypatch):
    """End to end: `robotask features` on an episode whose annotation.hdf5 is over 64 MiB; the hand poses
    are moved in place (same size, mtime put back) and the features change."""
    from robotask.cli import main
    from robotask.episode.files import format as fmt
    from robotask.episode.synthesis.generate import generate_episode

    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    ep = generate_episode(tmp_path / "ep", frames=60, resolution=16, seed=3)
    with h5py.File(ep / fmt.ANNOTATION, "a") as f:  # 65 MiB of extra data, the right hand in the middle
        f.create_dataset("padding_a", data=np.zeros(33 << 20, dtype=np.uint8))
        f.create_dataset(fmt.RIGHT_JOINTS + "_moved", data=f[fmt.RIGHT_JOINTS][()])
        del f[fmt.RIGHT_JOINTS]
        f.move(fmt.RIGHT_JOINTS + "_moved", fmt.RIGHT_JOINTS)
        f.create_dataset("padding_b", data=np.zeros(32 << 20, dtype=np.uint8))
    size = (ep / fmt.ANNOTATION).stat().st_size
    with h5py.File(ep / fmt.ANNOTATION, "r") as f:
        start = f[fmt.RIGHT_JOINTS].id.get_offset()
        end = start + f[fmt.RIGHT_JOINTS].id.get_storage_size()
    old_samples = np.linspace(0, size - (1 << 20), 16).astype(np.int64)  # what the old key read of the file
    assert size > BIG and not any(s < end and start < s + (1 << 20) for s in old_samples)

    def features(out: str) -> np.ndarray:
        assert main(["features", str(ep), "--out", str(tmp_path / out)]) == 0
        with np.load(tmp_path / out / "shared_windows.npz") as z:
            return z[z.files[0]]

    before = features("a")
    st = (ep / fmt.ANNOTATION).stat()
    with h5py.File(ep / fmt.ANNOTATION, "r+") as f:  # move the right hand by 0.25 m, in place
        f[fmt.RIGHT_JOINTS][...] = f[fmt.RIGHT_JOINTS][()] + 0.25
    os.utime(ep / fmt.ANNOTATION, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (ep / fmt.ANNOTATION).stat().st_size == size
    after = features("b")
    assert before.shape == after.shape and not np.array_equal(before, after)
