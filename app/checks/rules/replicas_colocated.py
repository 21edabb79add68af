"""replicas-colocated: replicas that share one node or zone (IL-0064)."""

from __future__ import annotations

from collections import Counter, defaultdict

from app.checks import kube
from app.checks.index import covered_by_pdb, desired_replicas, pods_of_pdb
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "replicas-colocated"
SPREAD_KEYS = frozenset({kube.HOSTNAME_LABEL, kube.ZONE_LABEL, kube.LEGACY_ZONE_LABEL})
WORKLOADS = ("Deployment", "StatefulSet")


def has_spread_policy(workload: Obj) -> bool:
    """A topologySpreadConstraint or podAntiAffinity term (required or preferred) on hostname
    or zone whose selector matches the workload's own pods: a rule about other pods spreads
    nothing of this workload's."""
    spec = kube.pod_spec(workload)
    own = kube.template_labels(workload)
    for constraint in spec.get("topologySpreadConstraints") or []:
        if constraint.get("topologyKey") in SPREAD_KEYS and kube.selector_matches(
            constraint.get("labelSelector"), own
        ):
            return True
    anti = kube.dig(spec, "affinity", "podAntiAffinity") or {}
    terms = list(anti.get("requiredDuringSchedulingIgnoredDuringExecution") or [])
    terms += [
        item.get("podAffinityTerm") or {}
        for item in anti.get("preferredDuringSchedulingIgnoredDuringExecution") or []
    ]
    return any(
        term.get("topologyKey") in SPREAD_KEYS
        and kube.selector_matches(term.get("labelSelector"), own)
        and _own_namespace(term, kube.namespace(workload))
        for term in terms
    )


def _own_namespace(term: dict[str, object], namespace: str) -> bool:
    """A term's namespaces default to the pod's own; a namespaceSelector may reach it too."""
    namespaces = term.get("namespaces")
    if term.get("namespaceSelector") is not None or not namespaces:
        return True
    return namespace in namespaces  # type: ignore[operator]


def replicated(snapshot: Snapshot) -> list[tuple[Obj, int]]:
    """Deployments and StatefulSets that want two or more replicas (HPA minimum included)."""
    found = []
    for workload in kube.workloads(snapshot, "Deployment", "StatefulSet"):
        replicas = desired_replicas(workload, snapshot)
        if replicas >= 2:
            found.append((workload, replicas))
    return found


def ready_pods_by_owner(snapshot: Snapshot) -> dict[ObjectRef, list[Obj]]:
    """Running and Ready pods of Deployments and StatefulSets, grouped by owner."""
    groups: dict[ObjectRef, list[Obj]] = defaultdict(list)
    for pod in snapshot.of("Pod"):
        owner = kube.owner(pod)
        if owner and owner.kind in ("Deployment", "StatefulSet") and kube.is_running_ready(pod):
            groups[owner].append(pod)
    return groups


