"""cpu-limit-throttling: serving containers held to a tight CPU limit."""

from __future__ import annotations

from app.checks import kube
from app.checks.quantity import format_cpu
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Snapshot

MAX_TIGHT_LIMIT = 1.0


@check("cpu-limit-throttling", "tight-cpu-limits", requires=("Deployment",))
def tight_cpu_limits(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for deployment in snapshot.of("Deployment"):
        for container in kube.containers(kube.pod_spec(deployment)):
            limit = kube.resource(container, "limits", "cpu")
            request = kube.resource(container, "requests", "cpu")
            if not container.get("ports") or limit is None or limit > MAX_TIGHT_LIMIT:
                continue
            if request is not None and request != limit:
                continue
            gaps.append(
                Gap(
                    (kube.ref(deployment),),
                    Text(
                        f"serving container {container.get('name')} has a CPU limit of "
                        f"{format_cpu(limit)} equal to its request: bursts are throttled in "
                        "100 ms CFS periods and show up as latency.",
                        f"요청을 받는 컨테이너 {container.get('name')} 의 CPU 한도가 요청과 같다 "
                        f"({format_cpu(limit)}). 순간 부하가 100ms CFS 주기마다 스로틀링되어 "
                        "지연으로 나타난다.",
                    ),
                )
            )
    return gaps
