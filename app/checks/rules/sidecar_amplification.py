"""sidecar-amplification: the same unbounded sidecar copied into many pods."""

from __future__ import annotations

from collections import defaultdict

from app.checks import kube
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Snapshot

SIDECAR_WORDS = ("fluent", "filebeat", "vector", "promtail", "otel", "opentelemetry")
MIN_PODS = 10


@check("sidecar-amplification", "unbounded-sidecars", requires=("Pod",))
def unbounded_sidecars(snapshot: Snapshot) -> list[Gap]:
    pods_with: dict[str, int] = defaultdict(int)
    cpu_requests: dict[str, float] = defaultdict(float)
    total_cpu = 0.0
    for pod in kube.active_pods(snapshot):
        spec = kube.pod_spec(pod)
        total_cpu += kube.effective(spec, "requests", "cpu")
        if len(kube.containers(spec)) < 2:
            continue
        for container in kube.containers(spec):
            text = f"{container.get('name')} {container.get('image')}"
            if not any(word in text for word in SIDECAR_WORDS):
                continue
            unbounded = any(
                kube.resource(container, "limits", key) is None for key in ("cpu", "memory")
            )
            if unbounded:
                pods_with[str(container.get("name"))] += 1
                cpu_requests[str(container.get("name"))] += (
                    kube.resource(container, "requests", "cpu") or 0.0
                )
    gaps = []
    for sidecar, count in sorted(pods_with.items()):
        if count < MIN_PODS:
            continue
        share = cpu_requests[sidecar] / total_cpu if total_cpu else 0.0
        gaps.append(
            Gap(
                (ObjectRef("Container", "", sidecar),),
                Text(
                    f"sidecar {sidecar} runs in {count} pods without a CPU or memory limit "
                    f"({share:.0%} of all CPU requests): one backend problem makes all of "
                    "them busy at once.",
                    f"사이드카({sidecar})가 파드 {count}개에서 CPU 나 메모리 한도 없이 돈다 "
                    f"(전체 CPU 요청의 {share:.0%}). 백엔드 문제 하나로 이들이 한꺼번에 바빠진다.",
                ),
            )
        )
    return gaps
