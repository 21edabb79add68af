"""no-spare-capacity: no room left to replace a replica or absorb a lost node (IL-0129)."""

from __future__ import annotations

from collections import defaultdict

from app.checks import kube
from app.checks.index import desired_replicas
from app.checks.quantity import format_bytes, format_cpu
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.scheduling import can_host
from app.checks.snapshot import Snapshot

PATTERN = "no-spare-capacity"
RESOURCES = ("cpu", "memory", kube.GPU)


def free_resources(snapshot: Snapshot) -> dict[str, dict[str, float]]:
    """allocatable minus the requests of the pods on each node."""
    used: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for pod in kube.active_pods(snapshot):
        for key in RESOURCES:
            used[kube.pod_node(pod)][key] += kube.effective(kube.pod_spec(pod), "requests", key)
    return {
        kube.name(node): {
            k: kube.allocatable(node, k) - used[kube.name(node)][k] for k in RESOURCES
        }
        for node in snapshot.of("Node")
    }


def _describe(need: dict[str, float]) -> str:
    parts = []
    if need["cpu"]:
        parts.append(f"cpu {format_cpu(need['cpu'])}")
    if need["memory"]:
        parts.append(f"memory {format_bytes(need['memory'])}")
    if need[kube.GPU]:
        parts.append(f"{need[kube.GPU]:g} GPU")
    return ", ".join(parts)


@check(
    PATTERN, "replica-cannot-fit", requires=("Node", "Pod"), covers=("Deployment", "StatefulSet")
)
def replica_cannot_fit(snapshot: Snapshot) -> list[Gap]:
    free = free_resources(snapshot)
    nodes = snapshot.of("Node")
    gaps = []
    for workload in kube.workloads(snapshot, "Deployment", "StatefulSet"):
        spec = kube.pod_spec(workload)
        need = {key: kube.effective(spec, "requests", key) for key in RESOURCES}
        if desired_replicas(workload) < 1 or not any(need.values()):
            continue
        fits = any(
            can_host(spec, node)
            and all(free[kube.name(node)][k] >= need[k] for k in RESOURCES if need[k])
            for node in nodes
        )
        if not fits:
            gaps.append(
                Gap(
                    (kube.ref(workload),),
                    Text(
                        f"no schedulable node has {_describe(need)} free for one more replica: "
                        "a rollout surge or a replacement after a node loss stays Pending.",
                        f"복제본 하나에 필요한 자원({_describe(need)})을 비워 둔 노드가 없다. "
                        "롤아웃 중 추가 파드나 노드를 잃은 뒤의 대체 파드가 Pending 에 머문다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "degraded-capacity", covers=("Node", "Pod"))
def degraded_capacity(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for node in snapshot.of("Node"):
        ready = kube.condition(node, "Ready")
        if ready is None:
            state = Text(
                "without a Ready condition (its kubelet has never reported)",
                "Ready 조건이 없는 상태(kubelet 이 한 번도 보고하지 않았다)",
            )
        elif ready == "Unknown":
            state = Text(
                "Ready Unknown (its kubelet stopped reporting)",
                "Ready 가 Unknown 인 상태(kubelet 이 보고를 멈췄다)",
            )
        elif ready != "True":
            state = Text("NotReady", "NotReady 상태")
        elif kube.dig(node, "spec", "unschedulable"):
            state = Text("cordoned (unschedulable)", "cordon 되어 스케줄링에서 빠진 상태")
        else:
            continue
        gaps.append(
            Gap(
                (kube.ref(node),),
                Text(
                    f"the node is {state.en}: its capacity is out of the pool.",
                    f"노드가 {state.ko}라 그 용량이 쓸 수 있는 자원에서 빠져 있다.",
                ),
            )
        )
    for pod in snapshot.of("Pod"):
        scheduled = kube.condition_item(pod, "PodScheduled") or {}
        message = str(scheduled.get("message") or "")
        if scheduled.get("status") == "False" and "Insufficient" in message:
            gaps.append(
                Gap(
                    (kube.ref(pod),),
                    Text(
                        f"Pending: {message}",
                        f"Pending 상태다: {message}",
                    ),
                )
            )
    return gaps


MIN_GANG_NODES = 2


@check(PATTERN, "no-free-gpu-node", requires=("Node", "Pod"))
def no_free_gpu_node(snapshot: Snapshot) -> list[Gap]:
    nodes = kube.nodes_by_name(snapshot)
    pods = kube.active_pods(snapshot)
    used: dict[str, float] = defaultdict(float)
    for pod in pods:
        used[kube.pod_node(pod)] += kube.effective(kube.pod_spec(pod), "requests", kube.GPU)
    # Owners whose pods each take every GPU of the node they run on, on several nodes.
    gangs: dict[ObjectRef, dict[str, float]] = defaultdict(dict)
    for pod in pods:
        node = nodes.get(kube.pod_node(pod))
        owner = kube.owner(pod)
        gpus = kube.effective(kube.pod_spec(pod), "requests", kube.GPU)
        if node is None or owner is None or gpus <= 0 or kube.is_terminated(pod):
            continue
        if gpus >= kube.allocatable(node, kube.GPU):
            gangs[owner][kube.name(node)] = gpus
    gaps = []
    for owner, placed in sorted(gangs.items()):
        if len(placed) < MIN_GANG_NODES:
            continue
        per_pod = max(placed.values())
        spare = [
            name
            for name, node in nodes.items()
            if kube.node_schedulable(node)
            and kube.allocatable(node, kube.GPU) >= per_pod
            and used[name] == 0
        ]
        if spare:
            continue
        gaps.append(
            Gap(
                (owner,),
                Text(
                    f"a gang of {len(placed)} pods takes all {per_pod:g} GPUs of each of its "
                    "nodes, and no Ready, schedulable GPU node is left fully free: when one "
                    "of its nodes fails, the whole job waits for a repair instead of "
                    "restarting on a spare.",
                    f"파드 {len(placed)}개로 된 묶음 작업이 노드마다 GPU {per_pod:g}개를 모두 "
                    "쓰는데, Ready 이고 스케줄 가능하면서 GPU 가 전부 빈 노드가 하나도 없다. "
                    "노드 하나가 고장 나면 작업 전체가 예비 노드에서 다시 시작하지 못하고 "
                    "수리를 기다린다.",
                ),
            )
        )
    return gaps
