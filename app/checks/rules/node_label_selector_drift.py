"""node-label-selector-drift: workloads selecting node labels no node has any more."""

from __future__ import annotations

from typing import Any

from app.checks import kube
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "node-label-selector-drift"
MASTER = "node-role.kubernetes.io/master"
KINDS = ("Deployment", "StatefulSet", "DaemonSet")


def required_terms(spec: dict[str, Any]) -> list[dict[str, Any]]:
    affinity = kube.dig(
        spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"
    )
    return list((affinity or {}).get("nodeSelectorTerms") or [])


def _requirement(expression: dict[str, Any], node_labels: dict[str, str]) -> bool:
    key, operator = str(expression.get("key")), expression.get("operator")
    values = [str(v) for v in expression.get("values") or []]
    if operator in ("Gt", "Lt"):
        try:
            have, want = int(node_labels[key]), int(values[0])
        except (KeyError, IndexError, ValueError):
            return False
        return have > want if operator == "Gt" else have < want
    return kube.selector_matches({"matchExpressions": [expression]}, node_labels)


def node_matches(spec: dict[str, Any], node: Obj) -> bool:
    """nodeSelector AND any of the required nodeAffinity terms."""
    node_labels = kube.labels(node)
    selector = spec.get("nodeSelector") or {}
    if any(node_labels.get(key) != value for key, value in selector.items()):
        return False
    terms = required_terms(spec)
    if not terms:
        return True
    for term in terms:
        fields = {"metadata.name": kube.name(node)}
        if all(_requirement(e, node_labels) for e in term.get("matchExpressions") or []) and all(
            _requirement(e, fields) for e in term.get("matchFields") or []
        ):
            return True
    return False


def selects_master(spec: dict[str, Any]) -> bool:
    if MASTER in (spec.get("nodeSelector") or {}):
        return True
    return any(
        expression.get("key") == MASTER and expression.get("operator") in ("In", "Exists")
        for term in required_terms(spec)
        for expression in term.get("matchExpressions") or []
    )


@check(PATTERN, "deprecated-master-label", requires=("Node", *KINDS))
def deprecated_master_label(snapshot: Snapshot) -> list[Gap]:
    if any(MASTER in kube.labels(node) for node in snapshot.of("Node")):
        return []
    return [
        Gap(
            (kube.ref(workload),),
            Text(
                f"selects nodes by {MASTER}, which no node carries (removed in Kubernetes 1.24; "
                "use node-role.kubernetes.io/control-plane).",
                f"{MASTER} 라벨로 노드를 고르는데 이 라벨을 가진 노드가 없다 (쿠버네티스 1.24 에서 "
                "빠졌다. node-role.kubernetes.io/control-plane 을 쓴다).",
            ),
            severity="high",
        )
        for workload in kube.workloads(snapshot, *KINDS)
        if selects_master(kube.pod_spec(workload))
    ]


@check(PATTERN, "selector-matches-no-node", requires=("Node", *KINDS))
def selector_matches_no_node(snapshot: Snapshot) -> list[Gap]:
    nodes = snapshot.of("Node")
    gaps = []
    for workload in kube.workloads(snapshot, *KINDS):
        spec = kube.pod_spec(workload)
        if not (spec.get("nodeSelector") or required_terms(spec)):
            continue
        if selects_master(spec) and not any(MASTER in kube.labels(n) for n in nodes):
            continue  # reported by deprecated-master-label
        if any(node_matches(spec, node) for node in nodes):
            continue
        gaps.append(
            Gap(
                (kube.ref(workload),),
                Text(
                    f"its required nodeSelector/nodeAffinity matches none of the {len(nodes)} "
                    "nodes: its pods cannot be placed anywhere.",
                    f"필수 nodeSelector/nodeAffinity 가 노드 {len(nodes)}대 어느 것과도 맞지 않아 "
                    "파드를 어디에도 놓을 수 없다.",
                ),
            )
        )
    return gaps
