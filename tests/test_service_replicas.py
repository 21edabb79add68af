"""Three replicas behind nginx, each with its own read-only copy of the database: a rebuilt
database rolled out to one replica after another while a bounded load runs, no request failing."""

import json
import os
import shutil
import threading
import time
from collections import Counter
from pathlib import Path

from app.importer import build
from tests.servers import Nginx, Serve, get

URLS = [
    "/incidents",
    "/incidents?cause=capacity-limit",
    "/incidents?q=etcd",
    "/incidents/IL-0006",
    "/api/incidents?cause=config-change",
    "/incidents.atom",
    "/graph",
    "/api/incidents",
]
MAX_SECONDS = 90
MAX_REQUESTS = 20_000


class Load:
    """A few threads requesting URLS through the proxy until stopped (bounded in time and count)."""

    def __init__(self, base: str, threads: int = 4) -> None:
        self.base = base
        self.results: Counter[int | str] = Counter()
        self.totals: list[int] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._deadline = time.monotonic() + MAX_SECONDS
        self._threads = [threading.Thread(target=self._run, args=(i,)) for i in range(threads)]
        for thread in self._threads:
            thread.start()

    def _run(self, offset: int) -> None:
        n = offset
        while not self._stop.is_set() and time.monotonic() < self._deadline:
            with self._lock:
                if sum(self.results.values()) >= MAX_REQUESTS:
                    return
            url = URLS[n % len(URLS)]
            n += 1
            try:
                status, _, body = get(self.base + url)
            except OSError as error:
                status = f"{type(error).__name__}"
            with self._lock:
                self.results[status] += 1
                if url == "/api/incidents" and status == 200:
                    self.totals.append(json.loads(body)["total"])

    def stop(self) -> Counter[int | str]:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)
        return self.results


def roll_out(new: Path, replica_db: Path) -> None:
    """Copy beside the served file, then rename over it: a replica sees the old or the new."""
    staged = replica_db.with_name(f".{replica_db.name}.new")
    shutil.copyfile(new, staged)
    os.chmod(staged, 0o444)  # served read-only
    os.replace(staged, replica_db)


def ready(base: str) -> dict[str, object]:
    status, _, body = get(base + "/readyz")
    assert status == 200
    result: dict[str, object] = json.loads(body)
    return result


def test_rolling_a_rebuilt_database_through_three_replicas_fails_no_request(
    small_data: Path, tmp_path: Path
) -> None:
    first = tmp_path / "build-1.db"
    old_count = build(small_data, first)
    replicas: list[Serve] = []
    dbs = []
    nginx = None
    try:
        for i in range(3):
            folder = tmp_path / f"replica-{i}"
            folder.mkdir()
            roll_out(first, folder / "incidents.db")
            dbs.append(folder / "incidents.db")
            replicas.append(Serve(folder / "incidents.db", "--workers", "1", log=folder / "log"))
        for replica in replicas:
            replica.ready()
        old_build = ready(replicas[0].base)["build_id"]
        upstream = " ".join(f"server 127.0.0.1:{r.port};" for r in replicas)
        nginx = Nginx(
            tmp_path / "nginx",
            f"upstream library {{ {upstream} keepalive 16; }}"
            " server { LISTEN location / { proxy_pass http://library;"
            ' proxy_http_version 1.1; proxy_set_header Connection ""; } }',
        )
        load = Load(nginx.base)
        time.sleep(1)
        # The data changes: one more incident; build once, roll out replica by replica.
        extra = (small_data / "incidents" / "IL-0006.yaml").read_text()
        (small_data / "incidents" / "IL-9006.yaml").write_text(extra.replace("IL-0006", "IL-9006"))
        second = tmp_path / "build-2.db"
        new_count = build(small_data, second)
        new_build = None
        for replica, db in zip(replicas, dbs, strict=True):
            roll_out(second, db)
            deadline = time.monotonic() + 30
            while (now := ready(replica.base))["build_id"] == old_build:
                assert time.monotonic() < deadline, "the replica did not pick up the new file"
                time.sleep(0.1)
            new_build = now["build_id"]
            time.sleep(0.5)  # the load keeps running on a mix of old and new replicas
        time.sleep(1)
        results = load.stop()
        after = [ready(r.base) for r in replicas]
    finally:
        if nginx is not None:
            nginx.stop()
        for replica in replicas:
            replica.stop()
    assert new_count == old_count + 1
    assert set(results) == {200}, f"failed requests: {results}"
    assert results[200] > 100
    assert [(a["build_id"], a["incidents"]) for a in after] == [(new_build, new_count)] * 3
    assert load.totals[0] == old_count and load.totals[-1] == new_count
