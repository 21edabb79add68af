"""runtime-health: trouble a snapshot already shows, before it becomes an outage (IL-0246)."""

from __future__ import annotations

from collections import defaultdict

from app.checks import kube
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "runtime-health"
CRASH_RESTARTS = 5


def subject(pod: Obj) -> ObjectRef:
    return kube.owner(pod) or kube.ref(pod)


def crashing(pod: Obj) -> tuple[str, int] | None:
    """(container, restarts) of a container in CrashLoopBackOff, or restarting repeatedly."""
    statuses = kube.dig(pod, "status", "containerStatuses") or []
    for status in statuses:
        restarts = int(status.get("restartCount") or 0)
        waiting = kube.dig(status, "state", "waiting", "reason")
        if waiting == "CrashLoopBackOff" or (
            restarts >= CRASH_RESTARTS and kube.dig(status, "lastState", "terminated") is not None
        ):
            return str(status.get("name")), restarts
    return None


@check(PATTERN, "crash-looping-pods", requires=("Pod",))
def crash_looping_pods(snapshot: Snapshot) -> list[Gap]:
    found: dict[ObjectRef, list[tuple[str, str, int]]] = defaultdict(list)
    for pod in kube.active_pods(snapshot):
        if crash := crashing(pod):
            found[subject(pod)].append((kube.name(pod), *crash))
    return [
        Gap(
            (owner,),
            Text(
                f"{len(pods)} pod(s) crash-looping (container {pods[0][1]} of {pods[0][0]} "
                f"restarted {pods[0][2]} times): whatever depends on it is already degraded.",
                f"파드 {len(pods)}개가 재시작을 되풀이한다 ({pods[0][0]} 의 컨테이너 {pods[0][1]} "
                f"이(가) {pods[0][2]}번 재시작했다). 이것에 기대는 것은 이미 성능이 떨어져 있다.",
            ),
            severity="high",
        )
        for owner, pods in sorted(found.items())
    ]


@check(PATTERN, "pods-not-ready", requires=("Pod",))
def pods_not_ready(snapshot: Snapshot) -> list[Gap]:
    found: dict[ObjectRef, list[str]] = defaultdict(list)
    for pod in kube.active_pods(snapshot):
        if kube.meta(pod).get("deletionTimestamp") or crashing(pod):
            continue  # terminating, or reported as crash-looping
        if kube.dig(pod, "status", "phase") == "Running" and kube.condition(pod, "Ready") != "True":
            found[subject(pod)].append(kube.name(pod))
    return [
        Gap(
            (owner,),
            Text(
                f"{len(names)} Running pod(s) not Ready ({', '.join(names[:3])}"
                f"{', ...' if len(names) > 3 else ''}): they get no traffic and count as "
                "unavailable in every disruption budget.",
                f"Running 인데 Ready 가 아닌 파드가 {len(names)}개다 ({', '.join(names[:3])}"
                f"{', ...' if len(names) > 3 else ''}). 트래픽을 받지 못하고, 모든 중단 예산에서 "
                "가용하지 않은 파드로 센다.",
            ),
        )
        for owner, names in sorted(found.items())
    ]


@check(PATTERN, "workloads-below-desired", covers=("Deployment", "StatefulSet"))
def workloads_below_desired(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload in kube.workloads(snapshot, "Deployment", "StatefulSet"):
        status = workload.get("status") or {}
        if not status or "replicas" not in status:
            continue  # a manifest, or the controller has not reported yet
        wanted = kube.dig(workload, "spec", "replicas")
        wanted = 1 if wanted is None else int(wanted)
        key = "availableReplicas" if workload.get("kind") == "Deployment" else "readyReplicas"
        have = int(status.get(key) or 0)
        if wanted == 0 or have >= wanted:
            continue
        gaps.append(
            Gap(
                (kube.ref(workload),),
                Text(
                    f"{have} of {wanted} desired replicas available: it is running degraded now.",
                    f"원하는 복제본 {wanted}개 중 {have}개만 가용하다. 지금 이미 줄어든 채로 돈다.",
                ),
                severity="high" if have == 0 else None,
            )
        )
    return gaps


@check(PATTERN, "network-unavailable-nodes", requires=("Node",))
def network_unavailable_nodes(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for node in snapshot.of("Node"):
        item = kube.condition_item(node, "NetworkUnavailable") or {}
        if item.get("status") != "True":
            continue
        reason = f" ({item.get('reason')})" if item.get("reason") else ""
        gaps.append(
            Gap(
                (kube.ref(node),),
                Text(
                    f"NetworkUnavailable is True{reason}: the CNI has not set up this node's "
                    "routes, so its pods cannot reach the rest of the cluster.",
                    f"NetworkUnavailable 이 True 다{reason}. CNI 가 이 노드의 경로를 잡지 못해 "
                    "파드가 클러스터의 나머지에 닿지 못한다.",
                ),
            )
        )
    return gaps
