"""`incident-library check`: exit codes, text and JSON output, bad input on one line."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.checks import run_checks
from app.checks.cli import main
from app.checks.output import format_json, format_text
from app.checks.patterns import load_grounding, load_patterns
from app.checks.snapshot import SNAPSHOT_COMMAND, load_snapshot_files
from app.config import ROOT

from .conftest import SNAPSHOTS
from .factories import deployment, job, node, pod

GAPS = str(SNAPSHOTS / "cluster-with-gaps.json")
WELL = str(SNAPSHOTS / "cluster-well-configured.json")
LIST_FORM = str(SNAPSHOTS / "kubectl-list-form.json")


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cluster_with_gaps_exits_1_and_lists_them(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    code, out, err = check(capsys, "--snapshot", GAPS, "--data", str(data_dir))
    assert (code, err) == (1, "")
    assert "replicas-colocated/observed-node-skew" in out
    assert "Deployment shop/shop, Node node-1: 2 of 3 ready pods run on node node-1" in out
    assert "Seen in: IL-0064" in out
    assert "Not evaluable (not a pass):" in out


def test_well_configured_cluster_exits_0(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    code, out, err = check(capsys, "--snapshot", WELL, "--data", str(data_dir))
    assert (code, err) == (0, "")
    assert (
        "Result: no gap found in the " in out
        and "checks that could be evaluated (exit code 0)" in out
    )


def test_json_report_has_findings_with_objects_fix_and_incidents(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    code, out, _ = check(capsys, "--snapshot", GAPS, "--format", "json", "--data", str(data_dir))
    report = json.loads(out)
    assert code == 1
    retries = [f for f in report["findings"] if f["check"] == "unbounded-retries"]
    assert {f["objects"][0]["name"] for f in retries} == {"reindex", "sync-search"}
    first = retries[0]
    assert set(first) == {
        "pattern", "check", "severity", "title", "scope", "subject", "objects", "why", "fix",
        "incidents",
    }  # fmt: skip
    assert (first["scope"], first["subject"]) == ("objects", "")
    assert (report["verdict"], report["exit_code"]) == ("gaps", 1)
    assert first["incidents"] == ["IL-0036"] and first["severity"] == "high"
    assert first["objects"][0] == {"kind": "CronJob", "namespace": "batch", "name": "sync-search"}
    gaps = [f for f in report["findings"] if f["severity"] != "info"]
    assert report["summary"]["gaps"] == len(gaps)
    assert report["summary"]["info"] == len(report["findings"]) - len(gaps)
    assert {"pattern": "control-plane-undersized", "check": "apiserver-flags"} == {
        k: report["not_evaluable"][0][k] for k in ("pattern", "check")
    }


def test_korean_text_report(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    code, out, _ = check(capsys, "--snapshot", GAPS, "--lang", "ko", "--data", str(data_dir))
    assert code == 1
    assert out.startswith("내 클러스터에도 있는지 확인하기")
    assert "근거 사례: IL-0064" in out and "판단 불가 (통과가 아님):" in out


def test_kinds_missing_from_a_mixed_list_are_not_evaluable(data_dir: Path) -> None:
    snapshot = load_snapshot_files([LIST_FORM])
    report = run_checks(snapshot, load_patterns(data_dir), load_grounding(data_dir))
    skipped = {(item.pattern, item.check): item.reason.en for item in report.not_evaluable}
    assert skipped[("runaway-job-retries", "cronjob-overlap")].startswith(
        "the snapshot has no CronJob"
    )
    assert ("replicas-colocated", "observed-node-skew") not in skipped
    assert ("replicas-colocated", "observed-node-skew") in {
        (f.pattern, f.check) for f in report.findings
    }


def test_standard_input_is_read_with_dash(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(Path(WELL).read_bytes())))
    code, _, _ = check(capsys, "--snapshot", "-", "--data", str(data_dir))
    assert code == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "the snapshot is not valid JSON"),
        ("[1, 2]", "no Kubernetes object or List in the input"),
        ("kind: List\nitems: {}", "no Kubernetes object or List in the input"),
        ('{"kind": "List", "items": [{"kind": "Secret"}]}', "the snapshot contains a Secret"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data_dir: Path, content: str, message: str
) -> None:
    path = tmp_path / "snapshot.json"
    path.write_text(content)
    code, out, err = check(capsys, "--snapshot", str(path), "--data", str(data_dir))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--snapshot", "/nonexistent/snapshot.json"],
        ["--snapshot", GAPS, "--format", "yaml"],
        ["--snapshot", GAPS, "--context", "prod"],
        ["--kubeconfig", "/nonexistent/kubeconfig"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], data_dir: Path, argv: list[str]
) -> None:
    code, _, err = check(capsys, *argv, "--data", str(data_dir))
    assert code == 2 and err.count("\n") == 1, err


def test_invalid_patterns_file_exits_2(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    (data_dir / "patterns.yaml").write_text("- slug: Not A Slug\n")
    code, _, err = check(capsys, "--snapshot", GAPS, "--data", str(data_dir))
    assert code == 2 and "patterns.yaml: pattern 'Not A Slug'" in err


def test_formatters_are_usable_without_the_cli(data_dir: Path) -> None:
    report = run_checks(load_snapshot_files([GAPS]), load_patterns(data_dir), {})
    assert json.loads(format_json(report))["summary"]["gaps"] > 0
    assert format_text(report, "en").startswith("Check my cluster")


def unrelated_snapshot(tmp_path: Path) -> str:
    path = tmp_path / "unrelated.json"
    path.write_text(json.dumps({"kind": "ConfigMapList", "items": []}))
    return str(path)


def test_a_snapshot_with_nothing_to_check_exits_2_and_says_how_to_collect_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data_dir: Path
) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text('{"kind": "List", "apiVersion": "v1", "items": []}')
    code, out, err = check(capsys, "--snapshot", str(empty), "--data", str(data_dir))
    assert code == 2 and "No gap found" not in out and "no gap found" not in out
    assert "Result: nothing in this snapshot could be checked (exit code 2)" in out
    assert (
        err
        == f"incident-library check: nothing in this snapshot could be checked — collect it with: {SNAPSHOT_COMMAND}\n"
    )


def test_the_natural_kubectl_get_is_evaluated_for_the_kinds_it_has(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data_dir: Path
) -> None:
    """pods,nodes,deployments,jobs: three replicas on one node and a runaway Job are found."""
    objects = [
        node("node-a"),
        deployment("web", replicas=3),
        *[
            pod(
                f"web-7d9f8b6c5d-{i}x9z", node_name="node-a", owner=("ReplicaSet", "web-7d9f8b6c5d")
            )
            for i in range(3)
        ],
        job("reindex", backoff_limit=1000),
    ]
    path = tmp_path / "natural.json"
    path.write_text(json.dumps({"kind": "List", "items": objects}))
    code, out, _ = check(
        capsys, "--snapshot", str(path), "--format", "json", "--data", str(data_dir)
    )
    report = json.loads(out)
    found = {(f["pattern"], f["check"]) for f in report["findings"]}
    assert code == 1
    assert ("replicas-colocated", "no-spread-policy") in found
    assert ("runaway-job-retries", "unbounded-retries") in found
    coverage = {(e["pattern"], e["check"]): e["coverage"]["en"] for e in report["evaluated"]}
    assert coverage[("replicas-colocated", "no-spread-policy")] == (
        "evaluated Deployments; StatefulSets, HorizontalPodAutoscalers not in the snapshot"
    )
    assert coverage[("runaway-job-retries", "unbounded-retries")] == (
        "evaluated Jobs; CronJobs not in the snapshot"
    )


def test_check_runs_from_any_directory_with_the_packaged_patterns(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "check", "--snapshot", GAPS],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 1, result.stderr
    assert "replicas-colocated/observed-node-skew" in result.stdout
    assert "Seen in: IL-0064" in result.stdout


def test_a_data_directory_without_patterns_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = check(capsys, "--snapshot", GAPS, "--data", str(tmp_path))
    assert (code, out) == (2, "")
    assert (
        err
        == f"incident-library check: {tmp_path}: no patterns.yaml with snapshot checks in this directory\n"
    )


def test_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = check(capsys, "--help")
    assert code == 0 and "1 gaps found, 2 input that cannot be used" in " ".join(out.split())
