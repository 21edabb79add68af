"""priority-preemption-surprise: tenant pods that can preempt the platform."""

from __future__ import annotations

from app.checks import kube
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Snapshot


@check("priority-preemption-surprise", "user-priority-above-platform", requires=("Pod",))
def user_priority_above_platform(snapshot: Snapshot) -> list[Gap]:
    pods = kube.active_pods(snapshot)
    platform = [kube.priority(p) for p in pods if kube.is_platform_pod(p)]
    if not platform:
        return []
    lowest = min(platform)
    found: dict[ObjectRef, int] = {}
    for pod in pods:
        mine = kube.priority(pod)
        if kube.is_platform_pod(pod) or mine <= 0 or mine < lowest:
            continue
        if kube.dig(pod, "spec", "preemptionPolicy") == "Never":
            continue
        subject = kube.owner(pod) or kube.ref(pod)
        found[subject] = max(found.get(subject, mine), mine)
    return [
        Gap(
            (subject,),
            Text(
                f"tenant priority {mine} is at or above platform priority {lowest}: these pods "
                "can preempt platform pods when the cluster is full.",
                f"사용자 파드의 우선순위({mine})가 플랫폼 파드의 가장 낮은 우선순위({lowest}) "
                f"이상이라, 클러스터가 차면 "
                "플랫폼 파드를 밀어낼 수 있다.",
            ),
        )
        for subject, mine in sorted(found.items())
    ]


LARGE_SHARE = 0.25
SIZED_RESOURCES = ("cpu", "memory", kube.GPU)


@check("priority-preemption-surprise", "large-preemptors", requires=("Pod", "Node"))
def large_preemptors(snapshot: Snapshot) -> list[Gap]:
    nodes = kube.nodes_by_name(snapshot)
    if not nodes:
        return []
    biggest = {
        key: max(kube.allocatable(n, key) for n in nodes.values()) for key in SIZED_RESOURCES
    }
    found: dict[ObjectRef, tuple[int, str, float]] = {}
    for pod in kube.active_pods(snapshot):
        mine = kube.priority(pod)
        if mine <= 0 or kube.dig(pod, "spec", "preemptionPolicy") == "Never":
            continue
        node = nodes.get(kube.pod_node(pod))
        shares = []
        for key in SIZED_RESOURCES:
            size = kube.allocatable(node, key) if node is not None else biggest[key]
            request = kube.effective(kube.pod_spec(pod), "requests", key)
            if size > 0 and request > 0:
                shares.append((request / size, key))
        if not shares:
            continue
        share, key = max(shares)
        subject = kube.owner(pod) or kube.ref(pod)
        if share >= LARGE_SHARE and share > found.get(subject, (0, "", 0.0))[2]:
            found[subject] = (mine, key, share)
    return [
        Gap(
            (subject,),
            Text(
                f"priority {mine} with the default PreemptLowerPriority, and each pod requests "
                f"{share:.0%} of a node's {key}: placing one of them can evict several "
                "lower-priority pods at once.",
                f"우선순위가 {mine} 이고 preemptionPolicy 가 기본값 PreemptLowerPriority 인데, "
                f"파드 하나가 노드 {key} 의 {share:.0%} 를 요청한다. 하나를 놓을 때마다 우선순위가 "
                "낮은 파드 여럿이 한꺼번에 쫓겨날 수 있다.",
            ),
        )
        for subject, (mine, key, share) in sorted(found.items())
    ]
