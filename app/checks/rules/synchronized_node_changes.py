"""synchronized-node-changes: one OS change reaching every node at once."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime, timedelta

from app.checks import kube
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Snapshot

PATTERN = "synchronized-node-changes"
WINDOW = timedelta(minutes=15)
SYNC_SHARE, MIN_NODES = 0.3, 3
POOL_LABELS = (
    "eks.amazonaws.com/nodegroup",
    "cloud.google.com/gke-nodepool",
    "kubernetes.azure.com/agentpool",
    "karpenter.sh/nodepool",
    "node.kubernetes.io/pool",
)


@check(PATTERN, "synchronized-ready-transitions", requires=("Node",))
def synchronized_ready_transitions(snapshot: Snapshot) -> list[Gap]:
    nodes = snapshot.of("Node")
    times: list[datetime] = sorted(
        when
        for node in nodes
        if (
            when := kube.timestamp(
                (kube.condition_item(node, "Ready") or {}).get("lastTransitionTime")
            )
        )
    )
    best, start = 0, 0
    for end, when in enumerate(times):
        while when - times[start] > WINDOW:
            start += 1
        if end - start + 1 > best:
            best, first = end - start + 1, times[start]
    if len(nodes) < MIN_NODES or best < SYNC_SHARE * len(nodes) or best < MIN_NODES:
        return []
    at = first.strftime("%Y-%m-%d %H:%M UTC")
    return [
        Gap(
            (),
            Text(
                f"{best} of {len(nodes)} nodes last changed Ready within 15 minutes from {at}: "
                "something touched the fleet at once.",
                f"노드 {len(nodes)}대 중 {best}대의 Ready 상태가 {at} 부터 15분 안에 한꺼번에 "
                "바뀌었다. 무언가가 노드 전체를 동시에 건드렸다.",
            ),
            scope="cluster",
        )
    ]


@check(PATTERN, "kernel-drift-in-pool", requires=("Node",))
def kernel_drift_in_pool(snapshot: Snapshot) -> list[Gap]:
    kernels: dict[tuple[str, str], set[str]] = defaultdict(set)
    for node in snapshot.of("Node"):
        for label in POOL_LABELS:
            if pool := kube.labels(node).get(label):
                kernel = kube.dig(node, "status", "nodeInfo", "kernelVersion")
                kernels[(label, pool)].add(str(kernel))
                break
    return [
        Gap(
            (),
            Text(
                f"nodes of pool {pool} run {len(found)} kernels ({', '.join(sorted(found))}): "
                "updates are landing that nobody rolled out on purpose.",
                f"노드 풀 {pool} 의 노드가 커널 {len(found)}가지({', '.join(sorted(found))})로 "
                "돈다. 누구도 의도해서 배포하지 않은 업데이트가 들어오고 있다.",
            ),
            scope="node-pool",
            subject=pool,
        )
        for (_, pool), found in sorted(kernels.items())
        if len(found) > 1
    ]


SAME_OS_SHARE = 0.9


@check(PATTERN, "os-homogeneity", requires=("Node",))
def os_homogeneity(snapshot: Snapshot) -> list[Gap]:
    nodes = snapshot.of("Node")
    groups: Counter[tuple[str, str]] = Counter(
        (
            str(kube.dig(node, "status", "nodeInfo", "osImage") or "unknown"),
            str(kube.dig(node, "status", "nodeInfo", "kernelVersion") or "unknown"),
        )
        for node in nodes
        if kube.dig(node, "status", "nodeInfo")
    )
    if len(nodes) < MIN_NODES or not groups:
        return []
    (image, kernel), count = groups.most_common(1)[0]
    if count < SAME_OS_SHARE * len(nodes):
        return []
    return [
        Gap(
            (),
            Text(
                f"{count} of {len(nodes)} nodes ({count / len(nodes):.0%}) run {image} with "
                f"kernel {kernel}: one OS or kernel update, or one automatic package update, "
                "reaches all of them the same way (the blast radius of that update).",
                f"노드 {len(nodes)}대 중 {count}대({count / len(nodes):.0%})가 {image}, 커널 "
                f"{kernel} 로 돈다. OS 나 커널 업데이트, 자동 패키지 업데이트 하나가 이 노드 "
                "모두에 똑같이 닿는다 (그 업데이트의 영향 범위다).",
            ),
            scope="cluster",
        )
    ]
