"""dataset-on-tiered-shared-storage: GPU jobs reading data only from shared storage."""

from __future__ import annotations

from app.checks import kube
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Snapshot
from app.checks.storage import StorageIndex


@check(
    "dataset-on-tiered-shared-storage",
    "gpu-pods-without-local-scratch",
    requires=("Pod", "PersistentVolumeClaim"),
    optional=("PersistentVolume", "StorageClass"),
)
def gpu_pods_without_local_scratch(snapshot: Snapshot) -> list[Gap]:
    index = StorageIndex(snapshot)
    found: dict[ObjectRef, tuple[int, list[str]]] = {}
    for pod in kube.active_pods(snapshot):
        if kube.effective(kube.pod_spec(pod), "requests", kube.GPU) <= 0:
            continue
        mounts = index.mounts(pod)
        shared = sorted({m.source for m in mounts if m.shared})
        if not shared or any(m.local for m in mounts):
            continue
        subject = kube.owner(pod) or kube.ref(pod)
        count, _ = found.get(subject, (0, shared))
        found[subject] = (count + 1, shared)
    return [
        Gap(
            (subject,),
            Text(
                f"{count} GPU pod(s) read from shared storage ({', '.join(shared)}) and have no "
                "local scratch volume: every training step depends on that storage.",
                f"GPU 파드 {count}개가 공유 스토리지({', '.join(shared)})에서 읽고 로컬 스크래치 "
                "볼륨이 없다. 학습의 모든 스텝이 그 스토리지에 기댄다.",
            ),
        )
        for subject, (count, shared) in sorted(found.items())
    ]
