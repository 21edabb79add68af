"""Where our checks meet kube-score's and Polaris': fixes found by measuring against their
labelled fixtures (scripts/measure_checker_agreement.py), and the recorded differences."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.checks import CHECKS
from app.checks.patterns import PatternsError, library_data, load_patterns
from app.checks.snapshot import load_snapshot

from .test_patterns import minimal_pattern, write_data

SERVICE = """
apiVersion: v1
kind: Service
metadata: {name: shop, namespace: default}
spec:
  selector: {app: shop}
  ports: [{port: 80, targetPort: 8080}]
"""


def gaps(key: tuple[str, str], manifests: str) -> list[str]:
    """The findings of one check on manifests, as `kubectl apply -f` would take them."""
    return [gap.why.en for gap in CHECKS[key].function(load_snapshot(manifests))]


def pod_manifest(labels: str, status: str = "") -> str:
    return f"""
apiVersion: v1
kind: Pod
metadata: {{name: shop-1, namespace: default, labels: {labels}}}
spec:
  containers: [{{name: shop, image: shop:1.2}}]
{status}
"""


SERVICE_CHECK = ("service-without-ready-endpoints", "service-ready-endpoints")


def test_a_service_over_pod_manifests_is_not_called_unready() -> None:
    assert gaps(SERVICE_CHECK, pod_manifest("{app: shop}") + "---" + SERVICE) == []


def test_a_service_that_selects_no_pod_manifest_has_no_endpoint() -> None:
    [why] = gaps(SERVICE_CHECK, pod_manifest("{app: cart}") + "---" + SERVICE)
    assert why.startswith("no Running and Ready pod matches its selector")


def test_a_service_over_a_running_pod_that_is_not_ready_still_has_no_endpoint() -> None:
    status = "status: {phase: Running, conditions: [{type: Ready, status: 'False'}]}"
    [why] = gaps(SERVICE_CHECK, pod_manifest("{app: shop}", status) + "---" + SERVICE)
    assert why.startswith("no Running and Ready pod matches its selector")


def budget(min_available: str) -> str:
    return f"""
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: shop, namespace: default}}
spec:
  minAvailable: {min_available}
  selector: {{matchLabels: {{app: shop}}}}
"""


@pytest.mark.parametrize("value", ["100%", "150%"])
def test_a_min_available_of_100_percent_or_more_blocks_every_drain(value: str) -> None:
    [why] = gaps(("disruption-budget-blocks-drain", "pdb-spec-blocks-drain"), budget(f"'{value}'"))
    assert why.startswith(f"minAvailable is {value}: no pod it selects may ever be evicted")


def test_a_min_available_percentage_below_100_is_not_judged_without_a_workload() -> None:
    assert gaps(("disruption-budget-blocks-drain", "pdb-spec-blocks-drain"), budget("'99%'")) == []


def deployment_manifest(resources: str) -> str:
    return f"""
apiVersion: apps/v1
kind: Deployment
metadata: {{name: shop, namespace: default}}
spec:
  replicas: 3
  selector: {{matchLabels: {{app: shop}}}}
  template:
    metadata: {{labels: {{app: shop}}}}
    spec:
      containers:
        - name: shop
          image: shop:1.2
          resources: {resources}
"""


def test_a_cpu_limit_without_a_request_is_the_request() -> None:
    """The API server copies limits into missing requests; a manifest does not show it."""
    check = ("replicas-colocated", "cpu-requests-missing")
    assert gaps(check, deployment_manifest("{limits: {cpu: 500m, memory: 256Mi}}")) == []
    [why] = gaps(check, deployment_manifest("{limits: {memory: 256Mi}}"))
    assert "container(s) shop have no CPU request" in why


def test_every_difference_names_a_checker_their_checks_and_why() -> None:
    entries = [
        (pattern.slug, check.id, entry)
        for pattern in load_patterns(library_data())
        for check in pattern.checks
        for entry in check.other_checkers
    ]
    pulls = [
        entry.verdict
        for slug, check_id, entry in entries
        if check_id == "pull-on-restart" and "pullPolicyNotAlways" in entry.checks
    ]
    assert pulls == ["differs"]
    assert {entry.checker for _, _, entry in entries} >= {"kube-score", "Polaris"}
    assert all(entry.why.en and entry.why.ko for _, _, entry in entries)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            {
                "checker": "Polaris",
                "checks": ["x"],
                "verdict": "maybe",
                "why": {"en": "a", "ko": "가"},
            },
            "checks[no-spread-policy].other_checkers[0].verdict",
        ),
        (
            {
                "checker": "Polaris",
                "checks": [],
                "verdict": "agrees",
                "why": {"en": "a", "ko": "가"},
            },
            "checks[no-spread-policy].other_checkers[0].checks",
        ),
        (
            {"checker": "Polaris", "checks": ["x"], "verdict": "agrees", "why": {"en": "a"}},
            "checks[no-spread-policy].other_checkers[0].why.ko",
        ),
    ],
)
def test_a_malformed_other_checker_entry_is_named(
    tmp_path: Path, entry: dict[str, object], message: str
) -> None:
    data = write_data(tmp_path, [minimal_pattern(check_other_checkers=[entry])])
    with pytest.raises(PatternsError) as caught:
        load_patterns(data)
    assert message in str(caught.value)


def test_the_measuring_script_reads_the_recorded_differences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """scripts/measure_checker_agreement.py honours a difference only when patterns.yaml
    records it; every rule it has must be recorded, or its cases would silently count."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / "measure_checker_agreement.py"
    spec = importlib.util.spec_from_file_location("measure_checker_agreement", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look themselves up
    spec.loader.exec_module(module)
    patterns = load_patterns(library_data())
    assert [rule.reason for rule in module.RULES if not module.recorded(patterns, rule)] == []
    assert module.kube_score_id("Pod Probes Identical") == "pod-probes-identical"
