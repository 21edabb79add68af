"""incident-library: build, validate, serve, check. Thin commands over the importer and the app."""

import argparse
import json
import os
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from app.config import bundled
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


SERVE_OPTIONS = (
    "database_path", "host", "port", "workers", "root_path", "forwarded_allow_ips",
    "log_format", "log_level", "access_log", "access_log_probes",
)  # fmt: skip


def cmd_serve(args: argparse.Namespace) -> int:
    import logging
    import logging.config

    import uvicorn
    from pydantic import ValidationError

    from app.config import Settings

    given = {name: getattr(args, name) for name in SERVE_OPTIONS if getattr(args, name) is not None}
    try:
        settings = Settings(**given)
    except ValidationError as error:
        first = error.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else "setting"
        print(f"error: {name}: {first['msg']}", file=sys.stderr)
        return 2
    db = settings.database_path.resolve()
    try:
        incidents, build_id = _describe_database(db)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    workers = settings.workers or os.cpu_count() or 1
    # The workers build their Settings from the environment: hand every option on that way.
    for name in SERVE_OPTIONS:
        value = db if name == "database_path" else getattr(settings, name)
        os.environ[f"IL_{name.upper()}"] = str(value)
    if args.cors:
        os.environ["IL_CORS_ORIGINS"] = json.dumps(args.cors)
    config = log_config(settings.log_format, settings.log_level)
    logging.config.dictConfig(config)
    made = _scratch_dirs(settings.page_cache_dir)
    url = f"http://{settings.host}:{settings.port}{settings.root_path}/"
    logging.getLogger("incident_library").info(
        "Incident Library at %s · database %s: %d incidents (build %s) · %d worker(s)",
        url, db, incidents, build_id, workers,
        extra={
            "fields": ("url", "database", "incidents", "build_id", "workers"),
            "url": url, "database": str(db), "incidents": incidents, "build_id": build_id,
            "workers": workers,
        },
    )  # fmt: skip
    # uvicorn re-raises SIGTERM once it has shut down gracefully; as the default action that
    # would end the process before the `finally` below removes the directories made above.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        uvicorn.run(
            "app.main:create_app",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=workers,
            log_config=config,
            log_level="warning",
            access_log=False,  # ours (app.observability) carries the request id
            proxy_headers=False,  # app.proxy believes only IL_FORWARDED_ALLOW_IPS
        )
    finally:
        for path in made:
            shutil.rmtree(path, ignore_errors=True)
    return 0


def _exit_on_sigterm(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def log_config(log_format: str, level: str) -> dict[str, object]:
    """The logging config of app.observability, imported without importing prometheus_client."""
    from app.logs import log_config as config

    return config(log_format, level)


def _describe_database(db: Path) -> tuple[int, str]:
    """The incident count and build id of a built library.

    :raises ValueError: when there is no database there, or it is not a library.
    """
    if not db.exists():
        raise ValueError(f"no database at {db}; run: incident-library build --db {db}")
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            count = conn.execute("SELECT COUNT(*) FROM incident").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise ValueError(f"{db} is not an Incident Library database ({error})") from None
    return int(count), str(meta.get("build_id", "unknown"))


def _scratch_dirs(page_cache_dir: Path | None) -> list[Path]:
    """The workers' shared directories; returns the ones made here (removed at exit).

    PROMETHEUS_MULTIPROC_DIR: prometheus-client's multiprocess mode needs a directory no earlier
    run has written to, so a given one is emptied. IL_PAGE_CACHE_DIR: rendered pages the workers
    share (app.pagecache). Either one not given is a new temporary directory.
    """
    made = []
    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if given:
        metrics = Path(given)
        metrics.mkdir(parents=True, exist_ok=True)
        for stale in metrics.glob("*.db"):
            stale.unlink()
    else:
        metrics = Path(tempfile.mkdtemp(prefix="incident-library-metrics-"))
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics)
        made.append(metrics)
    if page_cache_dir is None:
        pages = Path(tempfile.mkdtemp(prefix="incident-library-pages-"))
        os.environ["IL_PAGE_CACHE_DIR"] = str(pages)
        made.append(pages)
    return made


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
    data_default = os.environ.get("IL_DATA_DIR") or str(bundled("data"))
    db_default = os.environ.get("IL_DATABASE_PATH") or "incidents.db"
    p_build = sub.add_parser("build", help="validate data/ and build the SQLite database")
    p_build.add_argument("--data", default=data_default, help="default: the bundled library")
    p_build.add_argument("--db", default=db_default)
    p_build.set_defaults(func=cmd_build)
    p_validate = sub.add_parser("validate", help="validate data/ without building")
    p_validate.add_argument("--data", default=data_default, help="default: the bundled library")
    p_validate.set_defaults(func=cmd_validate)
    p_serve = sub.add_parser(
        "serve",
        help="serve the library (database opened read-only)",
        description="Every option can also be set as an IL_* environment variable (README).",
    )
    p_serve.add_argument("--db", dest="database_path", help="IL_DATABASE_PATH (incidents.db)")
    p_serve.add_argument("--host", help="IL_HOST (127.0.0.1)")
    p_serve.add_argument("--port", type=int, help="IL_PORT (8000)")
    p_serve.add_argument("--workers", type=int, help="IL_WORKERS (0: one process per core)")
    p_serve.add_argument("--root-path", help="IL_ROOT_PATH: the proxy's path prefix, e.g. /library")
    p_serve.add_argument(
        "--forwarded-allow-ips",
        help="IL_FORWARDED_ALLOW_IPS: proxies (addresses, networks or *) whose X-Forwarded-For,"
        " -Proto and -Host are believed (none)",
    )
    p_serve.add_argument("--log-format", choices=("plain", "json"), help="IL_LOG_FORMAT (plain)")
    p_serve.add_argument(
        "--log-level", choices=("debug", "info", "warning", "error"), help="IL_LOG_LEVEL (info)"
    )
    p_serve.add_argument(
        "--no-access-log", dest="access_log", action="store_const", const=False,
        help="IL_ACCESS_LOG=false: no line per request",
    )  # fmt: skip
    p_serve.add_argument(
        "--access-log-probes", action="store_const", const=True,
        help="IL_ACCESS_LOG_PROBES=true: also log /healthz, /readyz and /metrics",
    )  # fmt: skip
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
