"""incident-library: build, validate, serve, check. Thin commands over the importer and the app."""

import argparse
import json
import os
import sys
import time
from pathlib import Path

from app.importer import DataError, build, validate


def _report(error: DataError) -> int:
    for problem in error.problems:
        print(f"error: {problem}", file=sys.stderr)
    print(f"{len(error.problems)} problem(s); nothing was written.", file=sys.stderr)
    return 2


def cmd_build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        count = build(Path(args.data), Path(args.db))
    except DataError as error:
        return _report(error)
    print(f"built {args.db}: {count} incidents in {time.perf_counter() - started:.1f} s")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    try:
        count = validate(Path(args.data))
    except DataError as error:
        return _report(error)
    print(f"{args.data}: {count} incidents, all valid")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    db = Path(args.db).resolve()
    if not db.exists():
        print(f"error: no database at {db}; run: incident-library build --db {db}", file=sys.stderr)
        return 2
    os.environ["IL_DATABASE_PATH"] = str(db)
    if args.cors:
        os.environ["IL_CORS_ORIGINS"] = json.dumps(args.cors)
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="warning",
        access_log=False,
    )
    return 0


def cmd_eval_search(args: argparse.Namespace) -> int:
    import tempfile

    from app.evaluation import EvalError, held, load_set, report, run
    from app.store import Store

    try:
        judged = load_set(Path(args.set))
    except EvalError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "eval.db"
        if not args.db:
            try:
                build(Path(args.data), db)
            except DataError as error:
                return _report(error)
        elif not db.exists():
            print(f"error: no database at {db}", file=sys.stderr)
            return 2
        store = Store(db)
        print(f"{args.set}: {len(judged)} judged queries against {store.total} incidents")
        judged, absent = held(store, judged)
        if absent:
            names = ", ".join(sorted({j.expect for j in absent}))
            print(f"left out: {len(absent)} queries name incidents not in this library ({names})")
        print(report(run(store, judged), misses=args.misses))
        store.engine.dispose()
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "check":
        from app.checks.cli import main as check_main

        return check_main(argv[1:])
    parser = argparse.ArgumentParser(prog="incident-library", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p_build = sub.add_parser("build", help="validate data/ and build the SQLite database")
    p_build.add_argument("--data", default="data")
    p_build.add_argument("--db", default="incidents.db")
    p_build.set_defaults(func=cmd_build)
    p_validate = sub.add_parser("validate", help="validate data/ without building")
    p_validate.add_argument("--data", default="data")
    p_validate.set_defaults(func=cmd_validate)
    p_serve = sub.add_parser("serve", help="serve the library (database opened read-only)")
    p_serve.add_argument("--db", default="incidents.db")
    p_serve.add_argument("--host", default="127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000)
    p_serve.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)"
    )
    p_serve.add_argument(
        "--cors",
        nargs="?",
        const="*",
        action="append",
        metavar="ORIGIN",
        help="let browser pages on ORIGIN (default: any) read the API, feeds and exports",
    )
    p_serve.set_defaults(func=cmd_serve)
    p_eval = sub.add_parser(
        "eval-search", help="measure search on judged queries: hit@1, hit@5, MRR, zero results"
    )
    p_eval.add_argument("--set", default="tests/search_eval/dev.yaml")
    p_eval.add_argument("--data", default="data", help="library to build and search")
    p_eval.add_argument("--db", default="", help="search this built database instead")
    p_eval.add_argument("--misses", action="store_true", help="list the queries missed")
    p_eval.set_defaults(func=cmd_eval_search)
    sub.add_parser("check", help="check a Kubernetes snapshot or cluster (see check --help)")
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
