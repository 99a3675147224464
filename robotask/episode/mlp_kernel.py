"""The compiled step of the MLP's input block (``mlp_kernel.c``), built on first use and called with ctypes.

Why C: after its two matrix products, a training step of the input block is a dozen passes over
(128 × d) arrays (gradients of W, γ and β, then AdamW on each), and on the temporal-order task
(d = 25,638) those passes cost more than the products. One C loop does them in a single pass; a step
of that task went from ~38 to ~30 ms. Nothing else in the suite needs a compiler.

The shared library is compiled with the C compiler ``$CC`` (default ``cc``) into ``<cache>/native/``
under a name that hashes the source, the compiler, the flags and the machine's system and architecture,
so it is built once per kind of machine and rebuilt when any of them changes. The flags keep the
arithmetic IEEE (no fast-math, no contraction into fused multiply-adds), so the result does not depend
on the vector unit the CPU has (on x86-64 Linux, ``target_clones`` picks AVX-512, AVX2 or plain SSE2 at
load time; elsewhere the compiler's default is used).
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import platform
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .. import paths
from ..errors import RobotaskError

if TYPE_CHECKING:  # annotations only
    import torch

SOURCE = Path(__file__).with_name("mlp_kernel.c")
FLAGS = ("-O3", "-fPIC", "-shared", "-ffp-contract=off", "-fno-math-errno")
LANES = 16  # as in mlp_kernel.c: the partial sums of W β per row
_POINTERS = 13


def compiler() -> list[str]:
    """The C compiler command (``$CC`` split as a shell would, e.g. ``ccache gcc``; default ``cc``) with its
    program's full path; RobotaskError naming what to install when there is none."""
    words = shlex.split(os.environ.get("CC", "")) or ["cc"]
    found = shutil.which(words[0])
    if found is None:
        raise RobotaskError(f"the MLP head compiles a small C kernel on first use and needs a C compiler: "
                            f"'{words[0]}' (from $CC, default cc) is not on PATH; install gcc (Debian: apt-get "
                            "install gcc) or set CC to a C compiler")
    return [found, *words[1:]]


def library_path(cc: list[str]) -> Path:
    """Where the library compiled from this source by the command ``cc`` with :data:`FLAGS` lives (the key
    also holds the system and the processor architecture: a cache shared by machines holds one per kind)."""
    parts = [SOURCE.read_text(), *cc, *FLAGS, platform.system(), platform.machine()]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    return paths.cache_dir() / "native" / f"mlp_kernel-{key}.so"


def build(cc: list[str], target: Path) -> None:
    """Compile the kernel into ``target`` (atomically: processes building at once do not collide)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as tmp:
            out = Path(tmp) / target.name
            run = subprocess.run([*cc, *FLAGS, str(SOURCE), "-o", str(out), "-lm"], capture_output=True, text=True)
            if run.returncode != 0:
                raise RobotaskError(f"compiling {SOURCE.name} with {' '.join(cc)} failed (exit {run.returncode}): "
                                    f"{run.stderr.strip()[-800:]}")
            os.replace(out, target)
    except OSError as exc:
        raise RobotaskError(f"cannot write the compiled MLP kernel to {target.parent}: {exc.strerror or exc}; "
                            "set ROBOTASK_CACHE to a writable folder") from None


@functools.cache
def kernel() -> "ctypes._CFuncPtr":
    """``input_block_step`` of the compiled library (compiled first if needed, again if unloadable)."""
    cc = compiler()
    target = library_path(cc)
    if not target.is_file():
        build(cc, target)
    try:
        library = ctypes.CDLL(str(target))
    except OSError:  # damaged in the cache (say, a disk that filled up): build it once more
        build(cc, target)
        try:
            library = ctypes.CDLL(str(target))
        except OSError as exc:
            raise RobotaskError(f"the compiled MLP kernel {target} cannot be loaded: {exc}") from None
    fn = library.input_block_step
    fn.argtypes = [ctypes.c_int64] * 2 + [ctypes.c_void_p] * _POINTERS + [ctypes.c_float] * 6
    fn.restype = None
    return fn


def input_block_step(arrays: "list[torch.Tensor]", hyper: tuple[float, ...]) -> None:
    """Run the kernel on ``arrays`` = [W, G, M, V, F, γ, β, m_γ, v_γ, m_β, v_β, s, acc] (float32,
    contiguous; the first five h × d, the next six d, then s (h) and acc (h × LANES)) with ``hyper`` =
    (decay, β₁, β₂, step size, √(1 − β₂ᵗ), ε)."""
    import torch

    h, d = arrays[0].shape
    shapes = [(h, d)] * 5 + [(d,)] * 6 + [(h,), (h, LANES)]
    for a, shape in zip(arrays, shapes, strict=True):
        if a.dtype != torch.float32 or tuple(a.shape) != shape or not a.is_contiguous():
            raise ValueError(f"input_block_step: expected a contiguous float32 array of shape {shape}, "
                             f"got {a.dtype} {tuple(a.shape)}")
    kernel()(h, d, *(a.data_ptr() for a in arrays), *hyper)
