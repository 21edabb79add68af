"""shared-fs-metadata-storm: many nodes hitting one shared filesystem at once (IL-0137)."""

from __future__ import annotations

from collections import defaultdict

from app.checks import kube
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Snapshot
from app.checks.storage import StorageIndex, shared_mount_users

PATTERN = "shared-fs-metadata-storm"
MIN_PODS, MIN_NODES, MIN_OWNER_PODS = 16, 8, 8


@check(PATTERN, "rwx-fan-in", requires=("Pod", "PersistentVolumeClaim"))
def rwx_fan_in(snapshot: Snapshot) -> list[Gap]:
    index = StorageIndex(snapshot)
    pods: dict[tuple[str, str], list[str]] = defaultdict(list)
    nodes: dict[tuple[str, str], set[str]] = defaultdict(set)
    owners: dict[tuple[str, str], dict[ObjectRef, int]] = defaultdict(lambda: defaultdict(int))
    for pod in kube.active_pods(snapshot):
        for volume in kube.volumes(kube.pod_spec(pod)):
            claim = kube.dig(volume, "persistentVolumeClaim", "claimName")
            key = (kube.namespace(pod), str(claim))
            if claim and key in index.claims:
                pods[key].append(kube.name(pod))
                nodes[key].add(kube.pod_node(pod))
                if owner := kube.owner(pod):
                    owners[key][owner] += 1
    gaps = []
    for key, names in sorted(pods.items()):
        modes = kube.dig(index.claims[key], "spec", "accessModes") or []
        biggest = max(owners[key].values(), default=0)
        if "ReadWriteMany" not in modes or len(nodes[key]) < 2:
            continue
        if (len(names) >= MIN_PODS and len(nodes[key]) >= MIN_NODES) or biggest >= MIN_OWNER_PODS:
            gaps.append(
                Gap(
                    (ObjectRef("PersistentVolumeClaim", key[0], key[1]),),
                    Text(
                        f"{len(names)} pods on {len(nodes[key])} nodes mount this RWX volume "
                        f"(up to {biggest} from one workload): their small I/O and metadata "
                        "calls all land on one storage metadata service.",
                        f"노드 {len(nodes[key])}대의 파드 {len(names)}개(한 워크로드에서 최대 "
                        f"{biggest}개)가 이 RWX 볼륨을 마운트한다. 작은 I/O 와 메타데이터 호출이 "
                        "모두 스토리지의 메타데이터 서비스 하나로 몰린다.",
                    ),
                )
            )
    return gaps


@check(PATTERN, "shared-hostpath-fan-in", requires=("Pod",))
def shared_hostpath_fan_in(snapshot: Snapshot) -> list[Gap]:
    users = shared_mount_users(snapshot, hostpath_only=True, scheduled_only=True)
    pods = {source: entry.pods for source, entry in users.items()}
    nodes = {source: entry.nodes for source, entry in users.items()}
    return [
        Gap(
            (),
            Text(
                f"{len(pods[source])} pods on {len(nodes[source])} nodes mount this shared "
                "filesystem path through hostPath: every node's client hits the same storage "
                "metadata service, and the load grows with the node count.",
                f"노드 {len(nodes[source])}대의 파드 {len(pods[source])}개가 hostPath 로 이 공유 "
                "파일시스템 경로를 마운트한다. 모든 노드의 클라이언트가 같은 스토리지 메타데이터 "
                "서비스로 몰리고, 부하가 노드 수에 따라 커진다.",
            ),
            scope="storage",
            subject=source,
        )
        for source in sorted(nodes)
        if len(nodes[source]) >= MIN_NODES
    ]
