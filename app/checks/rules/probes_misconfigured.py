"""probes-misconfigured: traffic before a pod is ready, or restarts for being busy (IL-0207)."""

from __future__ import annotations

from app.checks import kube
from app.checks.index import index
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "probes-misconfigured"
KINDS = ("Deployment", "StatefulSet", "DaemonSet")
JUDGED = (*KINDS, "Pod")  # pods stand in for workloads the snapshot does not hold


def served(snapshot: Snapshot, workload: Obj) -> bool:
    """Whether a Service in the workload's namespace selects its pods (as kube-score asks)."""
    own = kube.template_labels(workload)
    for service in index(snapshot).services.get(kube.namespace(workload), []):
        selector = kube.dig(service, "spec", "selector") or {}
        if selector and all(own.get(k) == v for k, v in selector.items()):
            return True
    return False


@check(PATTERN, "readiness-probe-missing", requires=("Service",), covers=JUDGED)
def readiness_probe_missing(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload, subject in kube.judged(snapshot, *KINDS):
        if not served(snapshot, workload):
            continue
        missing = kube.containers_lacking(workload, lambda c: c.get("readinessProbe") is None)
        if missing:
            names = ", ".join(missing)
            gaps.append(
                Gap(
                    (subject,),
                    Text(
                        f"a Service sends traffic to its pods, and container(s) {names} have no "
                        "readinessProbe: a pod gets requests as soon as it starts, before it can "
                        "serve, and keeps them while it hangs.",
                        f"Service 가 이 파드로 트래픽을 보내는데 컨테이너 {names} 에 "
                        "readinessProbe 가 없다. 파드는 뜨자마자, 아직 처리할 수 없을 때부터 "
                        "요청을 받고, 멈춰도 계속 받는다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "liveness-same-as-readiness", covers=JUDGED)
def liveness_same_as_readiness(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload, subject in kube.judged(snapshot, *KINDS):
        same = [
            str(c.get("name"))
            for c in kube.containers(kube.pod_spec(workload))
            if c.get("livenessProbe") is not None
            and c.get("livenessProbe") == c.get("readinessProbe")
        ]
        if same:
            names = ", ".join(same)
            gaps.append(
                Gap(
                    (subject,),
                    Text(
                        f"container(s) {names} use the same probe for liveness and readiness: a "
                        "pod that is only slow or overloaded is restarted instead of being taken "
                        "out of rotation, and under load every replica restarts together.",
                        f"컨테이너 {names} 가 liveness 와 readiness 에 같은 프로브를 쓴다. "
                        "느리거나 과부하일 뿐인 파드가 트래픽에서 빠지는 대신 재시작되고, "
                        "부하가 몰리면 모든 복제본이 함께 재시작된다.",
                    ),
                )
            )
    return gaps
