"""gpu-node-health-gating: GPU nodes that return to service without a health signal."""

from __future__ import annotations

from collections import defaultdict

from app.checks import kube
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Snapshot

PATTERN = "gpu-node-health-gating"
AGENTS = {
    "device plugin": ("nvidia-device-plugin", "device-plugin"),
    "dcgm-exporter": ("dcgm-exporter", "dcgm"),
    "node-problem-detector": ("node-problem-detector",),
}


@check(PATTERN, "gpu-allocatable-drop", requires=("Node",))
def gpu_allocatable_drop(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for node in snapshot.of("Node"):
        capacity, allocatable = kube.capacity(node, kube.GPU), kube.allocatable(node, kube.GPU)
        if capacity > allocatable:
            gaps.append(
                Gap(
                    (kube.ref(node),),
                    Text(
                        f"{capacity:g} GPUs installed but {allocatable:g} allocatable: the device "
                        "plugin has marked some unhealthy, and the node still takes work.",
                        f"GPU 가 {capacity:g}개 있는데 할당 가능한 것은 {allocatable:g}개다. "
                        "디바이스 플러그인이 일부를 비정상으로 표시했는데 노드는 계속 일을 받는다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "gpu-node-missing-health-agents", requires=("Node", "Pod"))
def gpu_node_missing_health_agents(snapshot: Snapshot) -> list[Gap]:
    running: dict[str, set[str]] = defaultdict(set)
    for pod in snapshot.of("Pod"):
        if kube.dig(pod, "status", "phase") != "Running":
            continue
        text = " ".join([kube.name(pod), *kube.labels(pod).values()])
        for agent, words in AGENTS.items():
            if any(word in text for word in words):
                running[kube.pod_node(pod)].add(agent)
    gaps = []
    for node in snapshot.of("Node"):
        if not kube.is_gpu_node(node):
            continue
        missing = [agent for agent in AGENTS if agent not in running[kube.name(node)]]
        if missing:
            listed = ", ".join(missing)
            gaps.append(
                Gap(
                    (kube.ref(node),),
                    Text(
                        f"no running {listed} on this GPU node: a failing GPU is not reported "
                        "before jobs land on it.",
                        f"이 GPU 노드에 {listed} 파드가 돌고 있지 않아, GPU 가 고장 나도 작업이 "
                        "올라가기 전에 알 수 없다.",
                    ),
                )
            )
    return gaps
