"""Builders for Kubernetes objects shaped as the API returns them, for check tests."""

from __future__ import annotations

import json
from typing import Any

from app.checks.snapshot import RESOURCES, Obj, Snapshot, load_snapshot

CREATED = "2025-05-01T08:00:00Z"


def meta(
    name: str, namespace: str | None = None, labels: dict[str, str] | None = None, **extra: Any
) -> dict[str, Any]:
    found: dict[str, Any] = {"name": name, "uid": f"uid-{namespace}-{name}"}
    if namespace is not None:
        found["namespace"] = namespace
    found["creationTimestamp"] = CREATED
    if labels:
        found["labels"] = labels
    found.update(extra)
    return found


def container(
    name: str = "app",
    image: str = "registry.example.com/app:1.4.2",
    requests: dict[str, str] | None = None,
    limits: dict[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    if requests:
        resources["requests"] = requests
    if limits:
        resources["limits"] = limits
    return {
        "name": name,
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "resources": resources,
        **extra,
    }


SIZED = {"cpu": "250m", "memory": "256Mi"}


def sized(name: str = "app", **extra: Any) -> dict[str, Any]:
    """A container with requests equal to limits (Guaranteed)."""
    return container(name, requests=dict(SIZED), limits=dict(SIZED), **extra)


def node(
    name: str,
    *,
    cpu: str = "8",
    memory: str = "32Gi",
    pods: str = "110",
    zone: str | None = "eu-west-1a",
    labels: dict[str, str] | None = None,
    gpus: int | None = None,
    allocatable_gpus: int | None = None,
    ready: bool = True,
    ready_since: str = "2025-04-01T10:00:00Z",
    unschedulable: bool = False,
    taints: list[dict[str, str]] | None = None,
    pod_cidr: str | None = None,
    kernel: str = "6.1.0-18-cloud-amd64",
    pressure: str | None = None,
) -> Obj:
    node_labels = {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}
    if zone:
        node_labels["topology.kubernetes.io/zone"] = zone
    node_labels.update(labels or {})
    capacity = {"cpu": cpu, "memory": memory, "pods": pods, "ephemeral-storage": "100Gi"}
    allocatable = {"cpu": cpu, "memory": memory, "pods": pods}
    if gpus is not None:
        capacity["nvidia.com/gpu"] = str(gpus)
        allocatable["nvidia.com/gpu"] = str(gpus if allocatable_gpus is None else allocatable_gpus)
    conditions = [
        {"type": kind, "status": "True" if kind == pressure else "False"}
        for kind in ("MemoryPressure", "DiskPressure", "PIDPressure")
    ]
    conditions.append(
        {
            "type": "Ready",
            "status": "True" if ready else "Unknown",
            "lastTransitionTime": ready_since,
            "reason": "KubeletReady" if ready else "NodeStatusUnknown",
        }
    )
    spec: dict[str, Any] = {}
    if unschedulable:
        spec["unschedulable"] = True
    if taints:
        spec["taints"] = taints
    if pod_cidr:
        spec["podCIDR"] = pod_cidr
        spec["podCIDRs"] = [pod_cidr]
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": meta(name, labels=node_labels),
        "spec": spec,
        "status": {
            "capacity": capacity,
            "allocatable": allocatable,
            "conditions": conditions,
            "nodeInfo": {
                "kernelVersion": kernel,
                "osImage": "Debian GNU/Linux 12 (bookworm)",
                "kubeletVersion": "v1.30.4",
                "containerRuntimeVersion": "containerd://1.7.20",
            },
        },
    }


def pod_spec(containers: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "containers": containers or [sized()],
        "restartPolicy": "Always",
        "dnsPolicy": "ClusterFirst",
        "serviceAccountName": "default",
        **extra,
    }


def qos_of(containers: list[dict[str, Any]]) -> str:
    resources = [c.get("resources") or {} for c in containers]
    if not any(r.get("requests") or r.get("limits") for r in resources):
        return "BestEffort"
    guaranteed = all(
        r.get("limits", {}).get(k)
        and r.get("requests", {}).get(k, r["limits"][k]) == r["limits"][k]
        for r in resources
        for k in ("cpu", "memory")
    )
    return "Guaranteed" if guaranteed else "Burstable"


def pod(
    name: str,
    *,
    namespace: str = "default",
    node_name: str | None = "node-a",
    owner: tuple[str, str] | None = None,
    labels: dict[str, str] | None = None,
    containers: list[dict[str, Any]] | None = None,
    phase: str = "Running",
    ready: bool = True,
    priority: int = 0,
    restarts: int = 0,
    scheduled_message: str | None = None,
    **spec_extra: Any,
) -> Obj:
    """owner is (kind, name); a ReplicaSet owner gets the pod-template-hash label."""
    pod_labels = dict(labels or {})
    extra_meta: dict[str, Any] = {}
    if owner:
        kind, owner_name = owner
        if kind == "ReplicaSet":
            pod_labels["pod-template-hash"] = owner_name.rsplit("-", 1)[1]
        extra_meta["ownerReferences"] = [
            {
                "apiVersion": "batch/v1" if kind == "Job" else "apps/v1",
                "kind": kind,
                "name": owner_name,
                "uid": f"uid-{owner_name}",
                "controller": True,
                "blockOwnerDeletion": True,
            }
        ]
    spec = pod_spec(containers, priority=priority, **spec_extra)
    if node_name:
        spec["nodeName"] = node_name
    conditions = [{"type": "Ready", "status": "True" if ready else "False"}]
    if scheduled_message:
        conditions = [
            {
                "type": "PodScheduled",
                "status": "False",
                "reason": "Unschedulable",
                "message": scheduled_message,
            }
        ]
    status: dict[str, Any] = {
        "phase": phase,
        "qosClass": qos_of(spec["containers"]),
        "conditions": conditions,
        "containerStatuses": [
            {"name": c["name"], "ready": ready, "restartCount": restarts, "image": c["image"]}
            for c in spec["containers"]
        ],
    }
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": meta(name, namespace, pod_labels, **extra_meta),
        "spec": spec,
        "status": status,
    }


