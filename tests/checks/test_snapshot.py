"""Reading snapshots: typed lists, mixed kubectl Lists, several files, bad input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
import yaml

from app.checks.documents import SnapshotError
from app.checks.snapshot import (
    RESOURCES,
    SECRET_MESSAGE,
    SNAPSHOT_COMMAND,
    SNAPSHOT_LIST_COMMAND,
    load_snapshot,
    load_snapshot_files,
)

from .factories import node, pod

SNAPSHOTS = Path(__file__).parent / "snapshots"


def test_a_mixed_list_is_grouped_by_item_kind() -> None:
    document = {"apiVersion": "v1", "kind": "List", "items": [node("node-a"), pod("web")]}
    snapshot = load_snapshot(json.dumps(document))
    assert [o["metadata"]["name"] for o in snapshot.of("Node")] == ["node-a"]
    assert [o["metadata"]["name"] for o in snapshot.of("Pod")] == ["web"]
    assert snapshot.kinds == frozenset({"Node", "Pod"})


def test_an_empty_typed_list_still_counts_as_read() -> None:
    text = (
        '{"kind":"CronJobList","apiVersion":"batch/v1","items":[]}\n{"kind":"NodeList","items":[]}'
    )
    snapshot = load_snapshot(text.encode())
    assert snapshot.has("CronJob") and snapshot.of("CronJob") == ()
    assert snapshot.missing(["CronJob", "Node", "Pod"]) == ["Pod"]


def test_typed_list_items_get_their_kind() -> None:
    item = node("node-a")
    del item["kind"]
    snapshot = load_snapshot(json.dumps({"kind": "NodeList", "items": [item]}))
    assert snapshot.of("Node")[0]["kind"] == "Node"


def test_recorded_file_reads_every_resource_kind() -> None:
    snapshot = load_snapshot_files([SNAPSHOTS / "cluster-with-gaps.json"])
    assert snapshot.kinds == frozenset(resource.kind for resource in RESOURCES)


def test_several_files_merge_and_the_same_object_is_kept_once(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps({"kind": "List", "items": [node("node-a"), pod("web")]}))
    second.write_text(json.dumps({"kind": "PodList", "items": [pod("web"), pod("api")]}))
    snapshot = load_snapshot_files([first, second])
    assert sorted(o["metadata"]["name"] for o in snapshot.of("Pod")) == ["api", "web"]


def test_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.dumps({"kind": "List", "items": [node("node-a")]}).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert load_snapshot_files(["-"]).has("Node")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the snapshot is empty"),
        ("   \n\t", "the snapshot is empty"),
        ("{not json", "the snapshot is not valid JSON (line 1, column 2"),
        (
            "kind: [unclosed",
            "the snapshot is neither JSON nor YAML (line 2, column 1: did not find expected ',' or ']')",
        ),
        ("[1, 2]", "no Kubernetes object or List in the input"),
        ('{"kind": "List"}', "(or -o yaml) (input: the List has no items list)"),
        ("[" * 100_000, "nested too deeply"),
        ("a:\n" + "  - " * 5000 + "x", "nested too deeply"),
        ('{"kind": "List", "items": [{"kind": "Secret", "data": {}}]}', SECRET_MESSAGE),
        ('{"kind": "SecretList", "items": []}', SECRET_MESSAGE),
        ('{"kind": "SecretList", "items": [{"data": {}}]}', SECRET_MESSAGE),
    ],
)
def test_bad_input_raises_one_clear_message(text: str, message: str) -> None:
    with pytest.raises(SnapshotError) as caught:
        load_snapshot(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_bad_file_message_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{")
    with pytest.raises(SnapshotError, match="broken.json: the snapshot is not valid JSON"):
        load_snapshot_files([path])
    with pytest.raises(SnapshotError, match="cannot read .*missing.json"):
        load_snapshot_files([tmp_path / "missing.json"])


def test_snapshot_commands_read_only_and_never_secrets() -> None:
    for command in (SNAPSHOT_COMMAND, SNAPSHOT_LIST_COMMAND):
        assert "secret" not in command.lower()
    assert SNAPSHOT_COMMAND.count("kubectl") == 1 and "kubectl get --raw" in SNAPSHOT_COMMAND
    assert all(resource.path in SNAPSHOT_COMMAND for resource in RESOURCES)
    verbs = [part.split()[0] for part in SNAPSHOT_LIST_COMMAND.split("kubectl ")[1:]]
    assert verbs == ["get", "get"]


def test_items_without_kind_or_with_a_bad_field_are_skipped_with_a_warning() -> None:
    bad = node("node-b")
    bad["status"]["allocatable"]["memory"] = "lots"
    document = {"kind": "List", "items": [{"metadata": {"name": "x"}}, bad, node("node-a")]}
    snapshot = load_snapshot(json.dumps(document), "nodes.json")
    assert [n["metadata"]["name"] for n in snapshot.of("Node")] == ["node-a"]
    assert [(w.where, w.problem.en) for w in snapshot.warnings] == [
        ("nodes.json, item 0", "the object has no kind"),
        (
            "nodes.json: Node node-b",
            "skipped, status.allocatable.memory: Value error, not a quantity: 'lots'",
        ),
    ]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (("spec", "replicas"), None, None),
        (("spec", "replicas"), "3", "spec.replicas: Input should be a valid integer"),
        (
            ("metadata", "labels"),
            {"tier": 1},
            "metadata.labels.tier: Input should be a valid string",
        ),
        (("metadata", "creationTimestamp"), "yesterday", "metadata.creationTimestamp: Value error"),
        (("spec", "template", "spec", "overhead"), {"cpu": "1x"}, "not a quantity: '1x'"),
    ],
)
def test_a_deployment_with_a_wrong_typed_field_is_named_in_the_warning(
    field: tuple[str, ...], value: object, message: str | None
) -> None:
    item = workload_item()
    target = item
    for key in field[:-1]:
        target = target[key]
    target[field[-1]] = value
    snapshot = load_snapshot(json.dumps({"kind": "DeploymentList", "items": [item]}), "d.json")
    if message is None:
        assert len(snapshot.of("Deployment")) == 1 and not snapshot.warnings
        return
    assert snapshot.of("Deployment") == () and snapshot.has("Deployment")
    [warning] = snapshot.warnings
    assert warning.where == "d.json: Deployment shop/web"
    assert message in warning.problem.en


def workload_item() -> dict[str, object]:
    from .factories import deployment

    item = deployment("web", namespace="shop")
    del item["kind"]
    return item


def test_yaml_lists_single_objects_and_multi_document_streams_are_read(tmp_path: Path) -> None:
    listed = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [node("node-a")]})
    single = yaml.safe_dump(pod("web"))
    stream = "---\n" + yaml.safe_dump(pod("api")) + "---\n" + yaml.safe_dump(pod("db")) + "...\n"
    (tmp_path / "nodes.yaml").write_text(listed)
    (tmp_path / "web.yml").write_text(single)
    (tmp_path / "more.yaml").write_text(stream)
    snapshot = load_snapshot_files(
        [tmp_path / "nodes.yaml", tmp_path / "web.yml", tmp_path / "more.yaml"]
    )
    assert sorted(p["metadata"]["name"] for p in snapshot.of("Pod")) == ["api", "db", "web"]
    assert snapshot.kinds == frozenset({"Node", "Pod"})


def test_yaml_timestamps_stay_text_as_the_api_sends_them() -> None:
    text = "kind: Pod\nmetadata: {name: web, creationTimestamp: 2025-05-01T08:00:00Z}\n"
    [item] = load_snapshot(text).of("Pod")
    assert item["metadata"]["creationTimestamp"] == "2025-05-01T08:00:00Z"


def test_concatenated_json_objects_are_read_one_after_another() -> None:
    text = json.dumps(pod("web")) + "\n" + json.dumps({"kind": "NodeList", "items": []})
    snapshot = load_snapshot(text)
    assert snapshot.has("Node") and len(snapshot.of("Pod")) == 1


def test_a_directory_of_manifests_is_read_recursively(tmp_path: Path) -> None:
    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "web.yaml").write_text(yaml.safe_dump(pod("web")))
    (tmp_path / "nodes.json").write_text(json.dumps({"kind": "List", "items": [node("n")]}))
    (tmp_path / "README.md").write_text("# not a manifest")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.yaml").write_text("kind: Secret\n")
    snapshot = load_snapshot_files([tmp_path])
    assert snapshot.kinds == frozenset({"Node", "Pod"})
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SnapshotError, match="empty: no .json, .yaml or .yml file"):
        load_snapshot_files([empty])


def test_two_clusters_are_refused_by_their_uids(tmp_path: Path) -> None:
    first, second = tmp_path / "prod.json", tmp_path / "staging.json"
    kube_system = {"kind": "Namespace", "metadata": {"name": "kube-system", "uid": "aaa"}}
    first.write_text(json.dumps({"kind": "List", "items": [kube_system, node("n1")]}))
    kube_system = {"kind": "Namespace", "metadata": {"name": "kube-system", "uid": "bbb"}}
    second.write_text(json.dumps({"kind": "List", "items": [kube_system, node("n9")]}))
    with pytest.raises(SnapshotError) as caught:
        load_snapshot_files([first, second])
    assert str(caught.value) == (
        f"{first} and {second} come from different clusters (Namespace kube-system has two "
        "uids); check one cluster at a time"
    )
    assert "서로 다른 클러스터" in caught.value.text.ko


def test_the_same_manifest_twice_without_uids_keeps_the_later_one_and_says_so(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    older, newer = pod("web"), pod("web", node_name="node-b")
    for item in (older, newer):
        del item["metadata"]["uid"]
    first.write_text(yaml.safe_dump(older))
    second.write_text(yaml.safe_dump(newer))
    snapshot = load_snapshot_files([first, second])
    assert [p["spec"]["nodeName"] for p in snapshot.of("Pod")] == ["node-b"]
    assert [w.problem.en for w in snapshot.warnings] == [f"also in {first}; the later one is used"]


def test_errors_have_a_korean_twin() -> None:
    with pytest.raises(SnapshotError) as caught:
        load_snapshot("{not json")
    assert caught.value.text.ko.startswith("스냅숏이 올바른 JSON 이 아니다")
