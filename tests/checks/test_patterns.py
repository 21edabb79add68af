"""data/patterns.yaml: the 22 patterns, their checks, and the registry that evaluates them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from app.checks import CHECKS
from app.checks.patterns import PatternsError, load_grounding, load_patterns

DATA = Path(__file__).resolve().parents[2] / "data"
SLUGS = [
    "replicas-colocated",
    "node-overcommit",
    "platform-pods-unprotected",
    "runaway-job-retries",
    "node-agent-apiserver-fanout",
    "control-plane-undersized",
    "cluster-dns-fragile",
    "pod-ip-exhaustion",
    "node-label-selector-drift",
    "fail-closed-admission-webhook",
    "synchronized-node-changes",
    "single-power-domain",
    "stale-network-mounts",
    "shared-fs-metadata-storm",
    "dataset-on-tiered-shared-storage",
    "no-spare-capacity",
    "gpu-node-health-gating",
    "priority-preemption-surprise",
    "shared-ingress-saturation",
    "cpu-limit-throttling",
    "recovery-depends-on-failed-layer",
    "probes-misconfigured",
    "disruption-budget-blocks-drain",
    "autoscaler-misconfigured",
    "service-without-ready-endpoints",
    "runtime-health",
]
HANGUL = re.compile(r"[\uac00-\ud7a3]")


@pytest.fixture(scope="module")
def patterns() -> list:  # type: ignore[type-arg]
    return load_patterns(DATA)


def test_all_catalogue_patterns_are_present_in_order(patterns: list) -> None:  # type: ignore[type-arg]
    assert [pattern.slug for pattern in patterns] == SLUGS


def test_every_text_has_english_and_korean(patterns: list) -> None:  # type: ignore[type-arg]
    for pattern in patterns:
        texts = [pattern.title, pattern.summary, pattern.explanation, pattern.fix]
        for check in pattern.checks:
            texts += [check.title, check.condition, check.fix]
            texts += [check.how_to_read] if check.how_to_read else []
        for text in texts:
            assert text.en.strip() and HANGUL.search(text.ko), (pattern.slug, text)
            assert not HANGUL.search(text.en), (pattern.slug, text.en)


def test_every_pattern_with_snapshot_checks_has_tags_and_grounding_is_not_listed() -> None:
    raw = yaml.safe_load((DATA / "patterns.yaml").read_text(encoding="utf-8"))
    for entry in raw:
        assert set(entry["tags"]) <= {"cause", "component", "factor"}
        assert entry["tags"]["cause"] and entry["tags"]["component"]
        assert "incidents" not in entry and "grounding" not in entry
        assert not re.search(r"IL-\d{4}", json.dumps(entry)), entry["slug"]


def test_snapshot_checks_and_registered_functions_match_both_ways(patterns: list) -> None:  # type: ignore[type-arg]
    in_yaml = {(p.slug, c.id) for p in patterns for c in p.checks if c.kind == "snapshot"}
    assert in_yaml == set(CHECKS)
    assert len(CHECKS) >= 25
    with_snapshot = {slug for slug, _ in CHECKS}
    assert with_snapshot == set(SLUGS)


def test_registered_kinds_are_listed_in_reads(patterns: list) -> None:  # type: ignore[type-arg]
    for pattern in patterns:
        for check in pattern.checks:
            if check.kind == "snapshot":
                kinds = set(CHECKS[(pattern.slug, check.id)].reads)
                assert kinds <= set(check.reads), (pattern.slug, check.id, kinds - set(check.reads))


def write_data(tmp_path: Path, patterns: object) -> Path:
    (tmp_path / "taxonomy.yaml").write_text(
        yaml.safe_dump(
            {
                "cause": [{"slug": "capacity-limit"}],
                "component": [{"slug": "pod-scheduling"}],
                "factor": [{"slug": "single-point-of-failure"}],
            }
        )
    )
    (tmp_path / "patterns.yaml").write_text(yaml.safe_dump(patterns, allow_unicode=True))
    return tmp_path


def minimal_pattern(**changes: object) -> dict[str, object]:
    text = {"en": "Text", "ko": "글"}
    check: dict[str, object] = {
        "id": "no-spread-policy",
        "kind": "snapshot",
        "severity": "medium",
        "title": text,
        "reads": ["Deployment"],
        "condition": text,
        "command": "kubectl get deployments -A",
        "how_to_read": text,
        "fix": text,
    }
    pattern: dict[str, object] = {
        "slug": "replicas-colocated",
        "title": text,
        "summary": text,
        "explanation": text,
        "tags": {"cause": ["capacity-limit"], "component": ["pod-scheduling"]},
        "fix": text,
        "checks": [check],
    }
    for key, value in changes.items():
        if key.startswith("check_"):
            check[key.removeprefix("check_")] = value
        else:
            pattern[key] = value
    return pattern


def test_a_minimal_patterns_file_loads(tmp_path: Path) -> None:
    [pattern] = load_patterns(write_data(tmp_path, [minimal_pattern()]))
    assert pattern.check("no-spread-policy") is not None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tags": {"cause": ["dns-typo"]}}, "pattern 'replicas-colocated': tags.cause: 'dns-typo'"),
        ({"check_command": "kubectl delete pods --all"}, "checks[no-spread-policy].command"),
        ({"check_severity": "urgent"}, "checks[no-spread-policy].severity"),
        ({"check_how_to_read": None}, "a snapshot check needs reads, command and how_to_read"),
        ({"title": {"en": "Only English"}}, "pattern 'replicas-colocated': title.ko"),
        ({"surprise": 1}, "pattern 'replicas-colocated': surprise"),
    ],
)
def test_invalid_pattern_names_file_pattern_and_field(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    data = write_data(tmp_path, [minimal_pattern(**changes)])
    with pytest.raises(PatternsError) as caught:
        load_patterns(data)
    assert str(caught.value).startswith(str(data / "patterns.yaml"))
    assert message in str(caught.value)


def test_duplicate_slugs_are_rejected(tmp_path: Path) -> None:
    data = write_data(tmp_path, [minimal_pattern(), minimal_pattern()])
    with pytest.raises(PatternsError, match="pattern 'replicas-colocated': slug: duplicated"):
        load_patterns(data)


def test_no_patterns_file_means_no_patterns(tmp_path: Path) -> None:
    assert load_patterns(tmp_path) == []


def test_grounding_comes_from_incident_files_of_both_forms(tmp_path: Path) -> None:
    incidents = tmp_path / "incidents"
    incidents.mkdir()
    (incidents / "IL-0064.yaml").write_text(
        "id: IL-0064\ndate: 2019\npatterns: [replicas-colocated]\n"
    )
    (incidents / "IL-0094.yaml").write_text(
        "id: IL-0094\npatterns: [node-overcommit, platform-pods-unprotected]\n"
    )
    (incidents / "IL-0006.yaml").write_text("id: IL-0006\n")
    rows = [
        {"id": "IL-000002", "patterns": ["replicas-colocated"]},
        {"id": "IL-000001", "patterns": []},
    ]
    (incidents / "bulk.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    assert load_grounding(tmp_path) == {
        "node-overcommit": ("IL-0094",),
        "platform-pods-unprotected": ("IL-0094",),
        "replicas-colocated": ("IL-000002", "IL-0064"),
    }


def test_broken_incident_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "incidents").mkdir()
    (tmp_path / "incidents" / "bulk.jsonl").write_text('{"id": "IL-1"}\n{oops\n')
    with pytest.raises(PatternsError, match=r"bulk.jsonl:2: not valid JSON"):
        load_grounding(tmp_path)