def workload(
    kind: str,
    name: str,
    *,
    namespace: str = "default",
    replicas: int | None = 3,
    labels: dict[str, str] | None = None,
    containers: list[dict[str, Any]] | None = None,
    status: dict[str, Any] | None = None,
    **spec_extra: Any,
) -> Obj:
    pod_labels = labels or {"app.kubernetes.io/name": name}
    spec: dict[str, Any] = {
        "selector": {"matchLabels": pod_labels},
        "template": {
            "metadata": {"labels": pod_labels},
            "spec": pod_spec(containers, **spec_extra),
        },
    }
    if replicas is not None and kind != "DaemonSet":
        spec["replicas"] = replicas
    return {
        "apiVersion": "apps/v1",
        "kind": kind,
        "metadata": meta(name, namespace, pod_labels),
        "spec": spec,
        "status": status or {},
    }


def deployment(name: str, **kwargs: Any) -> Obj:
    return workload("Deployment", name, **kwargs)


def statefulset(name: str, **kwargs: Any) -> Obj:
    return workload("StatefulSet", name, **kwargs)


def daemonset(name: str, *, desired: int = 3, ready: int | None = None, **kwargs: Any) -> Obj:
    status = {
        "desiredNumberScheduled": desired,
        "currentNumberScheduled": desired,
        "numberReady": desired if ready is None else ready,
        "numberMisscheduled": 0,
    }
    return workload("DaemonSet", name, replicas=None, status=status, **kwargs)


def job(
    name: str,
    *,
    namespace: str = "batch",
    backoff_limit: int = 6,
    restart_policy: str = "Never",
    failed: int = 0,
    cronjob: str | None = None,
    containers: list[dict[str, Any]] | None = None,
    status: dict[str, Any] | None = None,
    **spec_extra: Any,
) -> Obj:
    extra_meta: dict[str, Any] = {}
    if cronjob:
        extra_meta["ownerReferences"] = [
            {"apiVersion": "batch/v1", "kind": "CronJob", "name": cronjob, "controller": True}
        ]
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": meta(name, namespace, **extra_meta),
        "spec": {
            "backoffLimit": backoff_limit,
            "completions": 1,
            "parallelism": 1,
            "template": {"spec": pod_spec(containers, restartPolicy=restart_policy)},
            **spec_extra,
        },
        "status": {**({"failed": failed} if failed else {}), **(status or {})},
    }


