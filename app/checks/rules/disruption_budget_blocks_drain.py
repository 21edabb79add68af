"""disruption-budget-blocks-drain: PDB specs that no eviction can ever satisfy."""

from __future__ import annotations

import math
from collections.abc import Callable

from app.checks import kube
from app.checks.index import desired_replicas, index, pdb_selects_labels
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "disruption-budget-blocks-drain"
WORKLOADS = ("Deployment", "StatefulSet")


def _percent(value: object) -> int | None:
    """50 for "50%"; None for anything that is not a percentage."""
    number = value[:-1] if isinstance(value, str) and value.endswith("%") else ""
    return int(number) if number.isascii() and number.isdigit() else None


def _pods_needed(available: object) -> Callable[[int], int] | None:
    """How many of n pods minAvailable keeps; a percentage rounds up, as the disruption
    controller does (minAvailable 90% of 3 pods keeps all 3). None when it is not set."""
    if isinstance(available, bool):
        return None
    if isinstance(available, int) or (isinstance(available, str) and available.isdigit()):
        wanted = int(available)
        return lambda _pods: wanted
    if (percent := _percent(available)) is not None:
        return lambda pods: math.ceil(percent * pods / 100)
    return None


def workloads_of(snapshot: Snapshot, pdb: Obj) -> list[Obj]:
    namespace = kube.namespace(pdb)
    found = index(snapshot).workloads.get(namespace, [])
    return [w for w in found if pdb_selects_labels(pdb, kube.template_labels(w))]


@check(
    PATTERN,
    "pdb-spec-blocks-drain",
    requires=("PodDisruptionBudget",),
    optional=(*WORKLOADS, "HorizontalPodAutoscaler"),
)
def pdb_spec_blocks_drain(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for pdb in snapshot.of("PodDisruptionBudget"):
        spec = pdb.get("spec") or {}
        unavailable, available = spec.get("maxUnavailable"), spec.get("minAvailable")
        why = None
        if unavailable in (0, "0", "0%"):
            why = Text(
                f"maxUnavailable is {unavailable}: no pod it selects may ever be evicted",
                f"maxUnavailable 이 {unavailable} 이라 고르는 파드를 하나도 쫓아낼 수 없다",
            )
        elif (percent := _percent(available)) is not None and percent >= 100:
            why = Text(
                f"minAvailable is {available}: no pod it selects may ever be evicted",
                f"minAvailable 이 {available} 라 고르는 파드를 하나도 쫓아낼 수 없다",
            )
        elif (need := _pods_needed(available)) is not None:
            percent = _percent(available) is not None
            for workload in workloads_of(snapshot, pdb):
                replicas = desired_replicas(workload, snapshot)
                needed = need(replicas)
                if 0 < replicas <= needed:
                    shown = f"{available} (keeps {needed})" if percent else str(needed)
                    shown_ko = f"{available}(파드 {needed}개 유지)" if percent else str(needed)
                    why = Text(
                        f"minAvailable {shown} is not below the {replicas} replica(s) of "
                        f"{kube.ref(workload)} (HPA minimum included): at its usual size not one "
                        "pod may be evicted",
                        f"minAvailable {shown_ko} 이 {kube.ref(workload)} 의 복제본 {replicas}개"
                        "(HPA 최소값 포함)보다 작지 않아, 평소 크기에서는 파드를 하나도 쫓아낼 수 "
                        "없다",
                    )
                    break
        if why is not None:
            gaps.append(
                Gap(
                    (kube.ref(pdb),),
                    Text(
                        f"{why.en}: every node drain, node upgrade and autoscaler scale-down "
                        "hangs on these pods until someone force-deletes them.",
                        f"{why.ko}. 노드 드레인, 노드 업그레이드, 오토스케일러 축소가 모두 "
                        "이 파드에서 멈추고, 누군가 강제로 지울 때까지 기다린다.",
                    ),
                )
            )
    return gaps
