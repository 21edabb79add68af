"""node-overcommit: nodes whose pods may use far more than the node has (IL-0094, IL-0036)."""

from __future__ import annotations

from collections import defaultdict

from app.checks import kube
from app.checks.quantity import format_bytes
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "node-overcommit"
WARN_RATIO, HIGH_RATIO = 2.0, 4.0
BESTEFFORT_SHARE, BESTEFFORT_MIN = 0.5, 3
PRESSURE = ("MemoryPressure", "DiskPressure", "PIDPressure")
PRESSURE_TAINTS = (
    "node.kubernetes.io/memory-pressure",
    "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/pid-pressure",
)


def memory_limit(pod: Obj) -> float | None:
    """Sum of container memory limits, None when any container has none (unbounded)."""
    limits = [kube.resource(c, "limits", "memory") for c in kube.containers(kube.pod_spec(pod))]
    if any(limit is None for limit in limits):
        return None
    return sum(limit or 0.0 for limit in limits)


@check(PATTERN, "memory-limit-overcommit", requires=("Node", "Pod"))
def memory_limit_overcommit(snapshot: Snapshot) -> list[Gap]:
    pods_on: dict[str, list[Obj]] = defaultdict(list)
    for pod in kube.active_pods(snapshot):
        pods_on[kube.pod_node(pod)].append(pod)
    gaps = []
    for node in snapshot.of("Node"):
        node_name, memory = kube.name(node), kube.allocatable(node, "memory")
        limits = [memory_limit(pod) for pod in pods_on[node_name]]
        total = sum(limit or 0.0 for limit in limits)
        unbounded = sum(limit is None for limit in limits)
        if memory <= 0 or total / memory < WARN_RATIO:
            continue
        ratio = total / memory
        gaps.append(
            Gap(
                (ObjectRef("Node", "", node_name),),
                Text(
                    f"memory limits add up to {format_bytes(total)}, {ratio:.1f}x the "
                    f"{format_bytes(memory)} allocatable; {unbounded} more pod(s) have no "
                    "memory limit at all.",
                    f"메모리 한도 합({format_bytes(total)})이 할당 가능량({format_bytes(memory)})"
                    f"의 {ratio:.1f}배다. 메모리 한도가 아예 없는 파드도 {unbounded}개 더 있다.",
                ),
                severity="high" if ratio >= HIGH_RATIO else "medium",
            )
        )
    return gaps


@check(PATTERN, "besteffort-share", requires=("Pod",))
def besteffort_share(snapshot: Snapshot) -> list[Gap]:
    by_namespace: dict[str, list[Obj]] = defaultdict(list)
    for pod in kube.active_pods(snapshot):
        by_namespace[kube.namespace(pod)].append(pod)
    gaps = []
    for namespace, pods in sorted(by_namespace.items()):
        besteffort = sum(kube.qos_class(pod) == "BestEffort" for pod in pods)
        if besteffort >= BESTEFFORT_MIN and besteffort / len(pods) >= BESTEFFORT_SHARE:
            gaps.append(
                Gap(
                    (ObjectRef("Namespace", "", namespace),),
                    Text(
                        f"{besteffort} of {len(pods)} running pods are BestEffort (no requests "
                        "or limits): the scheduler reserves nothing for them.",
                        f"실행 중인 파드 {len(pods)}개 중 {besteffort}개가 BestEffort 라 요청도 "
                        "한도도 없고, 스케줄러가 이들 몫을 전혀 잡아 두지 않는다.",
                    ),
                )
            )
    return gaps


def has_default_limits(limit_range: Obj) -> bool:
    return any(
        item.get("type") == "Container" and (item.get("default") or item.get("defaultRequest"))
        for item in kube.dig(limit_range, "spec", "limits") or []
    )


@check(
    PATTERN,
    "namespace-without-guardrails",
    requires=("Namespace", "Pod", "ResourceQuota", "LimitRange"),
)
def namespace_without_guardrails(snapshot: Snapshot) -> list[Gap]:
    running: dict[str, int] = defaultdict(int)
    for pod in kube.active_pods(snapshot):
        running[kube.namespace(pod)] += 1
    guarded = {kube.namespace(quota) for quota in snapshot.of("ResourceQuota")}
    guarded |= {kube.namespace(lr) for lr in snapshot.of("LimitRange") if has_default_limits(lr)}
    gaps = []
    for namespace in snapshot.of("Namespace"):
        namespace_name = kube.name(namespace)
        if namespace_name.startswith("kube-") or namespace_name in guarded:
            continue
        if running[namespace_name]:
            gaps.append(
                Gap(
                    (kube.ref(namespace),),
                    Text(
                        f"{running[namespace_name]} running pods and neither a ResourceQuota nor "
                        "a LimitRange with default requests/limits.",
                        f"파드 {running[namespace_name]}개가 도는데 ResourceQuota 도, 기본 요청과 "
                        "한도를 주는 LimitRange 도 없다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "node-pressure", requires=("Node",))
def node_pressure(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for node in snapshot.of("Node"):
        found = [kind for kind in PRESSURE if kube.condition(node, kind) == "True"]
        taints = {t.get("key") for t in kube.dig(node, "spec", "taints") or []}
        found += [key.rsplit("/", 1)[1] + " taint" for key in PRESSURE_TAINTS if key in taints]
        if found:
            listed = ", ".join(found)
            gaps.append(
                Gap(
                    (kube.ref(node),),
                    Text(
                        f"the node reports {listed}: the kubelet is already evicting or "
                        "refusing pods.",
                        f"노드가 {listed} 상태를 알리고 있다. kubelet 이 이미 파드를 쫓아내거나 "
                        "받지 않고 있다.",
                    ),
                )
            )
    return gaps


LONG_RUNNING = ("Deployment", "StatefulSet", "DaemonSet")


@check(PATTERN, "memory-limits-missing", covers=(*LONG_RUNNING, "Pod"), optional=("LimitRange",))
def memory_limits_missing(snapshot: Snapshot) -> list[Gap]:
    defaulted = {
        kube.namespace(limit_range)
        for limit_range in snapshot.of("LimitRange")
        for item in kube.dig(limit_range, "spec", "limits") or []
        if item.get("type") == "Container" and "memory" in (item.get("default") or {})
    }
    gaps = []
    for workload, subject in kube.judged(snapshot, *LONG_RUNNING):
        if kube.namespace(workload) in defaulted:
            continue
        missing = kube.containers_lacking(
            workload, lambda c: kube.resource(c, "limits", "memory") is None
        )
        if missing:
            names = ", ".join(missing)
            gaps.append(
                Gap(
                    (subject,),
                    Text(
                        f"container(s) {names} have no memory limit and no LimitRange default: "
                        "a leak or a spike grows until the node runs out, and the kernel OOM "
                        "killer and kubelet evictions hit its neighbours too.",
                        f"컨테이너 {names} 에 메모리 한도가 없고 LimitRange 기본값도 없다. 누수나 "
                        "급증이 노드 메모리가 바닥날 때까지 커지고, 커널 OOM killer 와 kubelet "
                        "축출이 이웃 파드까지 친다.",
                    ),
                )
            )
    return gaps