@check(PATTERN, "no-spread-policy", covers=WORKLOADS, optional=("HorizontalPodAutoscaler",))
def no_spread_policy(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload, replicas in replicated(snapshot):
        if has_spread_policy(workload):
            continue
        gaps.append(
            Gap(
                (kube.ref(workload),),
                Text(
                    f"{replicas} replicas and no podAntiAffinity or topologySpreadConstraints: "
                    "the scheduler may put them all on one node.",
                    f"복제본이 {replicas}개인데 podAntiAffinity 도 topologySpreadConstraints 도 "
                    "없어 스케줄러가 전부 한 노드에 놓을 수 있다.",
                ),
            )
        )
    return gaps


@check(PATTERN, "observed-node-skew", requires=("Pod",))
def observed_node_skew(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for owner, pods in sorted(ready_pods_by_owner(snapshot).items()):
        if len(pods) < 2:
            continue
        node, count = Counter(kube.pod_node(pod) for pod in pods).most_common(1)[0]
        if count * 2 > len(pods):
            gaps.append(
                Gap(
                    (owner, ObjectRef("Node", "", node)),
                    Text(
                        f"{count} of {len(pods)} ready pods run on node {node}: losing that "
                        "node takes most of the replicas.",
                        f"준비된 파드 {len(pods)}개 중 {count}개가 노드 {node} 에 있어 그 노드 "
                        "하나를 잃으면 복제본 대부분이 사라진다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "observed-zone-skew", requires=("Pod", "Node"))
def observed_zone_skew(snapshot: Snapshot) -> list[Gap]:
    nodes = kube.nodes_by_name(snapshot)
    zones = {kube.zone(node) for node in nodes.values()} - {None}
    if len(zones) < 2:
        return []
    gaps = []
    for owner, pods in sorted(ready_pods_by_owner(snapshot).items()):
        pod_zones = {kube.zone(nodes[kube.pod_node(p)]) for p in pods if kube.pod_node(p) in nodes}
        if len(pods) >= 2 and len(pod_zones) == 1 and None not in pod_zones:
            only = next(iter(pod_zones))
            gaps.append(
                Gap(
                    (owner,),
                    Text(
                        f"all {len(pods)} ready pods are in zone {only} although the nodes "
                        f"span {len(zones)} zones.",
                        f"노드가 영역 {len(zones)}곳에 걸쳐 있는데 준비된 파드 {len(pods)}개가 "
                        f"모두 {only} 영역에 있다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "cpu-requests-missing", covers=WORKLOADS, optional=("HorizontalPodAutoscaler",))
def cpu_requests_missing(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload, replicas in replicated(snapshot):
        missing = kube.containers_lacking(
            workload, lambda c: kube.resource(c, "requests", "cpu") is None
        )
        if missing:
            names = ", ".join(missing)
            gaps.append(
                Gap(
                    (kube.ref(workload),),
                    Text(
                        f"{replicas} replicas; container(s) {names} have no CPU request, so "
                        "the scheduler counts them as 0 and can pack them onto one node.",
                        f"복제본 {replicas}개의 컨테이너 {names} 에 CPU 요청이 없어 스케줄러가 "
                        "0 으로 보고 한 노드에 몰아 넣을 수 있다.",
                    ),
                )
            )
    return gaps


@check(
    PATTERN,
    "pdb-missing",
    requires=("PodDisruptionBudget",),
    covers=WORKLOADS,
    optional=("HorizontalPodAutoscaler",),
)
def pdb_missing(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload, replicas in replicated(snapshot):
        if not covered_by_pdb(workload, snapshot):
            gaps.append(
                Gap(
                    (kube.ref(workload),),
                    Text(
                        f"{replicas} replicas and no PodDisruptionBudget selects its pods: a "
                        "node drain may evict them all at once.",
                        f"복제본이 {replicas}개인데 파드를 고르는 PodDisruptionBudget 이 없어 "
                        "노드를 비울 때 한꺼번에 쫓겨날 수 있다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "pdb-blocks-drain", requires=("PodDisruptionBudget", "Pod"))
def pdb_blocks_drain(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for pdb in snapshot.of("PodDisruptionBudget"):
        status = pdb.get("status") or {}
        matched = len(pods_of_pdb(snapshot, pdb))
        if matched == 0:
            gaps.append(
                Gap(
                    (kube.ref(pdb),),
                    Text(
                        "its selector matches no pod: it protects nothing (a renamed label "
                        "or a workload that is gone).",
                        "셀렉터에 맞는 파드가 하나도 없어 아무것도 보호하지 않는다 (라벨 이름이 "
                        "바뀌었거나 워크로드가 사라졌다).",
                    ),
                    severity="low",
                )
            )
            continue
        if "disruptionsAllowed" not in status or "currentHealthy" not in status:
            continue  # the controller has not reported on it yet
        allowed = int(status.get("disruptionsAllowed") or 0)
        healthy = int(status.get("currentHealthy") or 0)
        wanted = int(status.get("desiredHealthy") or 0)
        expected = int(status.get("expectedPods") or matched)
        # At 0 only while pods are unhealthy, the budget is doing its job; at 0 with every
        # expected pod healthy, no eviction can ever pass.
        if allowed == 0 and healthy >= max(wanted, expected):
            gaps.append(
                Gap(
                    (kube.ref(pdb),),
                    Text(
                        f"disruptionsAllowed is 0 although all {healthy} expected pods are healthy "
                        f"(desiredHealthy {wanted}): no pod may ever be evicted, so every node "
                        "drain and node upgrade hangs on these pods.",
                        f"예상 파드 {healthy}개가 모두 건강한데도(desiredHealthy {wanted}) "
                        "disruptionsAllowed 가 0 이라 어떤 파드도 쫓아낼 수 없다. 노드 드레인과 "
                        "노드 업그레이드가 이 파드에서 멈춘다.",
                    ),
                )
            )
    return gaps
