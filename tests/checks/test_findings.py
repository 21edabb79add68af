"""The wording and correctness fixes of issue 15, each on the case that was wrong."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.checks import CHECKS
from app.checks.cron import shortest_interval
from app.checks.output import format_text, report_dict
from app.checks.patterns import library_data, load_patterns
from app.checks.quantity import format_bytes, format_cpu
from app.checks.registry import ObjectRef
from app.checks.report import run_checks

from .factories import container, cronjob, deployment, make_snapshot, node, pod


def run(key: tuple[str, str], *objects: object) -> list:  # type: ignore[type-arg]
    return CHECKS[key].function(make_snapshot(*objects))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("schedule", "minutes"),
    [
        ("* 9-17 * * *", 1),
        ("0-59 * * * *", 1),
        ("0/1 * * * *", 1),
        ("*/7 * * * *", 4),  # 56 -> 0 is four minutes
        ("5,10,50 * * * *", 5),
        ("0 * * * *", 60),
        ("@hourly", 60),
        ("0 9 * * 1-5", 24 * 60),
        ("CRON_TZ=Europe/Seoul */5 * * * *", 5),
        ("@every 90s", 1),
        ("0 0 ? * *", 24 * 60),
    ],
)
def test_cron_schedules_are_read_by_a_cron_library(schedule: str, minutes: int) -> None:
    interval = shortest_interval(schedule)
    assert interval is not None
    assert max(timedelta(minutes=1), interval) // timedelta(minutes=1) == minutes


@pytest.mark.parametrize("schedule", ["", "every day", "61 * * * *", "* * * *", "*/0 * * * *"])
def test_invalid_cron_is_not_guessed(schedule: str) -> None:
    assert shortest_interval(schedule) is None


def test_a_business_hours_every_minute_cronjob_overlaps() -> None:
    gaps = run(("runaway-job-retries", "cronjob-overlap"), cronjob("sync", schedule="* 9-17 * * *"))
    assert [g.why.en.split(" with")[0] for g in gaps] == ["runs every 1 min"]


def test_anti_affinity_on_other_pods_is_not_a_spread_policy() -> None:
    other = {
        "affinity": {
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "topologyKey": "kubernetes.io/hostname",
                        "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "cache"}},
                    }
                ]
            }
        }
    }
    spread_other = {
        "topologySpreadConstraints": [
            {
                "maxSkew": 1,
                "topologyKey": "kubernetes.io/hostname",
                "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "cache"}},
            }
        ]
    }
    key = ("replicas-colocated", "no-spread-policy")
    found = run(key, deployment("web", **other), deployment("api", **spread_other))
    assert sorted(g.objects[0].name for g in found) == ["api", "web"]


@pytest.mark.parametrize(
    ("conditions", "words"),
    [
        ([], "without a Ready condition (its kubelet has never reported)"),
        ([{"type": "Ready", "status": "Unknown"}], "Ready Unknown (its kubelet stopped reporting)"),
        ([{"type": "Ready", "status": "False"}], "the node is NotReady"),
    ],
)
def test_node_state_says_what_the_conditions_say(conditions: list[object], words: str) -> None:
    item = node("node-a")
    item["status"]["conditions"] = conditions
    [gap] = run(("no-spare-capacity", "degraded-capacity"), item)
    assert words in gap.why.en


def test_critical_without_requests_names_cpu_or_memory() -> None:
    proxy = pod(
        "proxy-1",
        namespace="kube-system",
        labels={"k8s-app": "kube-dns"},
        containers=[
            container("a", requests={"cpu": "100m"}),
            container("b", requests={"memory": "64Mi"}),
        ],
    )
    [gap] = run(("platform-pods-unprotected", "critical-without-requests"), proxy)
    assert gap.why.en.startswith(
        "platform pod: container a has no memory request; container b has no cpu request."
    )


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.4, "0.4 bytes"),
        (400, "400 bytes"),
        (2048, "2Ki"),
        (3 * 2**20, "3Mi"),
        (1.5 * 2**30, "1.5Gi"),
    ],
)
def test_small_quantities_print_readably(value: float, text: str) -> None:
    assert format_bytes(value) == text


def test_tiny_cpu_prints_as_a_fraction() -> None:
    assert (format_cpu(0.0001), format_cpu(0.25), format_cpu(2)) == ("0.0001", "250m", "2")


def test_cluster_wide_findings_have_a_scope_not_a_pseudo_object() -> None:
    snapshot = make_snapshot(*[node(f"n{i}", zone=None) for i in range(3)])
    report = run_checks(snapshot, load_patterns(library_data()), {})
    [finding] = [
        f for f in report_dict(report)["findings"] if f["check"] == "no-failure-domain-labels"
    ]
    assert (finding["scope"], finding["objects"]) == ("cluster", [])
    assert "- the whole cluster: none of the 3 nodes" in format_text(report)
    assert not any(ref.name.endswith("nodes") for f in report.findings for ref in f.objects), (
        "no object named '3 nodes'"
    )


def test_observed_skew_still_names_real_objects() -> None:
    pods = [
        pod(f"web-7d9f8b6c5d-{i}x9z", node_name="node-a", owner=("ReplicaSet", "web-7d9f8b6c5d"))
        for i in range(3)
    ]
    [gap] = run(("replicas-colocated", "observed-node-skew"), *pods)
    assert gap.objects == (
        ObjectRef("Deployment", "default", "web"),
        ObjectRef("Node", "", "node-a"),
    )
