"""``robotask suite``, registered at the wing level: the one-episode suite (:mod:`.suite.cli`) and, with
``--collection``, the suite over a collection of episodes (:mod:`.unseen.cli`, imported only when used).

A module above both sub-packages, so that ``suite`` never imports ``unseen`` (which runs the suite).
"""

from __future__ import annotations

import argparse
from typing import Any

from .suite.cli import register_cli as register_suite
from .suite.fit import SuiteConfig


def register_cli(subparsers: Any) -> None:
    """Add ``robotask suite``."""
    register_suite(subparsers, on_collection=_on_collection)


def _on_collection(args: argparse.Namespace, cfg: SuiteConfig) -> int:
    """``robotask suite --collection``."""
    from .unseen.cli import run_suite_on_collection

    return run_suite_on_collection(args, cfg)
