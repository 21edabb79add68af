"""Several snapshot files from two clusters are refused even when they share no object name;
files that cannot be told apart are merged with a warning that says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.checks.cli import main
from app.checks.documents import SnapshotError
from app.checks.snapshot import load_snapshot_files

from .factories import node, pod, statefulset


def write(path: Path, kind: str, *items: dict[str, object]) -> Path:
    path.write_text(json.dumps({"kind": f"{kind}List", "items": list(items)}))
    return path


def with_uid(item: dict[str, object], uid: str) -> dict[str, object]:
    item["metadata"]["uid"] = uid  # type: ignore[index]
    return item


def at(item: dict[str, object], host_ip: str) -> dict[str, object]:
    item["status"]["hostIP"] = host_ip  # type: ignore[index]
    return item


def addressed(item: dict[str, object], address: str) -> dict[str, object]:
    item["status"]["addresses"] = [{"type": "InternalIP", "address": address}]  # type: ignore[index]
    return item


def refused(*paths: Path) -> str:
    with pytest.raises(SnapshotError) as caught:
        load_snapshot_files(list(paths))
    assert "서로 다른 클러스터" in caught.value.text.ko
    return str(caught.value)


def test_a_pod_owned_by_another_statefulset_uid_proves_two_clusters(tmp_path: Path) -> None:
    prod = write(tmp_path / "prod-sts.json", "StatefulSet", with_uid(statefulset("db"), "sts-1"))
    staging = write(tmp_path / "staging-pods.json", "Pod", pod("db-0", owner=("StatefulSet", "db")))
    assert refused(prod, staging) == (
        f"{staging} and {prod} come from different clusters (Pod default/db-0 belongs to "
        f"StatefulSet default/db with uid uid-db, but the StatefulSet default/db in {prod} has "
        "uid sts-1); check one cluster at a time"
    )


def test_a_static_pod_of_a_same_named_node_with_another_uid_proves_two_clusters(
    tmp_path: Path,
) -> None:
    nodes = write(tmp_path / "a-nodes.json", "Node", with_uid(node("kind-control-plane"), "n-1"))
    mirror = pod("etcd-kind-control-plane", namespace="kube-system", node_name=None)
    mirror["metadata"]["ownerReferences"] = [  # type: ignore[index]
        {"kind": "Node", "name": "kind-control-plane", "uid": "n-2", "controller": True}
    ]
    pods = write(tmp_path / "b-pods.json", "Pod", mirror)
    assert (
        "Pod kube-system/etcd-kind-control-plane belongs to Node kind-control-plane with uid n-2"
        in refused(nodes, pods)
    )


def test_a_pod_at_an_address_its_node_does_not_have_proves_two_clusters(tmp_path: Path) -> None:
    nodes = write(tmp_path / "nodes.json", "Node", addressed(node("node-a"), "10.0.0.5"))
    pods = write(tmp_path / "pods.json", "Pod", at(pod("web", namespace="shop"), "10.9.0.5"))
    assert refused(nodes, pods) == (
        f"{pods} and {nodes} come from different clusters (Pod shop/web runs on node node-a at "
        f"10.9.0.5, but node node-a in {nodes} has the address 10.0.0.5); check one cluster at "
        "a time"
    )


def test_files_that_name_each_other_are_one_cluster(tmp_path: Path) -> None:
    """One file per kind, as people dump them: pods name their nodes and owners."""
    nodes = write(tmp_path / "nodes.json", "Node", addressed(node("node-a"), "10.0.0.5"))
    sets = write(tmp_path / "sts.json", "StatefulSet", with_uid(statefulset("db"), "uid-db"))
    pods = write(
        tmp_path / "pods.json",
        "Pod",
        at(pod("db-0", owner=("StatefulSet", "db")), "10.0.0.5"),
        at(pod("web", namespace="shop"), "10.0.0.5"),
    )
    snapshot = load_snapshot_files([nodes, sets, pods])
    assert snapshot.warnings == ()
    assert len(snapshot.of("Pod")) == 2


def test_pods_of_two_namespaces_on_the_same_node_are_one_cluster(tmp_path: Path) -> None:
    shop = write(
        tmp_path / "shop.json", "Pod", pod("web", namespace="shop", node_name="ip-10-0-1-7")
    )
    ads = write(tmp_path / "ads.json", "Pod", pod("api", namespace="ads", node_name="ip-10-0-1-7"))
    assert load_snapshot_files([shop, ads]).warnings == ()


def test_files_that_cannot_be_told_apart_are_checked_with_a_warning(tmp_path: Path) -> None:
    first = write(tmp_path / "a.json", "Node", node("node-a"))
    second = write(tmp_path / "b.json", "StatefulSet", statefulset("db", namespace="shop"))
    snapshot = load_snapshot_files([first, second])
    assert [(w.where, w.problem.en) for w in snapshot.warnings] == [
        (
            str(second),
            f"shares no uid, no object it refers to and no namespace of its own with {first}, "
            "so whether they come from one cluster cannot be told; they are checked as one — "
            "if they come from two clusters, check them one at a time",
        )
    ]
    assert snapshot.has("Node") and snapshot.has("StatefulSet")


def test_two_clusters_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = write(tmp_path / "nodes.json", "Node", addressed(node("node-a"), "10.0.0.5"))
    pods = write(tmp_path / "pods.json", "Pod", at(pod("web"), "10.9.0.5"))
    assert main(["--snapshot", str(nodes), "--snapshot", str(pods)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "come from different clusters" in err
