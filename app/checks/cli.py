"""The `check` subcommand: read a snapshot or a live cluster, run the checks, print a report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.checks.output import format_json, format_text
from app.checks.patterns import PatternsError, load_grounding, load_patterns
from app.checks.report import run_checks
from app.checks.snapshot import SNAPSHOT_COMMAND, Snapshot, SnapshotError, load_snapshot_files

EXIT_CLEAN, EXIT_GAPS, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as exit 2 with one line, like the rest of `check`."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"incident-library check: {message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser(prog: str = "incident-library check") -> argparse.ArgumentParser:
    parser = _Parser(
        prog=prog,
        description="Check a Kubernetes cluster for the gaps behind public incidents (read-only).",
        epilog=f"Make a snapshot with:\n  {SNAPSHOT_COMMAND}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_argument_group("source (a snapshot file, or a live cluster)")
    source.add_argument(
        "--snapshot",
        action="append",
        metavar="FILE",
        help="JSON from `kubectl get ... -o json` (repeatable; - reads standard input)",
    )
    source.add_argument("--context", help="kubeconfig context of a live cluster to read")
    source.add_argument("--kubeconfig", help="kubeconfig file of a live cluster to read")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--data", default="data", type=Path, metavar="DIR")
    parser.add_argument("--lang", choices=("en", "ko"), default="en")
    return parser


def main(argv: list[str]) -> int:
    """Run `check`; 0 no gap, 1 gaps found, 2 bad input (one line on stderr)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    try:
        snapshot = _read_snapshot(args)
        patterns = load_patterns(args.data)
        grounding = load_grounding(args.data)
    except (SnapshotError, PatternsError) as error:
        print(f"incident-library check: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    report = run_checks(snapshot, patterns, grounding)
    if args.format == "json":
        sys.stdout.write(format_json(report))
    else:
        sys.stdout.write(format_text(report, args.lang))
    return EXIT_GAPS if report.has_gaps else EXIT_CLEAN


def _read_snapshot(args: argparse.Namespace) -> Snapshot:
    if args.snapshot and (args.context or args.kubeconfig):
        raise SnapshotError("give either --snapshot or --context/--kubeconfig, not both")
    if args.snapshot:
        return load_snapshot_files(args.snapshot)
    from app.checks.live import snapshot_from_cluster

    return snapshot_from_cluster(args.context, args.kubeconfig)
