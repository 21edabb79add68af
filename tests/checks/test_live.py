"""The live path: the real kubernetes client against a local server replaying a recording."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from app.checks import live, run_checks
from app.checks.documents import SnapshotError
from app.checks.patterns import load_grounding, load_patterns
from app.checks.report import Report
from app.checks.snapshot import RESOURCES, Obj, load_snapshot_files

from .conftest import SNAPSHOTS

RECORDING = SNAPSHOTS / "cluster-with-gaps.json"
PATHS = {resource.path: resource.kind for resource in RESOURCES}


class Cluster:
    """What the fake API server answers: objects by kind, and kinds it refuses."""

    def __init__(self, snapshot_file: Path, forbidden: frozenset[str] = frozenset()) -> None:
        snapshot = load_snapshot_files([snapshot_file])
        self.items = {kind: list(snapshot.of(kind)) for kind in snapshot.kinds}
        self.forbidden = forbidden
        self.requests: list[str] = []


def handler_for(cluster: Cluster) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        wbufsize = 1 << 16  # headers and body in one write: no 40 ms delayed-ACK stall

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            url = urlsplit(self.path)
            cluster.requests.append(url.path)
            kind = PATHS.get(url.path)
            if kind is None:
                return self.reply(404, {"kind": "Status", "code": 404, "reason": "NotFound"})
            if kind in cluster.forbidden:
                return self.reply(403, {"kind": "Status", "code": 403, "reason": "Forbidden"})
            query = parse_qs(url.query)
            limit = int(query.get("limit", ["500"])[0])
            start = int(query.get("continue", ["0"])[0])
            items = cluster.items.get(kind, [])
            page = [{k: v for k, v in item.items() if k != "kind"} for item in items]
            more = start + limit < len(page)
            metadata = {"resourceVersion": "4242", "continue": str(start + limit) if more else ""}
            body = {"kind": f"{kind}List", "apiVersion": "v1", "metadata": metadata}
            self.reply(200, {**body, "items": page[start : start + limit]})

        def do_POST(self) -> None:  # noqa: N802 - anything but GET would be a bug
            cluster.requests.append("POST " + self.path)
            self.reply(405, {"kind": "Status", "code": 405})

        def reply(self, status: int, body: Obj) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    return Handler


def serve(cluster: Cluster, tmp_path: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(cluster))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    kubeconfig = tmp_path / "kubeconfig"
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {"name": "replay", "cluster": {"server": f"http://127.0.0.1:{server.server_port}"}}
        ],
        "users": [{"name": "reader", "user": {"token": "read-only-token"}}],
        "contexts": [{"name": "replay", "context": {"cluster": "replay", "user": "reader"}}],
        "current-context": "replay",
    }
    kubeconfig.write_text(json.dumps(config))
    try:
        yield str(kubeconfig)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def cluster() -> Cluster:
    return Cluster(RECORDING)


@pytest.fixture
def kubeconfig(cluster: Cluster, tmp_path: Path) -> Iterator[str]:
    yield from serve(cluster, tmp_path)


def findings(report: Report) -> list[tuple[str, str, str, tuple[str, ...]]]:
    return sorted(
        (f.pattern, f.check, f.why.en, tuple(str(o) for o in f.objects)) for f in report.findings
    )


def test_live_cluster_gives_the_same_findings_as_the_file(
    cluster: Cluster, kubeconfig: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "PAGE_SIZE", 2)  # pods and nodes come in several pages
    patterns, grounding = load_patterns(data_dir), load_grounding(data_dir)
    from_live = run_checks(live.snapshot_from_cluster("replay", kubeconfig), patterns, grounding)
    from_file = run_checks(load_snapshot_files([RECORDING]), patterns, grounding)
    assert findings(from_live) == findings(from_file)
    assert from_live.not_evaluable == from_file.not_evaluable
    assert all(not request.startswith("POST") for request in cluster.requests)
    assert "secrets" not in " ".join(cluster.requests)
    assert cluster.requests.count("/api/v1/pods") > 1  # paged with continue tokens


def test_a_forbidden_kind_is_left_out_and_its_checks_are_not_evaluable(
    tmp_path: Path, data_dir: Path
) -> None:
    forbidden = frozenset({"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"})
    served = Cluster(RECORDING, forbidden)
    for kubeconfig in serve(served, tmp_path):
        snapshot = live.snapshot_from_cluster(None, kubeconfig)
        report = run_checks(snapshot, load_patterns(data_dir), {})
    assert not snapshot.has("ValidatingWebhookConfiguration") and snapshot.has("Pod")
    assert ("fail-closed-admission-webhook", "fail-closed-webhook") in {
        (item.pattern, item.check) for item in report.not_evaluable
    }


def test_unreachable_cluster_is_a_snapshot_error(tmp_path: Path) -> None:
    for kubeconfig in serve(Cluster(RECORDING), tmp_path):
        config = json.loads(Path(kubeconfig).read_text())
    config["clusters"][0]["cluster"]["server"] = "http://127.0.0.1:9"  # nothing listens there
    Path(kubeconfig).write_text(json.dumps(config))
    with pytest.raises(SnapshotError, match="cannot reach the cluster"):
        live.snapshot_from_cluster(None, kubeconfig)


def test_missing_kubeconfig_is_a_snapshot_error(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError, match="cannot load kubeconfig"):
        live.snapshot_from_cluster("nope", str(tmp_path / "missing"))
