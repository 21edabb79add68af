"""stale-network-mounts: what a shared storage restart would leave stale (IL-0134)."""

from __future__ import annotations

from app.checks import kube
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Snapshot
from app.checks.storage import SHARED_CSI_DRIVERS, StorageIndex, is_shared_pv, shared_mount_users

PATTERN = "stale-network-mounts"
STORAGE = ("PersistentVolumeClaim", "PersistentVolume", "StorageClass")


@check(PATTERN, "network-fs-inventory", requires=("Pod",), optional=STORAGE)
def network_fs_inventory(snapshot: Snapshot) -> list[Gap]:
    users = shared_mount_users(snapshot)
    return [
        Gap(
            (),
            Text(
                f"{len(users[source].pods)} pods on {len(users[source].nodes)} nodes mount it: "
                "the blast radius if this storage restarts and mounts go stale.",
                f"노드 {len(users[source].nodes)}대의 파드 {len(users[source].pods)}개가 "
                "마운트한다. 이 스토리지가 재시작해 마운트가 stale 이 되면 영향받는 범위다.",
            ),
            scope="storage",
            subject=source,
        )
        for source in sorted(users)
    ]


def _options(obj: dict[str, object]) -> list[str]:
    options = kube.dig(obj, "spec", "mountOptions") or obj.get("mountOptions") or []
    return [str(o) for o in options]  # type: ignore[union-attr]


@check(PATTERN, "soft-or-untuned-mounts", covers=("PersistentVolume", "StorageClass"))
def soft_or_untuned_mounts(snapshot: Snapshot) -> list[Gap]:
    candidates = [pv for pv in snapshot.of("PersistentVolume") if is_shared_pv(pv)]
    candidates += [
        sc for sc in snapshot.of("StorageClass") if sc.get("provisioner") in SHARED_CSI_DRIVERS
    ]
    gaps = []
    for obj in candidates:
        options = _options(obj)
        if "soft" in options:
            gaps.append(
                Gap(
                    (kube.ref(obj),),
                    Text(
                        "mountOptions include soft: when the server stalls, reads and writes "
                        "fail with EIO and applications may write partial data silently.",
                        "mountOptions 에 soft 가 있어 서버가 멈추면 읽기와 쓰기가 EIO 로 "
                        "실패하고, 애플리케이션이 모르는 새 데이터가 덜 써질 수 있다.",
                    ),
                )
            )
        elif "hard" not in options or not any(o.startswith("timeo=") for o in options):
            gaps.append(
                Gap(
                    (kube.ref(obj),),
                    Text(
                        "network mount without explicit hard and timeo= options: recovery "
                        "behaviour after a storage restart is left to defaults.",
                        "hard 와 timeo= 를 명시하지 않은 네트워크 마운트라, 스토리지 재시작 뒤 "
                        "어떻게 회복할지가 기본값에 맡겨져 있다.",
                    ),
                    severity="info",
                )
            )
    return gaps


def _mentions(command: str, path: str) -> bool:
    """Whether a shell command names path itself or something under it."""
    path = path.rstrip("/")
    start = command.find(path)
    while start != -1:
        end = start + len(path)
        before = command[start - 1] if start else " "
        after = command[end] if end < len(command) else " "
        if before in " \t'\"=:;(" and after in " \t'\"/;)|&>":
            return True
        start = command.find(path, start + 1)
    return False


@check(PATTERN, "liveness-on-shared-fs", requires=("Pod",), optional=STORAGE)
def liveness_on_shared_fs(snapshot: Snapshot) -> list[Gap]:
    index = StorageIndex(snapshot)
    found: dict[ObjectRef, tuple[str, str, str]] = {}
    for pod in kube.active_pods(snapshot):
        shared = {m.volume: m.source for m in index.mounts(pod) if m.shared}
        if not shared:
            continue
        for container in kube.containers(kube.pod_spec(pod)):
            words = kube.dig(container, "livenessProbe", "exec", "command") or []
            command = " ".join(str(word) for word in words)
            for mount in container.get("volumeMounts") or []:
                path = str(mount.get("mountPath") or "")
                if mount.get("name") in shared and path and _mentions(command, path):
                    subject = kube.owner(pod) or kube.ref(pod)
                    found.setdefault(
                        subject, (str(container.get("name")), path, shared[mount["name"]])
                    )
    return [
        Gap(
            (subject,),
            Text(
                f"container {container} has an exec liveness probe that touches {path} "
                f"({source}): when that mount hangs or goes stale, the probe times out and the "
                "kubelet restarts the container in a loop, which cannot fix the mount.",
                f"컨테이너 {container} 의 exec liveness 프로브가 {path}({source})를 건드린다. "
                "마운트가 멈추거나 stale 이 되면 프로브가 시간 초과로 실패하고, kubelet 이 "
                "컨테이너를 계속 다시 시작하지만 마운트는 그것으로 고쳐지지 않는다.",
            ),
        )
        for subject, (container, path, source) in sorted(found.items())
    ]
