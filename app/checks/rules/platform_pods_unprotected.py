"""platform-pods-unprotected: core pods with no resource guarantee or priority (IL-0094)."""

from __future__ import annotations

from collections import defaultdict

from app.checks import kube
from app.checks.index import desired_replicas
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "platform-pods-unprotected"


def subject(pod: Obj) -> ObjectRef:
    """The owner of a pod when it has one, so replicas give one finding."""
    return kube.owner(pod) or kube.ref(pod)


@check(PATTERN, "critical-without-requests", requires=("Pod",))
def critical_without_requests(snapshot: Snapshot) -> list[Gap]:
    found: dict[ObjectRef, Text] = {}
    for pod in kube.active_pods(snapshot):
        if not kube.is_platform_pod(pod) or subject(pod) in found:
            continue
        missing = []
        for container in kube.containers(kube.pod_spec(pod)):
            lacks = [
                k for k in ("cpu", "memory") if kube.resource(container, "requests", k) is None
            ]
            if lacks:
                missing.append((str(container.get("name")), lacks))
        if missing:
            found[subject(pod)] = Text(
                "; ".join(
                    f"container {n} has no {' and no '.join(lacks)} request" for n, lacks in missing
                ),
                ", ".join(
                    f"컨테이너 {n} 에 {'와 '.join(_KO[k] for k in lacks)} 요청이 없다"
                    for n, lacks in missing
                ),
            )
    return [
        Gap(
            (owner,),
            Text(
                f"platform pod: {names.en}. When users fill the node, it gets nothing "
                "guaranteed for what it does not request.",
                f"플랫폼 파드다. {names.ko}. 사용자 파드가 노드를 채우면 요청하지 않은 자원은 "
                "보장받지 못한다.",
            ),
        )
        for owner, names in sorted(found.items())
    ]


_KO = {"cpu": "CPU", "memory": "메모리"}


@check(PATTERN, "critical-priority-not-above-users", requires=("Pod",))
def critical_priority_not_above_users(snapshot: Snapshot) -> list[Gap]:
    user_top: dict[str, int] = defaultdict(lambda: -(2**31))
    pods = kube.active_pods(snapshot)
    for pod in pods:
        if not kube.is_platform_pod(pod):
            node = kube.pod_node(pod)
            user_top[node] = max(user_top[node], kube.priority(pod))
    found: dict[ObjectRef, tuple[int, int]] = {}
    for pod in pods:
        node = kube.pod_node(pod)
        if kube.is_platform_pod(pod) and node in user_top and subject(pod) not in found:
            if kube.priority(pod) <= user_top[node]:
                found[subject(pod)] = (kube.priority(pod), user_top[node])
    return [
        Gap(
            (owner,),
            Text(
                f"priority {mine} is not above the user pods on the same node (up to {top}): "
                "under pressure the scheduler and kubelet do not prefer the platform.",
                f"우선순위({mine})가 같은 노드의 사용자 파드(최고 {top})보다 높지 않아, 자원이 "
                "모자랄 때 스케줄러와 kubelet 이 플랫폼 파드를 먼저 챙기지 않는다.",
            ),
        )
        for owner, (mine, top) in sorted(found.items())
    ]


def guaranteed(workload: Obj) -> bool:
    """Every container requests exactly its CPU and memory limit."""
    for container in kube.containers(kube.pod_spec(workload)):
        for key in ("cpu", "memory"):
            limit = kube.resource(container, "limits", key)
            request = kube.resource(container, "requests", key)
            if limit is None or (request is not None and request != limit):
                return False
    return True


@check(PATTERN, "single-replica-platform", requires=("Deployment",))
def single_replica_platform(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for deployment in snapshot.of("Deployment"):
        template = {
            "kind": "Pod",
            "metadata": {
                "namespace": kube.namespace(deployment),
                "labels": kube.template_labels(deployment),
            },
        }
        if not kube.is_platform_pod(template) or desired_replicas(deployment) != 1:
            continue
        hub = kube.template_labels(deployment).get("component") == "hub"
        if hub:
            # The JupyterHub hub runs one replica by design: demand Guaranteed QoS and priority.
            spec = kube.pod_spec(deployment)
            if guaranteed(deployment) and spec.get("priorityClassName"):
                continue
            why = Text(
                "the JupyterHub hub runs one replica by design, but it is not Guaranteed QoS "
                "with a priority class, so a full node can starve it.",
                "JupyterHub 허브는 원래 복제본이 하나인데, Guaranteed QoS 와 우선순위 클래스가 "
                "없어 노드가 가득 차면 자원을 얻지 못한다.",
            )
        else:
            why = Text(
                "a platform Deployment with 1 replica: one node failure or eviction stops it.",
                "복제본이 1개인 플랫폼 Deployment 라 노드 하나가 죽거나 파드가 쫓겨나면 멈춘다.",
            )
        gaps.append(Gap((kube.ref(deployment),), why))
    return gaps
