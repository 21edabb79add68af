"""cluster-dns-fragile: cluster DNS that one node, one limit or one upstream can take down."""

from __future__ import annotations

import re

from app.checks import kube
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


@check(PATTERN, "dns-replicas", requires=("Deployment", "Pod"))
def dns_replicas(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    pdbs = snapshot.of("PodDisruptionBudget")
    for deployment in dns_deployments(snapshot):
        pods = [
            p
            for p in snapshot.of("Pod")
            if kube.owner(p) == kube.ref(deployment) and kube.is_running_ready(p)
        ]
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
        if snapshot.has("PodDisruptionBudget") and not kube.covered_by_pdb(deployment, pdbs):
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
