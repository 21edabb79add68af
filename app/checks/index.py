"""Lookups built once per snapshot, so checks stay linear: pods by namespace, label and owner,
HPAs by target, PDBs by namespace. A check asks through these instead of comparing all pairs.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from app.checks import kube
from app.checks.registry import ObjectRef
from app.checks.snapshot import Obj, Snapshot


class Index:
    """The lookups of one snapshot (built on first use, kept in snapshot.cache)."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.active: dict[str, list[Obj]] = defaultdict(list)
        self.postings: dict[tuple[str, str, str], list[Obj]] = defaultdict(list)
        self.by_owner: dict[ObjectRef, list[Obj]] = defaultdict(list)
        for pod in snapshot.of("Pod"):
            if owner := kube.owner(pod):
                self.by_owner[owner].append(pod)
            if kube.is_terminated(pod):
                continue
            namespace = kube.namespace(pod)
            self.active[namespace].append(pod)
            for key, value in kube.labels(pod).items():
                self.postings[(namespace, key, value)].append(pod)
        self.hpas: dict[tuple[str, str, str], list[Obj]] = defaultdict(list)
        for hpa in snapshot.of("HorizontalPodAutoscaler"):
            target = kube.dig(hpa, "spec", "scaleTargetRef") or {}
            target_key = (kube.namespace(hpa), str(target.get("kind")), str(target.get("name")))
            self.hpas[target_key].append(hpa)
        self.pdbs: dict[str, list[Obj]] = defaultdict(list)
        for pdb in snapshot.of("PodDisruptionBudget"):
            self.pdbs[kube.namespace(pdb)].append(pdb)
        self.services: dict[str, list[Obj]] = defaultdict(list)
        for service in snapshot.of("Service"):
            self.services[kube.namespace(service)].append(service)
        self.workloads: dict[str, list[Obj]] = defaultdict(list)
        self.by_ref: dict[ObjectRef, Obj] = {}
        for workload in kube.workloads(snapshot, "Deployment", "StatefulSet"):
            self.workloads[kube.namespace(workload)].append(workload)
            self.by_ref[kube.ref(workload)] = workload

    def select(self, namespace: str, selector: dict[str, Any]) -> list[Obj]:
        """Active pods of a namespace that a non-empty LabelSelector matches."""
        match = selector.get("matchLabels") or {}
        if match:
            lists = [self.postings.get((namespace, k, v), []) for k, v in match.items()]
            candidates = min(lists, key=len)
        else:
            candidates = self.active.get(namespace, [])
        return [pod for pod in candidates if kube.selector_matches(selector, kube.labels(pod))]


def index(snapshot: Snapshot) -> Index:
    found = snapshot.cache.get("index")
    if not isinstance(found, Index):
        found = snapshot.cache["index"] = Index(snapshot)
    return found


def hpas_of(snapshot: Snapshot, workload: Obj) -> list[Obj]:
    """The HPAs whose scaleTargetRef is this workload."""
    key = (kube.namespace(workload), str(workload.get("kind")), kube.name(workload))
    return index(snapshot).hpas.get(key, [])


def desired_replicas(workload: Obj, snapshot: Snapshot | None = None) -> int:
    """spec.replicas (default 1), raised to an HPA's minReplicas when one targets it."""
    replicas = kube.dig(workload, "spec", "replicas")
    count = 1 if replicas is None else int(replicas)
    for hpa in hpas_of(snapshot, workload) if snapshot is not None else []:
        count = max(count, int(kube.dig(hpa, "spec", "minReplicas") or 1))
    return count


def targeted_by_hpa(workload: Obj, snapshot: Snapshot) -> bool:
    return bool(hpas_of(snapshot, workload))


def covered_by_pdb(workload: Obj, snapshot: Snapshot) -> bool:
    """Whether some PDB in the workload's namespace selects its pods."""
    pod_labels = kube.template_labels(workload)
    return any(
        pdb_selects_labels(pdb, pod_labels)
        for pdb in index(snapshot).pdbs.get(kube.namespace(workload), [])
    )


def pdb_selects_labels(pdb: Obj, pod_labels: dict[str, str]) -> bool:
    """policy/v1: an empty selector selects every pod of the namespace, a null one none."""
    selector = kube.dig(pdb, "spec", "selector")
    if selector is None:
        return False
    if not selector.get("matchLabels") and not selector.get("matchExpressions"):
        return True
    return kube.selector_matches(selector, pod_labels)


def pods_of_pdb(snapshot: Snapshot, pdb: Obj) -> list[Obj]:
    """The active pods a PDB selects (same rules as pdb_selects_labels)."""
    selector = kube.dig(pdb, "spec", "selector")
    if selector is None:
        return []
    found = index(snapshot)
    namespace = kube.namespace(pdb)
    if not selector.get("matchLabels") and not selector.get("matchExpressions"):
        return list(found.active.get(namespace, []))
    return found.select(namespace, selector)


def pods_of(snapshot: Snapshot, owner: ObjectRef) -> list[Obj]:
    """Every pod (any phase) whose controller is this workload."""
    return index(snapshot).by_owner.get(owner, [])
