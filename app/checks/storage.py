"""Which pod volumes sit on shared network storage, and which are node-local."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.checks.kube import active_pods, dig, name, namespace, pod_node, pod_spec, volumes
from app.checks.snapshot import Obj, Snapshot

SHARED_CSI_DRIVERS = frozenset(
    {
        "nfs.csi.k8s.io",
        "csi.vastdata.com",
        "csi.weka.io",
        "fsx.csi.aws.com",
        "efs.csi.aws.com",
        "filestore.csi.storage.gke.io",
        "file.csi.azure.com",
        "cephfs.csi.ceph.com",
        "spectrumscale.csi.ibm.com",
    }
)
SHARED_HOSTPATH_PREFIXES = ("/mnt", "/vast", "/weka", "/lustre", "/nfs")
LOCAL_HOSTPATH_PREFIXES = ("/mnt/nvme", "/nvme", "/mnt/local", "/scratch", "/raid", "/local")
LOCAL_PROVISIONERS = frozenset(
    {"rancher.io/local-path", "topolvm.io", "topolvm.cybozu.com", "kubernetes.io/no-provisioner"}
)


@dataclass(frozen=True)
class Mount:
    """A pod volume classified by where its data lives."""

    volume: str
    source: str  # "pvc:<ns>/<name>", "nfs:<server>:<path>" or "hostPath:<path>"
    shared: bool
    local: bool


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == prefix or path.startswith(prefix + "/") for prefix in prefixes)


def is_shared_pv(pv: Obj) -> bool:
    spec = pv.get("spec") or {}
    return "nfs" in spec or dig(spec, "csi", "driver") in SHARED_CSI_DRIVERS


def is_local_pv(pv: Obj) -> bool:
    spec = pv.get("spec") or {}
    return "local" in spec or "hostPath" in spec


class StorageIndex:
    """PVCs, PVs and StorageClasses of a snapshot, looked up by name."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.claims = {(namespace(c), name(c)): c for c in snapshot.of("PersistentVolumeClaim")}
        self.volumes = {name(v): v for v in snapshot.of("PersistentVolume")}
        self.classes = {name(s): s for s in snapshot.of("StorageClass")}

    def claim_volume(self, claim: Obj) -> Obj | None:
        return self.volumes.get(str(dig(claim, "spec", "volumeName") or ""))

    def claim_is_shared(self, claim: Obj) -> bool:
        volume = self.claim_volume(claim)
        if volume is not None:
            return is_shared_pv(volume)
        storage_class = self.classes.get(str(dig(claim, "spec", "storageClassName") or ""))
        return bool(storage_class and storage_class.get("provisioner") in SHARED_CSI_DRIVERS)

    def claim_is_local(self, claim: Obj) -> bool:
        volume = self.claim_volume(claim)
        if volume is not None and is_local_pv(volume):
            return True
        storage_class = self.classes.get(str(dig(claim, "spec", "storageClassName") or ""))
        return bool(storage_class and storage_class.get("provisioner") in LOCAL_PROVISIONERS)

    def mounts(self, pod: Obj) -> list[Mount]:
        """Every volume of a pod that is shared or node-local (others are left out)."""
        found = []
        for volume in volumes(pod_spec(pod)):
            mount = self._classify(namespace(pod), volume)
            if mount is not None:
                found.append(mount)
        return found

    def _classify(self, pod_namespace: str, volume: dict[str, Any]) -> Mount | None:
        volume_name = str(volume.get("name"))
        if "nfs" in volume:
            source = f"nfs:{dig(volume, 'nfs', 'server')}:{dig(volume, 'nfs', 'path')}"
            return Mount(volume_name, source, shared=True, local=False)
        if "hostPath" in volume:
            path = str(dig(volume, "hostPath", "path") or "")
            local = _under(path, LOCAL_HOSTPATH_PREFIXES)
            shared = not local and _under(path, SHARED_HOSTPATH_PREFIXES)
            if shared or local:
                return Mount(volume_name, f"hostPath:{path}", shared=shared, local=local)
            return None
        if "emptyDir" in volume:
            if dig(volume, "emptyDir", "medium") == "Memory":  # /dev/shm, not scratch space
                return None
            return Mount(volume_name, "emptyDir", shared=False, local=True)
        claim_name = dig(volume, "persistentVolumeClaim", "claimName")
        if claim_name:
            claim = self.claims.get((pod_namespace, str(claim_name)))
            if claim is None:
                return None
            source = f"pvc:{pod_namespace}/{claim_name}"
            shared, local = self.claim_is_shared(claim), self.claim_is_local(claim)
            if shared or local:
                return Mount(volume_name, source, shared=shared, local=local)
        return None


@dataclass(frozen=True)
class MountUsers:
    """Who mounts one shared source: pods as namespace/name, and their nodes."""

    pods: set[str]
    nodes: set[str]


def shared_mount_users(
    snapshot: Snapshot, *, hostpath_only: bool = False, scheduled_only: bool = False
) -> dict[str, MountUsers]:
    """Each shared mount source with the active pods and nodes that use it."""
    index = StorageIndex(snapshot)
    users: dict[str, MountUsers] = {}
    for pod in active_pods(snapshot):
        node = pod_node(pod)
        if scheduled_only and not node:
            continue
        for mount in index.mounts(pod):
            if not mount.shared or (hostpath_only and not mount.source.startswith("hostPath:")):
                continue
            entry = users.setdefault(mount.source, MountUsers(set(), set()))
            entry.pods.add(f"{namespace(pod)}/{name(pod)}")
            entry.nodes.add(node)
    return users
