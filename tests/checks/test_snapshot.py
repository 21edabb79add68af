"""Reading snapshots: typed lists, mixed kubectl Lists, several files, bad input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from app.checks.snapshot import (
    RESOURCES,
    SECRET_MESSAGE,
    SNAPSHOT_COMMAND,
    SNAPSHOT_LIST_COMMAND,
    SnapshotError,
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
        ("{not json", "the snapshot is not valid JSON (line 1, column 2"),
        ('{"kind": "Pod", "metadata": {}}', "not a Kubernetes List (kind is 'Pod')"),
        ("[1, 2]", "not a Kubernetes List (expected a JSON object)"),
        ('{"kind": "List"}', "the List has no items list"),
        ('{"kind": "List", "items": [{"metadata": {}}]}', "item 0 of the List has no kind"),
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
