"""recovery-depends-on-failed-layer: node-critical pieces that cannot come back on their own."""

from __future__ import annotations

from app.checks import kube
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Snapshot

PATTERN = "recovery-depends-on-failed-layer"
NODE_CRITICAL = (
    "kube-proxy",
    "calico-node",
    "cilium",
    "aws-node",
    "kube-flannel",
    "csi-node",
    "ebs-csi-node",
    "efs-csi-node",
    "device-plugin",
)


@check(PATTERN, "node-critical-without-priority", requires=("DaemonSet",))
def node_critical_without_priority(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for daemonset in snapshot.of("DaemonSet"):
        if not any(word in kube.name(daemonset) for word in NODE_CRITICAL):
            continue
        priority_class = kube.pod_spec(daemonset).get("priorityClassName")
        if priority_class == "system-node-critical":
            continue
        gaps.append(
            Gap(
                (kube.ref(daemonset),),
                Text(
                    f"a node-critical DaemonSet with priorityClassName {priority_class or 'unset'}:"
                    " on a full node after a reboot it can be the pod that does not start.",
                    "노드에 꼭 필요한 DaemonSet 인데 priorityClassName 이 "
                    + (
                        f"system-node-critical 이 아니다({priority_class})"
                        if priority_class
                        else "없다"
                    )
                    + ". 재부팅 뒤 노드가 가득 차면 이 파드가 "
                    "뜨지 못할 수 있다.",
                ),
            )
        )
    return gaps


def pulls_on_restart(container: dict[str, object]) -> bool:
    image = str(container.get("image", ""))
    tag = image.rsplit("/", 1)[-1]
    latest = "@" not in image and (":" not in tag or tag.endswith(":latest"))
    return container.get("imagePullPolicy") == "Always" or latest


@check(PATTERN, "pull-on-restart", requires=("Pod",))
def pull_on_restart(snapshot: Snapshot) -> list[Gap]:
    found: dict[ObjectRef, list[str]] = {}
    for pod in kube.active_pods(snapshot):
        if not kube.is_platform_pod(pod):
            continue
        images = [
            str(c.get("image"))
            for c in kube.all_containers(kube.pod_spec(pod))
            if pulls_on_restart(c)
        ]
        if images:
            found.setdefault(kube.owner(pod) or kube.ref(pod), images)
    return [
        Gap(
            (subject,),
            Text(
                f"platform images {', '.join(images)} are pulled again on every restart "
                "(imagePullPolicy Always or :latest): after a mass reboot, recovery waits on "
                "the registry.",
                f"플랫폼 이미지({', '.join(images)})를 재시작할 때마다 다시 받는다 "
                "(imagePullPolicy Always 나 :latest). 한꺼번에 재부팅되면 복구가 레지스트리를 "
                "기다린다.",
            ),
        )
        for subject, images in sorted(found.items())
    ]
