"""service-without-ready-endpoints: Services backed by no ready pod, or by one (IL-0242)."""

from __future__ import annotations

from app.checks import kube
from app.checks.index import index
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Snapshot

PATTERN = "service-without-ready-endpoints"


@check(PATTERN, "service-ready-endpoints", requires=("Service", "Pod"))
def service_ready_endpoints(snapshot: Snapshot) -> list[Gap]:
    found = index(snapshot)
    gaps = []
    for service in snapshot.of("Service"):
        selector = kube.dig(service, "spec", "selector") or {}
        if not selector or kube.dig(service, "spec", "type") == "ExternalName":
            continue  # endpoints managed by hand, or no endpoints at all by design
        matching = found.select(kube.namespace(service), {"matchLabels": selector})
        if matching and not any(kube.dig(p, "status", "phase") for p in matching):
            continue  # pod manifests, not yet running: whether they get ready cannot be seen
        ready = [p for p in matching if kube.is_running_ready(p)]
        if len(ready) >= 2:
            continue
        if not ready:
            why = Text(
                "no Running and Ready pod matches its selector: every connection to it fails "
                "(a mesh or ingress may keep routing to pods that are gone).",
                "셀렉터에 맞는 Running·Ready 파드가 하나도 없어 이 Service 로 가는 연결이 모두 "
                "실패한다 (메시나 인그레스가 사라진 파드로 계속 보낼 수도 있다).",
            )
            severity = "high"
        else:
            why = Text(
                f"a single ready endpoint (pod {kube.name(ready[0])} on node "
                f"{kube.pod_node(ready[0]) or '?'}): one restart, eviction or node drain takes "
                "the Service down.",
                f"준비된 엔드포인트가 하나뿐이다 (노드 {kube.pod_node(ready[0]) or '?'} 의 파드 "
                f"{kube.name(ready[0])}). 재시작이나 축출, 노드 드레인 한 번에 Service 가 멈춘다.",
            )
            severity = "medium"
        gaps.append(Gap((kube.ref(service),), why, severity=severity))
    return gaps
