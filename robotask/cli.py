"""``robotask``: the study's command line. Bad input prints one clear message (exit 2)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import threading
import time

from .errors import (
    TERMINATED_EXIT,
    Parser,
    RobotaskError,
    Terminated,
    WarningLog,
    quiet_after_interrupt,
    sigterm_as_interrupt,
)
from .parameters import Range, merge

# Subcommand -> module that adds it through ``register_cli(subparsers)``. Only the module of the
# command being run is imported, so `robotask run` does not pay for importing torch.
COMMANDS = {
    "run": "robotask.book.runner",
    "extract": "robotask.retrieval.rlbench.extraction",
    "retrieval": "robotask.retrieval.protocol.study",
    "synth": "robotask.episode.synthesis.generate",
    "synth-collection": "robotask.episode.synthesis.varied",
    "features": "robotask.episode.features.cli",
    "suite": "robotask.episode.cli",
    "score": "robotask.episode.published.cli",
}


def parameter_ranges() -> dict[str, Range]:
    """The allowed range of every numeric notebook parameter: each study's table, merged.

    The book wing's runner checks values against these and imports no study; this entry point (and
    a test or notebook that calls the runner itself) hands them to it.
    """
    from .episode import parameters as episode
    from .retrieval import parameters as retrieval

    return merge(retrieval.RANGES, episode.RANGES)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand, or with ``only`` when it names one."""
    parser = Parser(prog="robotask", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="{" + ",".join(COMMANDS) + "}")
    modules = [COMMANDS[only]] if only in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        module = importlib.import_module(name)
        if name == COMMANDS["run"]:  # the runner checks the studies' parameters, which it does not import
            module.register_cli(sub, parameter_ranges())
        else:
            module.register_cli(sub)
    return parser


def end_past_stuck_threads(code: int, wait: float = 5.0) -> None:
    """After Ctrl-C in the command: give the other non-daemon threads ``wait`` seconds, then end the process
    with ``code`` even if one still waits. Python joins such threads at exit, and a task pool's manager
    thread whose worker was ended in the middle of sending a result reads its pipe forever: the command
    printed its last line and hung."""
    others = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    deadline = time.monotonic() + wait
    for thread in others:
        thread.join(max(0.0, deadline - time.monotonic()))
    if any(thread.is_alive() for thread in others):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit code (as the command, ``argv`` None, it may end the process itself after
    Ctrl-C: :func:`end_past_stuck_threads`)."""
    command = argv is None
    argv = sys.argv[1:] if argv is None else argv
    try:
        with sigterm_as_interrupt():  # SIGTERM is handled as Ctrl-C is, with its own exit code
            args = build_parser(argv[0] if argv else None).parse_args(argv)  # imports: Ctrl-C may come here too
            with WarningLog():  # each distinct warning once, with its count, at the end of the run
                return int(args.func(args) or 0)
    except RobotaskError as exc:
        print(f"robotask: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`, which closed early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt as exc:
        quiet_after_interrupt()
        code = TERMINATED_EXIT if isinstance(exc, Terminated) else 130
        print(f"robotask: {'terminated (SIGTERM)' if code == TERMINATED_EXIT else 'interrupted'}; files already "
              "written are complete", file=sys.stderr)
        if command:
            end_past_stuck_threads(code)
        return code


if __name__ == "__main__":
    sys.exit(main())
