"""control-plane-undersized: API server flags left at small-cluster defaults (IL-0075)."""

from __future__ import annotations

from app.checks import kube
from app.checks.registry import Gap, NotEvaluable, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "control-plane-undersized"
LARGE_CLUSTER_NODES = 250


def flags(pod: Obj) -> dict[str, str]:
    """--name=value arguments of a static control-plane pod's first container."""
    found: dict[str, str] = {}
    for container in kube.containers(kube.pod_spec(pod))[:1]:
        for argument in list(container.get("command") or []) + list(container.get("args") or []):
            if str(argument).startswith("--"):
                key, _, value = str(argument)[2:].partition("=")
                found[key] = value
    return found


def apiserver_pods(snapshot: Snapshot) -> list[Obj]:
    return [
        pod
        for pod in snapshot.of("Pod")
        if kube.namespace(pod) == "kube-system"
        and (
            kube.labels(pod).get("component") == "kube-apiserver"
            or kube.name(pod).startswith("kube-apiserver-")
        )
    ]


@check(PATTERN, "apiserver-flags", requires=("Pod",), optional=("Node",))
def apiserver_flags(snapshot: Snapshot) -> list[Gap]:
    pods = apiserver_pods(snapshot)
    if not pods:
        raise NotEvaluable(
            Text(
                "no kube-apiserver pods: a managed control plane; use the manual checks",
                "kube-apiserver 파드가 없다. 관리형 컨트롤 플레인이니 수동 점검을 따른다",
            )
        )
    nodes = len(snapshot.of("Node"))
    gaps = []
    for pod in pods:
        found = flags(pod)
        problems = []
        inflight = found.get("max-requests-inflight", "400")
        if nodes >= LARGE_CLUSTER_NODES and inflight == "400":
            problems.append(f"--max-requests-inflight is {inflight} with {nodes} nodes")
        if found.get("enable-priority-and-fairness") == "false":
            problems.append("--enable-priority-and-fairness=false")
        if found.get("watch-cache") == "false":
            problems.append("--watch-cache=false")
        if problems:
            listed = "; ".join(problems)
            gaps.append(
                Gap(
                    (kube.ref(pod),),
                    Text(
                        f"{listed}: the API server sheds or queues requests early.",
                        f"API 서버가 요청을 일찍 거절하거나 줄 세운다: {listed}.",
                    ),
                )
            )
    return gaps
