"""The `check` subcommand: read a snapshot or a live cluster, run the checks, print a report.

Exit codes never lie: 0 only when at least one check was evaluated and none found a gap, 1 when
gaps were found, 2 for input that cannot be used (nothing to check included). Whatever the
input, stderr gets at most one line and never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.checks.documents import SnapshotError
from app.checks.output import format_json, format_text, nothing_checked_message
from app.checks.patterns import PatternsError, library_data, load_grounding, load_patterns
from app.checks.report import EXIT_BAD_INPUT, EXIT_CLEAN, EXIT_GAPS, run_checks
from app.checks.snapshot import SNAPSHOT_COMMAND, Snapshot, load_snapshot_files

__all__ = ["EXIT_BAD_INPUT", "EXIT_CLEAN", "EXIT_GAPS", "build_parser", "main"]
PROG = "incident-library check"


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as exit 2 with one line, like the rest of `check`."""

    def error(self, message: str) -> None:  # type: ignore[override]
        _fail(message)
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = _Parser(
        prog=prog,
        description="Check a Kubernetes cluster for the gaps behind public incidents (read-only).",
        epilog=f"Make a snapshot with:\n  {SNAPSHOT_COMMAND}\n\n"
        "Exit codes: 0 no gap in the checks that could be evaluated (at least one), "
        "1 gaps found, 2 input that cannot be used or nothing that could be checked.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_argument_group("source (snapshot files, or a live cluster)")
    source.add_argument(
        "--snapshot",
        action="append",
        metavar="PATH",
        help="JSON or YAML from `kubectl get ... -o json|yaml`, a directory of manifests, or - "
        "for standard input (repeatable; all must come from one cluster)",
    )
    source.add_argument("--context", help="kubeconfig context of a live cluster to read")
    source.add_argument("--kubeconfig", help="kubeconfig file of a live cluster to read")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="read patterns.yaml and incidents/ from DIR instead of those shipped with the package",
    )
    parser.add_argument("--lang", choices=("en", "ko"), default="en")
    return parser


def main(argv: list[str]) -> int:
    """Run `check`; 0 no gap, 1 gaps found, 2 bad input (one line on stderr)."""
    try:
        return _run(argv)
    except SystemExit as stop:  # argparse: --help (0) or a usage error (2, already printed)
        return EXIT_CLEAN if stop.code in (0, None) else EXIT_BAD_INPUT
    except RecursionError:
        _fail("the snapshot is nested too deeply to read")
    except Exception as error:  # the last line of defence: never a traceback, never exit 1
        _fail(f"internal error ({type(error).__name__}); this is a bug, please report it")
    return EXIT_BAD_INPUT


def _run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    data = args.data if args.data is not None else library_data()
    try:
        patterns = load_patterns(data)
        grounding = load_grounding(data)
        if not any(check.kind == "snapshot" for p in patterns for check in p.checks):
            raise PatternsError(f"{data}: no patterns.yaml with snapshot checks in this directory")
        snapshot = _read_snapshot(args)
    except (SnapshotError, PatternsError) as error:
        _fail(str(error))
        return EXIT_BAD_INPUT
    report = run_checks(snapshot, patterns, grounding)
    if args.format == "json":
        sys.stdout.write(format_json(report))
    else:
        sys.stdout.write(format_text(report, args.lang))
    if report.exit_code == EXIT_BAD_INPUT:
        _fail(nothing_checked_message())
    return report.exit_code


def _fail(message: str) -> None:
    line = " ".join(str(message).split())  # one line, whatever the message held
    print(f"{PROG}: {line}", file=sys.stderr)


def _read_snapshot(args: argparse.Namespace) -> Snapshot:
    if args.snapshot and (args.context or args.kubeconfig):
        raise SnapshotError("give either --snapshot or --context/--kubeconfig, not both")
    if args.snapshot:
        return load_snapshot_files(args.snapshot)
    from app.checks.live import snapshot_from_cluster

    return snapshot_from_cluster(args.context, args.kubeconfig)
