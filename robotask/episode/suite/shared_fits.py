"""Fits that two tasks share (``TaskSpec.fit_key``), kept in the cache for other processes.

Cross-modal retrieval and modality reconstruction fit the same heads, motion → visual, on the same inputs,
targets and split. ``run_suite`` computes such a fit once per group of tasks (in memory); the task pages are
separate kernels, one task each, so with ``SuiteConfig(shared_fits=True)`` the fit is kept in
``paths.cache_dir()/fits`` and the second page reads the first one's: its test outputs, training record and
the bytes of the model files it wrote, so every file of both pages is what its own fit would have written.

The entry's key holds the task's ``fit_key`` and head, the bytes of every input the heads read (the z-scored
inputs, the targets, the split's rows, the train mean and std, a residual target's last poses), the
protocol, the run settings and the source of the fitting code and of this module: another episode, schedule,
protocol, epoch count or code change is another entry. Two pages side by side build an entry once
(``robotask.cache``'s lock: the second waits for the first and reads its result).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from ...cache import Cache, arrays_checksum, content_key
from ...io import atomic_path
from ...sources import source_closure
from ..tasks.builders import TaskData
from ..tasks.protocols import Protocol
from .fit import HeadOutput, SuiteConfig

FIT_CACHE = Cache("fits")
FILE_PREFIX = "file:"  # the entry's members that hold a model file's bytes, by path under the model folder
READ_EXTRA = ("train_core", "x_mean", "x_std", "last_pose", "n_future")  # the data.extra items heads read


def fit_entry(fit_key: str, head: str, data: TaskData, z: np.ndarray, protocol: Protocol,
              cfg: SuiteConfig) -> str:
    """The cache entry name of a shared fit: its key over everything the head's output depends on."""
    arrays = {"z": z, "y": data.y, "train": data.train, "test": data.test}
    if data.val is not None:
        arrays["val"] = data.val
    arrays.update({f"extra_{k}": np.asarray(data.extra[k]) for k in READ_EXTRA if k in data.extra})
    params = {"fit_key": fit_key, "head": head, "class_names": list(data.class_names),
              "protocol": asdict(protocol), "config": asdict(cfg), "arrays": arrays_checksum(arrays)}
    return f"{fit_key}-{head}-{content_key(params, source_closure(__name__))}.npz"


def shared_fit(entry: str, run: Callable[[], HeadOutput]) -> HeadOutput:
    """The head's output from cache entry ``entry``, running ``run()`` and keeping its output first when
    the entry is missing. The returned output writes the model files the run wrote, byte for byte; its
    training record has plain numbers where the run's had NumPy scalars (the same values, the same JSON)."""
    def compute() -> dict[str, Any]:
        output = run()
        record = json.dumps([output.train_final, output.history], default=_plain)
        arrays: dict[str, Any] = {"pred": output.pred, "record": np.array(record)}
        if output.proba is not None:
            arrays["proba"] = output.proba
        if output.save is not None:
            with tempfile.TemporaryDirectory() as tmp:
                output.save(Path(tmp))
                for item in sorted(Path(tmp).rglob("*")):
                    if item.is_file():
                        name = FILE_PREFIX + item.relative_to(tmp).as_posix()
                        arrays[name] = np.frombuffer(item.read_bytes(), dtype=np.uint8)
        return arrays

    arrays = FIT_CACHE.npz(entry, compute)
    train_final, history = json.loads(str(arrays["record"]))
    files = {k[len(FILE_PREFIX):]: v for k, v in arrays.items() if k.startswith(FILE_PREFIX)}
    return HeadOutput(arrays["pred"], arrays.get("proba"), train_final, history,
                      _file_writer(files) if files else None)


def _plain(value: Any) -> Any:
    """A NumPy scalar of a training record as the Python number ``robotask.io.write_json`` writes."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"a training record holds {type(value).__name__}; expected numbers")


def _file_writer(files: dict[str, np.ndarray]) -> Callable[[Path], None]:
    """What writes the kept model files (path under the model folder → bytes) into a model folder."""
    def save(out: Path) -> None:
        for name, data in files.items():
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(target, size=data.nbytes) as tmp:
                tmp.write_bytes(data.tobytes())
    return save
