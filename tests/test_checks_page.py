"""The checker in the browser and on the command line, over recorded snapshots."""

import json
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from app.config import ROOT

SNAPSHOTS = ROOT / "tests" / "checks" / "snapshots"


def test_pattern_pages_list_every_pattern_with_checks(client: TestClient) -> None:
    html = client.get("/patterns").text
    assert html.count('class="card"') >= 15
    page = client.get("/patterns/replicas-colocated")
    assert page.status_code == 200
    assert "kubectl get" in page.text
    assert "IL-0064" in page.text
    assert client.get("/patterns/replicas-colocated?lang=ko").text.count("점검") >= 1
    assert client.get("/patterns/no-such-pattern").status_code == 404


def test_incident_with_a_pattern_links_to_check_my_cluster(client: TestClient) -> None:
    html = client.get("/incidents/IL-0064").text
    assert 'href="/patterns/replicas-colocated"' in html
    listing = client.get("/incidents?cause=capacity-limit").text
    assert "Patterns behind these" in listing


def test_pasted_snapshot_with_gaps_shows_findings_with_incidents(client: TestClient) -> None:
    snapshot = (SNAPSHOTS / "cluster-with-gaps.json").read_text()
    response = client.post("/check", data={"snapshot": snapshot})
    assert response.status_code == 200
    assert 'class="check-item"' in response.text
    assert 'href="/patterns/replicas-colocated' in response.text
    assert "/incidents/IL-0064" in response.text


def test_uploaded_snapshot_is_checked_too(client: TestClient) -> None:
    data = (SNAPSHOTS / "cluster-with-gaps.json").read_bytes()
    response = client.post("/check", files={"upload": ("snap.json", data, "application/json")})
    assert response.status_code == 200
    assert 'class="check-item"' in response.text


def test_snapshot_with_a_secret_is_refused(client: TestClient) -> None:
    secret = {
        "apiVersion": "v1",
        "kind": "List",
        "items": [
            {
                "apiVersion": "v1",
                "kind": "Secret",
                "metadata": {"name": "s", "namespace": "d"},
                "data": {},
            }
        ],
    }
    response = client.post("/check", data={"snapshot": json.dumps(secret)})
    assert response.status_code == 400
    assert "Secret" in response.text


def test_malformed_and_empty_snapshots_get_clear_messages(client: TestClient) -> None:
    for body, status in (("{not json", 400), ("", 400), ("[1, 2]", 400)):
        response = client.post("/check", data={"snapshot": body})
        assert response.status_code == status
        assert 'role="alert"' in response.text
        assert "Traceback" not in response.text


def test_oversized_snapshot_is_refused(client: TestClient) -> None:
    big = "x" * 5_000_100
    response = client.post(
        "/check", files={"upload": ("big.json", big.encode(), "application/json")}
    )
    assert response.status_code == 413


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "check", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_cli_exit_codes_follow_the_findings(tmp_path: Path) -> None:
    gaps = run_cli("--snapshot", str(SNAPSHOTS / "cluster-with-gaps.json"))
    assert gaps.returncode == 1, gaps.stderr
    assert "replicas-colocated" in gaps.stdout
    clean = run_cli("--snapshot", str(SNAPSHOTS / "cluster-well-configured.json"))
    assert clean.returncode == 0, clean.stdout
    broken = tmp_path / "broken.json"
    broken.write_text("[1, 2")
    bad = run_cli("--snapshot", str(broken))
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1


def test_cli_json_output_parses(tmp_path: Path) -> None:
    result = run_cli("--snapshot", str(SNAPSHOTS / "cluster-with-gaps.json"), "--format", "json")
    report = json.loads(result.stdout)
    assert report["summary"]["gaps"] >= 1
    assert all(f["incidents"] for f in report["findings"] if f["pattern"] == "replicas-colocated")
