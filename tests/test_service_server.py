"""`incident-library serve` as a real server: two workers whose metrics add up, JSON log lines,
the start-up line, and the metrics directory it creates and removes."""

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.servers import Serve, get
from tests.test_service import sample

BATCH = 24


def pids_answering(log: str, field: str, value: str) -> set[int]:
    """The worker processes whose access lines have this value in this field (route, query)."""
    lines = [json.loads(line) for line in log.splitlines()]
    return {
        line["pid"]
        for line in lines
        if line["logger"] == "incident_library.access" and line.get(field) == value
    }


def test_two_workers_count_every_request_once_and_log_json_lines(
    library_db: Path, tmp_path: Path
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    server = Serve(
        library_db, "--workers", "2", "--log-format", "json",
        log=tmp_path / "serve.log", env={"TMPDIR": str(scratch)},
    ).ready()  # fmt: skip
    try:
        made = sorted(p.name for p in scratch.iterdir())
        assert [name.rsplit("-", 1)[0] for name in made] == [
            "incident-library-metrics",
            "incident-library-pages",
        ]
        with ThreadPoolExecutor(8) as pool:
            # One worker may take a whole batch on a busy machine: ask until both have answered.
            answers: list[tuple[int, dict[str, str], bytes]] = []
            for _ in range(25):
                answers += pool.map(lambda _: get(server.base + "/incidents/IL-0129"), range(BATCH))
                if len(pids_answering(server.log(), "route", "/incidents/{slug}")) == 2:
                    break
            page = server.base + "/incidents?cause=capacity-limit"
            first = get(page)
            again: list[tuple[int, dict[str, str], bytes]] = []
            # Cached pages are quick, so one worker may take a whole batch: ask until both have.
            for _ in range(25):
                again += pool.map(lambda _: get(page), range(16))
                if len(pids_answering(server.log(), "query", "cause=capacity-limit")) == 2:
                    break
        for _ in range(3):
            get(server.base + "/healthz")
        metrics = get(server.base + "/metrics")[2].decode()
        ready = json.loads(get(server.base + "/readyz")[2])
    finally:
        server.stop()
    assert {status for status, _, _ in answers + again} == {200}
    # The list page was rendered once, by one worker; the other read it from the shared cache.
    assert {body for _, _, body in again} == {first[2]}
    pages = {
        result: sample(metrics, "il_cache_lookups_total", cache="page", result=result)
        for result in ("hit", "shared", "miss")
    }
    assert len(pids_answering(server.log(), "query", "cause=capacity-limit")) == 2
    assert pages["miss"] == 1 and pages["shared"] >= 1
    assert pages["hit"] + pages["shared"] == len(again)
    route = {"route": "/incidents/{slug}", "status": "200"}
    assert sample(metrics, "il_http_requests_total", **route) == len(answers)
    lines = [json.loads(line) for line in server.log().splitlines()]
    access = [line for line in lines if line["logger"] == "incident_library.access"]
    served = [line for line in access if line["route"] == "/incidents/{slug}"]
    assert len(served) == len(answers)
    assert len({line["pid"] for line in served}) == 2, "both workers should have answered"
    assert {line["request_id"] for line in served} == {h["x-request-id"] for _, h, _ in answers}
    assert not [line for line in access if line["path"] in ("/healthz", "/readyz", "/metrics")]
    # Each live worker reports the database it serves.
    loaded = [s for s in metrics.splitlines() if s.startswith("il_incidents_loaded{")]
    assert len(loaded) == 2 and all(s.endswith(f" {ready['incidents']}.0") for s in loaded)
    start = lines[0]
    assert start["url"] == f"http://127.0.0.1:{server.port}/"
    assert (start["database"], start["incidents"]) == (str(library_db), ready["incidents"])
    assert start["build_id"] == ready["build_id"] and start["workers"] == 2
    assert list(scratch.iterdir()) == [], "the directories it made are removed at exit"


def test_plain_log_has_a_start_up_line_and_one_line_per_request(
    library_db: Path, tmp_path: Path
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    server = Serve(
        library_db, "--workers", "1", "--root-path", "/library/",
        log=tmp_path / "log", env={"TMPDIR": str(scratch)},
    ).ready()  # fmt: skip
    try:
        assert len(list(scratch.iterdir())) == 2
        _, headers, _ = get(server.base + "/library/incidents?cause=capacity-limit")
    finally:
        server.stop()
    assert list(scratch.iterdir()) == [], "one process too removes what it made"
    first, *rest = server.log().splitlines()
    assert (
        f"Incident Library at http://127.0.0.1:{server.port}/library/ · database {library_db}"
        in first
    )
    assert [line for line in rest if "GET /library/incidents?cause=capacity-limit" in line] == [
        line for line in rest if line.endswith(f"rid={headers['x-request-id']}")
    ]


def test_serve_refuses_bad_settings_with_one_line(tmp_path: Path, library_db: Path) -> None:
    for options, message in (
        (
            ["--root-path", "library"],
            "error: root_path: Value error, 'library' is not a path prefix like /library",
        ),
        (["--db", str(tmp_path / "none.db")], f"error: no database at {tmp_path / 'none.db'}"),
    ):
        server = Serve(library_db, *options, log=tmp_path / "log")
        assert server.process.wait(timeout=30) == 2
        server.stop()
        assert server.log().strip().splitlines()[-1].startswith(message)
