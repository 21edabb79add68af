"""autoscaler-misconfigured: HPAs that scale nothing, fight the manifest, or outgrow the nodes."""

from __future__ import annotations

import json

from app.checks import kube
from app.checks.index import hpas_of, index
from app.checks.quantity import format_bytes, format_cpu
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.scheduling import can_host
from app.checks.snapshot import Obj, Snapshot

PATTERN = "autoscaler-misconfigured"
TARGETS = ("Deployment", "StatefulSet")
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def target_ref(hpa: Obj) -> ObjectRef:
    target = kube.dig(hpa, "spec", "scaleTargetRef") or {}
    return ObjectRef(
        str(target.get("kind") or ""), kube.namespace(hpa), str(target.get("name") or "")
    )


@check(PATTERN, "hpa-target-missing", requires=("HorizontalPodAutoscaler",), covers=TARGETS)
def hpa_target_missing(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    known = index(snapshot).by_ref
    for hpa in snapshot.of("HorizontalPodAutoscaler"):
        target = target_ref(hpa)
        if target.kind not in TARGETS or not snapshot.has(target.kind) or target in known:
            continue
        gaps.append(
            Gap(
                (kube.ref(hpa),),
                Text(
                    f"its scaleTargetRef {target} does not exist: the autoscaler scales nothing, "
                    "and whatever it was meant to protect runs at a fixed size.",
                    f"scaleTargetRef 인 {target} 가 없다. 오토스케일러가 아무것도 늘리지 않고, "
                    "지키려던 워크로드는 고정된 크기로 돈다.",
                ),
            )
        )
    return gaps


def sets_replicas(workload: Obj) -> bool:
    """Whether the applied manifest sets spec.replicas (a live object always has one)."""
    applied = (kube.meta(workload).get("annotations") or {}).get(LAST_APPLIED)
    if applied is not None:
        try:
            manifest = json.loads(applied)
        except (ValueError, RecursionError):
            return False
        return isinstance(manifest, dict) and kube.dig(manifest, "spec", "replicas") is not None
    is_manifest = not kube.meta(workload).get("uid") and not workload.get("status")
    return is_manifest and kube.dig(workload, "spec", "replicas") is not None


@check(PATTERN, "replicas-beside-hpa", requires=("HorizontalPodAutoscaler",), covers=TARGETS)
def replicas_beside_hpa(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload in kube.workloads(snapshot, *TARGETS):
        if not hpas_of(snapshot, workload) or not sets_replicas(workload):
            continue
        replicas = kube.dig(workload, "spec", "replicas")
        gaps.append(
            Gap(
                (kube.ref(workload),),
                Text(
                    f"an HPA scales it, and its manifest also sets replicas: {replicas}: every "
                    f"apply resets it to {replicas}, scaling it down under load until the HPA "
                    "catches up.",
                    f"HPA 가 크기를 정하는데 매니페스트에도 replicas: {replicas} 가 있다. apply "
                    f"할 때마다 {replicas}개로 되돌아가, 부하 중에도 HPA 가 다시 늘릴 때까지 "
                    "줄어든다.",
                ),
            )
        )
    return gaps


@check(
    PATTERN,
    "hpa-max-beyond-nodes",
    requires=("HorizontalPodAutoscaler", "Node"),
    covers=TARGETS,
    optional=("Pod",),
)
def hpa_max_beyond_nodes(snapshot: Snapshot) -> list[Gap]:
    nodes = snapshot.of("Node")
    # Where a pod may go depends only on its placement fields: one scan of the nodes per
    # distinct placement, not per HPA (linear in HPAs plus nodes times placements).
    rooms: dict[str, dict[str, float]] = {}
    gaps = []
    for hpa in snapshot.of("HorizontalPodAutoscaler"):
        workload = index(snapshot).by_ref.get(target_ref(hpa))
        maximum = int(kube.dig(hpa, "spec", "maxReplicas") or 0)
        if workload is None or maximum < 2:
            continue
        spec = kube.pod_spec(workload)
        placement = json.dumps(
            [spec.get(k) for k in ("nodeSelector", "affinity", "tolerations")], sort_keys=True
        )
        if placement not in rooms:
            hosts = [n for n in nodes if can_host(spec, n)]
            rooms[placement] = {
                k: sum(kube.allocatable(n, k) for n in hosts) for k in ("cpu", "memory")
            }
        for key, show in (("cpu", format_cpu), ("memory", format_bytes)):
            need = kube.effective(spec, "requests", key)
            if need <= 0:
                continue
            room = rooms[placement][key]
            if maximum * need > room:
                fits = int(room // need)
                gaps.append(
                    Gap(
                        (kube.ref(hpa), kube.ref(workload)),
                        Text(
                            f"maxReplicas {maximum} x {show(need)} {key} per pod needs "
                            f"{show(maximum * need)}, but the nodes its pods may use have "
                            f"{show(room)} allocatable in all ({fits} pods at most, before any "
                            "other workload): the autoscaler promises capacity the cluster "
                            "cannot give unless the node pool grows.",
                            f"maxReplicas {maximum} x 파드당 {key} {show(need)} 이면 "
                            f"{show(maximum * need)} 가 필요한데, 파드를 놓을 수 있는 노드의 할당 "
                            f"가능량은 모두 합쳐 {show(room)} 다 (다른 워크로드 없이도 최대 파드 "
                            f"{fits}개). 노드 풀이 늘지 않으면 오토스케일러가 약속한 용량을 "
                            "클러스터가 줄 수 없다.",
                        ),
                    )
                )
                break
    return gaps
