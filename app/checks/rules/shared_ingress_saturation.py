"""shared-ingress-saturation: one shared ingress controller with no headroom."""

from __future__ import annotations

from app.checks import kube
from app.checks.index import covered_by_pdb, desired_replicas, pods_of, targeted_by_hpa
from app.checks.quantity import format_bytes
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "shared-ingress-saturation"
CONTROLLERS = ("ingress-nginx", "skipper", "traefik", "contour", "envoy", "haproxy", "kong")
MIN_REPLICAS = 3


def is_ingress_controller(deployment: Obj) -> bool:
    text = " ".join([kube.name(deployment), *kube.template_labels(deployment).values()])
    return any(word in text for word in CONTROLLERS)


@check(
    PATTERN,
    "ingress-controller-ha",
    requires=("Deployment",),
    optional=("Pod", "HorizontalPodAutoscaler", "PodDisruptionBudget"),
)
def ingress_controller_ha(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for deployment in snapshot.of("Deployment"):
        if not is_ingress_controller(deployment):
            continue
        problems = Text("", "")
        replicas = desired_replicas(deployment, snapshot)
        nodes = {
            kube.pod_node(p)
            for p in pods_of(snapshot, kube.ref(deployment))
            if kube.is_running_ready(p)
        }
        found = []
        if replicas < MIN_REPLICAS:
            found.append((f"{replicas} replica(s)", f"복제본 {replicas}개"))
        if snapshot.has("HorizontalPodAutoscaler") and not targeted_by_hpa(deployment, snapshot):
            found.append(("no HPA", "HPA 없음"))
        if snapshot.has("PodDisruptionBudget") and not covered_by_pdb(deployment, snapshot):
            found.append(("no PodDisruptionBudget", "PodDisruptionBudget 없음"))
        if len(nodes) == 1 and replicas > 1:
            found.append(("all ready pods on one node", "준비된 파드가 모두 한 노드에 있음"))
        if not found:
            continue
        problems = Text("; ".join(en for en, _ in found), ", ".join(ko for _, ko in found))
        gaps.append(
            Gap(
                (kube.ref(deployment),),
                Text(
                    f"shared ingress controller with {problems.en}: one slow backend or one "
                    "node loss can take every tenant's traffic down.",
                    f"공유 인그레스 컨트롤러인데 {problems.ko}. 느린 백엔드 하나나 노드 하나를 "
                    "잃는 것으로 모든 테넌트의 트래픽이 멈출 수 있다.",
                ),
            )
        )
    return gaps


@check(PATTERN, "ingress-fixed-memory", requires=("Deployment", "HorizontalPodAutoscaler"))
def ingress_fixed_memory(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for deployment in snapshot.of("Deployment"):
        if not is_ingress_controller(deployment) or targeted_by_hpa(deployment, snapshot):
            continue
        limits = [
            (str(c.get("name")), limit)
            for c in kube.containers(kube.pod_spec(deployment))
            if (limit := kube.resource(c, "limits", "memory")) is not None
        ]
        if not limits:
            continue
        listed = ", ".join(f"{n} {format_bytes(limit)}" for n, limit in limits)
        replicas = desired_replicas(deployment)
        gaps.append(
            Gap(
                (kube.ref(deployment),),
                Text(
                    f"{replicas} replica(s) with a fixed memory limit ({listed}) and no HPA: "
                    "when one backend slows down, open connections and buffers pile up in the "
                    "controller until it is OOMKilled, and no extra replica takes the load.",
                    f"복제본 {replicas}개에 고정 메모리 한도({listed})가 있고 HPA 가 없다. 백엔드 "
                    "하나가 느려지면 열린 연결과 버퍼가 컨트롤러에 쌓여 OOMKilled 되고, 부하를 "
                    "나눠 받을 복제본도 늘지 않는다.",
                ),
            )
        )
    return gaps