def cronjob(
    name: str,
    *,
    namespace: str = "batch",
    schedule: str = "*/5 * * * *",
    concurrency: str | None = None,
    backoff_limit: int = 6,
    restart_policy: str = "Never",
    deadline: int | None = None,
    starting_deadline: int | None = None,
) -> Obj:
    job_spec: dict[str, Any] = {
        "backoffLimit": backoff_limit,
        "template": {"spec": pod_spec(restartPolicy=restart_policy)},
    }
    if deadline is not None:
        job_spec["activeDeadlineSeconds"] = deadline
    spec: dict[str, Any] = {
        "schedule": schedule,
        "suspend": False,
        "successfulJobsHistoryLimit": 3,
        "failedJobsHistoryLimit": 1,
        "jobTemplate": {"spec": job_spec},
    }
    if concurrency:
        spec["concurrencyPolicy"] = concurrency
    if starting_deadline is not None:
        spec["startingDeadlineSeconds"] = starting_deadline
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": meta(name, namespace),
        "spec": spec,
    }


def simple(kind: str, name: str, namespace: str | None = None, **body: Any) -> Obj:
    """Any other object: kind, metadata and the given top-level fields (spec, data, ...)."""
    labels = body.pop("labels", None)
    return {"kind": kind, "metadata": meta(name, namespace, labels), **body}


def pdb(name: str, match_labels: dict[str, str], namespace: str = "default") -> Obj:
    return simple(
        "PodDisruptionBudget",
        name,
        namespace,
        apiVersion="policy/v1",
        spec={"maxUnavailable": 1, "selector": {"matchLabels": match_labels}},
        status={"currentHealthy": 3, "desiredHealthy": 2, "disruptionsAllowed": 1},
    )


def hpa(
    name: str, target: str, minimum: int = 2, namespace: str = "default", maximum: int = 10
) -> Obj:
    return simple(
        "HorizontalPodAutoscaler",
        name,
        namespace,
        apiVersion="autoscaling/v2",
        spec={
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": target},
            "minReplicas": minimum,
            "maxReplicas": maximum,
        },
    )


def pvc(
    name: str,
    *,
    namespace: str = "default",
    volume: str | None = None,
    storage_class: str = "standard",
    modes: tuple[str, ...] = ("ReadWriteOnce",),
) -> Obj:
    spec: dict[str, Any] = {
        "accessModes": list(modes),
        "resources": {"requests": {"storage": "100Gi"}},
        "storageClassName": storage_class,
    }
    if volume:
        spec["volumeName"] = volume
    return simple("PersistentVolumeClaim", name, namespace, spec=spec, status={"phase": "Bound"})


def pv(name: str, source: dict[str, Any], options: list[str] | None = None) -> Obj:
    spec: dict[str, Any] = {"capacity": {"storage": "10Ti"}, "accessModes": ["ReadWriteMany"]}
    spec.update(source)
    if options is not None:
        spec["mountOptions"] = options
    return simple("PersistentVolume", name, spec=spec, status={"phase": "Bound"})


def documents(objects: list[Obj], kinds: tuple[str, ...] | None = None) -> list[Obj]:
    """One typed <Kind>List per kind read (all kinds by default), as `kubectl get --raw` gives."""
    wanted = kinds if kinds is not None else tuple(r.kind for r in RESOURCES)
    found = []
    for kind in wanted:
        items = [dict(obj) for obj in objects if obj["kind"] == kind]
        for item in items:
            item.pop("kind")  # items of a typed list carry no kind
        found.append({"kind": f"{kind}List", "apiVersion": "v1", "items": items})
    return found


def make_snapshot(*objects: Obj, kinds: tuple[str, ...] | None = None) -> Snapshot:
    text = "\n".join(json.dumps(doc) for doc in documents(list(objects), kinds))
    return load_snapshot(text)


# A Corefile as kubeadm writes it: cache on, forwarding to the node resolver.
GOOD_COREFILE = """.:53 {
    errors
    health
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
    }
    prometheus :9153
    forward . /etc/resolv.conf
    cache 30
    loop
    reload
}
"""
