"""``robotask``: the study's command line. Bad input prints one clear message (exit 2)."""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import RobotaskError

# Modules that add a subcommand through ``register_cli(subparsers)``.
COMMAND_MODULES = (
    "robotask.runner",
    "robotask.extraction",
    "robotask.protocol",
    "robotask.episode.synth",
    "robotask.episode.features",
    "robotask.episode.suite",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(prog="robotask", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a real import error inside the module must surface
                raise
            continue
        register = getattr(module, "register_cli", None)
        if register:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except RobotaskError as exc:
        print(f"robotask: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("robotask: interrupted; files already written are complete", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
