"""cluster-dns-fragile: cluster DNS that one node, one limit or one upstream can take down."""

from __future__ import annotations

import re

from app.checks import kube
from app.checks.index import covered_by_pdb, desired_replicas, pods_of, targeted_by_hpa
from app.checks.quantity import MIB, format_bytes
from app.checks.registry import Gap, NotEvaluable, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "cluster-dns-fragile"
DNS_NAMES = ("coredns", "kube-dns")
MIN_MEMORY_LIMIT = 256 * MIB
MANY_NODES = 50


def dns_deployments(snapshot: Snapshot) -> list[Obj]:
    found = [
        d
        for d in snapshot.of("Deployment")
        if kube.namespace(d) == "kube-system" and kube.name(d) in DNS_NAMES
    ]
    if not found:
        raise NotEvaluable(
            Text(
                "no coredns or kube-dns Deployment in kube-system",
                "kube-system 에 coredns 나 kube-dns Deployment 가 없다",
            )
        )
    return found


@check(PATTERN, "dns-replicas", requires=("Deployment", "Pod"), optional=("PodDisruptionBudget",))
def dns_replicas(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for deployment in dns_deployments(snapshot):
        pods = [p for p in pods_of(snapshot, kube.ref(deployment)) if kube.is_running_ready(p)]
        nodes = {kube.pod_node(p) for p in pods}
        problems: list[Text] = []
        if len(pods) < 2:
            problems.append(
                Text(f"only {len(pods)} ready replica(s)", f"Ready 복제본이 {len(pods)}개뿐이다")
            )
        elif len(nodes) == 1:
            only = next(iter(nodes))
            problems.append(
                Text(
                    f"all {len(pods)} ready replicas on node {only}",
                    f"Ready 복제본 {len(pods)}개가 모두 노드 {only} 에 있다",
                )
            )
        if snapshot.has("PodDisruptionBudget") and not covered_by_pdb(deployment, snapshot):
            problems.append(Text("no PodDisruptionBudget", "PodDisruptionBudget 이 없다"))
        if problems:
            en = "; ".join(p.en for p in problems)
            ko = ", ".join(p.ko for p in problems)
            gaps.append(
                Gap(
                    (kube.ref(deployment),),
                    Text(
                        f"{en}: one node loss or drain stops name resolution for every pod.",
                        f"{ko}. 노드 하나를 잃거나 비우면 모든 파드의 이름 조회가 멈춘다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "dns-memory-limit", requires=("Deployment", "Node"))
def dns_memory_limit(snapshot: Snapshot) -> list[Gap]:
    nodes = len(snapshot.of("Node"))
    gaps = []
    for deployment in dns_deployments(snapshot):
        for container in kube.containers(kube.pod_spec(deployment)):
            limit = kube.resource(container, "limits", "memory")
            if limit is not None and limit < MIN_MEMORY_LIMIT and nodes >= MANY_NODES:
                gaps.append(
                    Gap(
                        (kube.ref(deployment),),
                        Text(
                            f"container {container.get('name')} has a {format_bytes(limit)} "
                            f"memory limit with {nodes} nodes: a query spike gets it OOMKilled.",
                            f"노드가 {nodes}대인데 컨테이너 {container.get('name')} 의 메모리 "
                            f"한도({format_bytes(limit)})가 작아 질의가 몰리면 OOMKilled 된다.",
                        ),
                    )
                )
    return gaps


def server_blocks(corefile: str) -> list[str]:
    """The top-level `zone { ... }` blocks of a Corefile."""
    blocks, depth, current = [], 0, ""
    for char in corefile:
        current += char
        depth += char == "{"
        depth -= char == "}"
        if char == "}" and depth == 0:
            blocks.append(current)
            current = ""
    return blocks


@check(PATTERN, "corefile", requires=("ConfigMap",))
def corefile(snapshot: Snapshot) -> list[Gap]:
    maps = [
        cm
        for cm in snapshot.of("ConfigMap")
        if kube.namespace(cm) == "kube-system" and kube.name(cm) == "coredns"
    ]
    if not maps:
        raise NotEvaluable(
            Text("no coredns ConfigMap in kube-system", "kube-system 에 coredns ConfigMap 이 없다")
        )
    gaps = []
    text = str(kube.dig(maps[0], "data", "Corefile") or "")
    for block in server_blocks(text):
        if not block.strip().startswith((".:", ". ")):
            continue
        problems = []
        if not re.search(r"^\s*cache\b", block, re.MULTILINE):
            problems.append("no cache plugin")
        forward = re.search(r"^\s*forward\s+\.\s+([^{\n]+)", block, re.MULTILINE)
        upstreams = forward.group(1).split() if forward else []
        if forward and len(upstreams) == 1 and upstreams[0] != "/etc/resolv.conf":
            problems.append(f"forwards to a single upstream {upstreams[0]}")
        if problems:
            listed = "; ".join(problems)
            gaps.append(
                Gap(
                    (kube.ref(maps[0]),),
                    Text(
                        f"the root zone of the Corefile has {listed}.",
                        f"Corefile 의 루트 영역에 문제가 있다: {listed}.",
                    ),
                )
            )
    return gaps


MANY_PODS = 1000
AUTOSCALER_NAMES = ("kube-dns-autoscaler", "coredns-autoscaler", "dns-autoscaler")
AUTOSCALER_IMAGE = "cluster-proportional-autoscaler"


def scales(autoscaler: Obj, target: Obj) -> bool:
    """A cluster-proportional autoscaler Deployment that targets the DNS Deployment."""
    if kube.name(autoscaler) in AUTOSCALER_NAMES:
        return True
    for container in kube.containers(kube.pod_spec(autoscaler)):
        if AUTOSCALER_IMAGE not in str(container.get("image", "")):
            continue
        words = [str(w) for w in (container.get("command") or []) + (container.get("args") or [])]
        if any(w.startswith("--target=") and w.endswith("/" + kube.name(target)) for w in words):
            return True
    return False


@check(PATTERN, "dns-autoscaling", requires=("Deployment", "Pod", "HorizontalPodAutoscaler"))
def dns_autoscaling(snapshot: Snapshot) -> list[Gap]:
    pods = len(kube.active_pods(snapshot))
    if pods < MANY_PODS:
        return []
    gaps = []
    for deployment in dns_deployments(snapshot):
        if targeted_by_hpa(deployment, snapshot):
            continue
        if any(scales(other, deployment) for other in snapshot.of("Deployment")):
            continue
        replicas = desired_replicas(deployment)
        gaps.append(
            Gap(
                (kube.ref(deployment),),
                Text(
                    f"{pods} pods resolve names through {replicas} fixed DNS replica(s), with no "
                    "cluster-proportional autoscaler and no HPA: DNS capacity stays put while "
                    "the cluster and its query load grow.",
                    f"파드 {pods}개가 고정된 DNS 복제본 {replicas}개로 이름을 조회하는데 "
                    "cluster-proportional autoscaler 도 HPA 도 없다. 클러스터와 질의량이 "
                    "커져도 DNS 용량은 그대로다.",
                ),
            )
        )
    return gaps


MANY_NODES_FOR_CACHE = 100
NODELOCAL_NAMES = ("node-local-dns", "nodelocaldns")
NODELOCAL_IMAGE = "k8s-dns-node-cache"


def is_nodelocal_dns(daemonset: Obj) -> bool:
    if kube.name(daemonset) in NODELOCAL_NAMES:
        return True
    return any(
        NODELOCAL_IMAGE in str(c.get("image", ""))
        for c in kube.containers(kube.pod_spec(daemonset))
    )


@check(PATTERN, "nodelocal-dns", requires=("DaemonSet", "Node"))
def nodelocal_dns(snapshot: Snapshot) -> list[Gap]:
    nodes = len(snapshot.of("Node"))
    if nodes < MANY_NODES_FOR_CACHE or any(map(is_nodelocal_dns, snapshot.of("DaemonSet"))):
        return []
    return [
        Gap(
            (),
            Text(
                f"{nodes} nodes and no NodeLocal DNSCache DaemonSet: every lookup from every "
                "node goes over the network to the cluster DNS pods (and conntrack), with no "
                "per-node cache to absorb a spike.",
                f"노드가 {nodes}대인데 NodeLocal DNSCache DaemonSet 이 없다. 모든 노드의 모든 "
                "조회가 네트워크(와 conntrack)를 거쳐 클러스터 DNS 파드로 가고, 급증을 받아 줄 "
                "노드별 캐시가 없다.",
            ),
            scope="cluster",
        )
    ]


LARGE_DAEMONSET = 100


def ndots_overridden(spec: dict[str, object]) -> bool:
    options = kube.dig(spec, "dnsConfig", "options") or []
    return any(isinstance(o, dict) and o.get("name") == "ndots" for o in options)


@check(PATTERN, "ds-dns-fanout", requires=("DaemonSet",))
def ds_dns_fanout(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for daemonset in snapshot.of("DaemonSet"):
        spec = kube.pod_spec(daemonset)
        pods = int(kube.dig(daemonset, "status", "desiredNumberScheduled") or 0)
        if pods < LARGE_DAEMONSET or spec.get("hostNetwork") or is_nodelocal_dns(daemonset):
            continue
        if spec.get("dnsPolicy", "ClusterFirst") != "ClusterFirst" or ndots_overridden(spec):
            continue
        gaps.append(
            Gap(
                (kube.ref(daemonset),),
                Text(
                    f"{pods} pods resolve through cluster DNS with the default ndots:5: each "
                    "external name they look up is tried against every search domain first, "
                    f"so one lookup per pod becomes several queries times {pods}.",
                    f"파드 {pods}개가 기본값 ndots:5 로 클러스터 DNS 를 쓴다. 외부 이름 하나를 "
                    "조회할 때마다 검색 도메인을 모두 먼저 시도하므로, 파드마다 한 번의 조회가 "
                    f"여러 번의 질의가 되고 다시 {pods}배가 된다.",
                ),
            )
        )
    return gaps
