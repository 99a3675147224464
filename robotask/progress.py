"""Progress bars for long work, off when ``ROBOTASK_PROGRESS=0``.

Interactive runs and the CLI show tqdm bars. The notebook runner sets ``ROBOTASK_PROGRESS=0`` for
the kernels it starts: a progress widget in an executed notebook is noise in the static book and
would make the page load widget JavaScript from the network.
"""

from __future__ import annotations

import os
from typing import Any


def enabled() -> bool:
    """Whether progress bars are shown (``ROBOTASK_PROGRESS`` is not ``0``)."""
    return os.environ.get("ROBOTASK_PROGRESS", "1") != "0"


def tqdm(*args: Any, **kwargs: Any) -> Any:
    """``tqdm.auto.tqdm`` with ``disable`` defaulting to :func:`enabled`."""
    from tqdm.auto import tqdm as _tqdm

    kwargs.setdefault("disable", not enabled())
    return _tqdm(*args, **kwargs)
