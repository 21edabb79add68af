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
