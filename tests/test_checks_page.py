"""The checker in the browser and on the command line, over recorded snapshots."""

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Page, sync_playwright

from app.config import ROOT
from tests.browser.conftest import ARGS, CHROMIUM

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


def test_a_bad_paste_stays_in_the_box_with_the_error_in_the_page_language(
    client: TestClient,
) -> None:
    bad = "kind: List\nitems: [unclosed"
    response = client.post("/check?lang=ko", data={"snapshot": bad})
    assert response.status_code == 400
    assert "kind: List\nitems: [unclosed</textarea>" in response.text
    assert 'aria-describedby="snapshot-error"' in response.text
    assert "스냅숏이 JSON 도 YAML 도 아니다" in response.text
    english = client.post("/check?lang=en", data={"snapshot": bad})
    assert "the snapshot is neither JSON nor YAML" in english.text


def test_a_yaml_paste_is_checked_and_the_summary_is_labelled(client: TestClient) -> None:
    manifest = "\n".join(
        [
            "apiVersion: apps/v1",
            "kind: Deployment",
            "metadata: {name: web, namespace: shop}",
            "spec:",
            "  replicas: 3",
            "  selector: {matchLabels: {app: web}}",
            "  template:",
            "    metadata: {labels: {app: web}}",
            "    spec: {containers: [{name: web, image: 'web:1.0'}]}",
        ]
    )
    response = client.post("/check", data={"snapshot": manifest})
    assert response.status_code == 200
    assert "Result: gaps found (exit code 1)" in response.text
    assert "<dt>Gaps</dt>" in response.text and "<dt>Checks evaluated</dt>" in response.text
    assert "evaluated Deployments; StatefulSets" in response.text


def test_a_snapshot_with_nothing_to_check_says_so_in_words(client: TestClient) -> None:
    response = client.post("/check?lang=ko", data={"snapshot": '{"kind": "List", "items": []}'})
    assert response.status_code == 200
    assert "아무것도 점검할 수 없었다 (종료 코드 2)" in response.text
    assert "틈을 찾지 못했" not in response.text


def in_own_browser(scenario: Callable[[Page], None]) -> None:
    """Run a scenario in Debian's Chromium on a thread of its own.

    The browser tests under tests/browser hold a session-wide Playwright on the main thread,
    and the sync API allows one per thread; a 400 answer to a bad paste is expected there, a
    script error on the page is not.
    """
    failures: list[BaseException] = []

    def run() -> None:
        try:
            with sync_playwright() as pw:
                chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
                context = chromium.new_context(
                    locale="ko-KR", viewport={"width": 1280, "height": 900}
                )
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                scenario(page)
                assert not errors, errors
                chromium.close()
        except BaseException as error:  # re-raised on the test's own thread
            failures.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the browser scenario did not finish"
    if failures:
        raise failures[0]


@pytest.mark.browser
def test_checker_in_the_browser_keeps_a_bad_paste_and_shows_verdict_words(server: str) -> None:
    in_own_browser(lambda page: bad_paste_then_report(page, server))


def bad_paste_then_report(page: Page, server: str) -> None:
    page.goto(f"{server}/check?lang=ko")
    page.fill("#snapshot", '{"kind": "List", "items": [')
    page.click("button[type=submit]")
    alert = page.locator("#snapshot-error")
    assert "스냅숏이 올바른 JSON 이 아니다" in alert.inner_text()
    assert page.input_value("#snapshot") == '{"kind": "List", "items": ['
    assert page.get_attribute("#snapshot", "aria-describedby") == "snapshot-error"
    page.fill("#snapshot", (SNAPSHOTS / "cluster-with-gaps.json").read_text())
    page.click("button[type=submit]")
    assert "틈을 찾았다 (종료 코드 1)" in page.locator(".check-verdict").inner_text()
    labels = page.locator(".check-summary dt").all_inner_texts()
    assert labels[:2] == ["틈", "틈이 있는 점검"] and "판단 불가 (통과가 아님)" in labels
    assert int(page.locator('[data-count="gaps"]').inner_text()) >= 1
