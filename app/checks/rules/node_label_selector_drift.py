"""node-label-selector-drift: workloads selecting node labels no node has any more."""

from __future__ import annotations

from typing import Any

from app.checks import kube
from app.checks.index import pods_of
from app.checks.registry import Gap, Text, check
from app.checks.scheduling import node_matches, required_terms, requirement_matches, tolerates
from app.checks.snapshot import Obj, Snapshot

PATTERN = "node-label-selector-drift"
MASTER = "node-role.kubernetes.io/master"
KINDS = ("Deployment", "StatefulSet", "DaemonSet")


def selects_master(spec: dict[str, Any]) -> bool:
    if MASTER in (spec.get("nodeSelector") or {}):
        return True
    return any(
        expression.get("key") == MASTER and expression.get("operator") in ("In", "Exists")
        for term in required_terms(spec)
        for expression in term.get("matchExpressions") or []
    )


@check(PATTERN, "deprecated-master-label", requires=("Node",), covers=KINDS)
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


@check(PATTERN, "selector-matches-no-node", requires=("Node",), covers=KINDS)
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


CRITICAL_AGENTS = (
    "kube-proxy",
    "aws-node",
    "calico-node",
    "cilium",
    "flannel",
    "weave-net",
    "antrea-agent",
    "canal",
)
PLATFORM_KEYS = frozenset({"kubernetes.io/os", "kubernetes.io/arch", "beta.kubernetes.io/os"})
# Tolerations the DaemonSet controller adds to every DaemonSet pod.
DAEMONSET_TOLERATIONS = (
    "node.kubernetes.io/not-ready",
    "node.kubernetes.io/unreachable",
    "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/memory-pressure",
    "node.kubernetes.io/pid-pressure",
    "node.kubernetes.io/unschedulable",
    "node.kubernetes.io/network-unavailable",
)


def is_critical_agent(daemonset: Obj) -> bool:
    ds_name = kube.name(daemonset)
    return any(word in ds_name for word in CRITICAL_AGENTS) or (
        "csi" in ds_name and "node" in ds_name
    )


def meant_for(spec: dict[str, Any], node: Obj) -> bool:
    """Whether a node-level agent belongs on this node, judged only by OS/arch and exclusions.

    Other selector terms are ignored on purpose: a node agent that a drifted label keeps off
    some nodes is exactly the gap.
    """
    node_labels = kube.labels(node)
    selector = spec.get("nodeSelector") or {}
    if any(node_labels.get(k) != v for k, v in selector.items() if k in PLATFORM_KEYS):
        return False
    for term in required_terms(spec):
        for expression in term.get("matchExpressions") or []:
            excluding = expression.get("operator") in ("NotIn", "DoesNotExist")
            if (excluding or expression.get("key") in PLATFORM_KEYS) and not requirement_matches(
                expression, node_labels
            ):
                return False
    return True


def _tolerated(spec: dict[str, Any], node: Obj) -> bool:
    return all(
        taint.get("key") in DAEMONSET_TOLERATIONS or tolerates(spec, taint)
        for taint in kube.dig(node, "spec", "taints") or []
    )


@check(PATTERN, "critical-ds-gaps", requires=("DaemonSet", "Node"), optional=("Pod",))
def critical_ds_gaps(snapshot: Snapshot) -> list[Gap]:
    schedulable = [node for node in snapshot.of("Node") if kube.node_schedulable(node)]
    gaps = []
    for daemonset in snapshot.of("DaemonSet"):
        if not is_critical_agent(daemonset):
            continue
        spec = kube.pod_spec(daemonset)
        eligible = [n for n in schedulable if meant_for(spec, n) and _tolerated(spec, n)]
        status = daemonset.get("status") or {}
        scheduled = int(
            status.get("currentNumberScheduled", status.get("desiredNumberScheduled")) or 0
        )
        if scheduled >= len(eligible):
            continue
        running = {kube.pod_node(p) for p in pods_of(snapshot, kube.ref(daemonset))}
        missing = sorted(kube.name(n) for n in eligible if kube.name(n) not in running)
        named = ""
        if snapshot.has("Pod") and missing:
            shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
            named = f" ({shown})"
        gaps.append(
            Gap(
                (kube.ref(daemonset),),
                Text(
                    f"runs on {scheduled} of the {len(eligible)} schedulable nodes it should "
                    f"cover{named}: pods on the other nodes have no network proxy, CNI or "
                    "storage driver; check its nodeSelector, affinity and tolerations.",
                    f"맡아야 할 스케줄 가능 노드 {len(eligible)}대 중 {scheduled}대에서만 돈다"
                    f"{named}. 나머지 노드의 파드는 네트워크 프록시나 CNI, 스토리지 드라이버 없이 "
                    "남는다. nodeSelector, affinity, tolerations 를 확인한다.",
                ),
            )
        )
    return gaps
