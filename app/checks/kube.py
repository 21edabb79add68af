"""Small readers over Kubernetes objects as the API returns them (plain JSON dicts)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from app.checks.quantity import parse_quantity
from app.checks.registry import ObjectRef
from app.checks.snapshot import Obj, Snapshot

WORKLOAD_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob")
ZONE_LABEL = "topology.kubernetes.io/zone"
LEGACY_ZONE_LABEL = "failure-domain.beta.kubernetes.io/zone"
HOSTNAME_LABEL = "kubernetes.io/hostname"
GPU = "nvidia.com/gpu"
SYSTEM_NAMESPACES = frozenset({"kube-system"})
# Namespaces and app names that usually hold the platform (not tenant) pods.
PLATFORM_NAMESPACES = frozenset(
    {
        "kube-system",
        "ingress-nginx",
        "monitoring",
        "prometheus",
        "observability",
        "cert-manager",
        "calico-system",
        "tigera-operator",
        "gpu-operator",
        "istio-system",
        "linkerd",
    }
)
PLATFORM_APPS = frozenset(
    {
        "coredns",
        "kube-dns",
        "ingress-nginx",
        "traefik",
        "skipper",
        "contour",
        "envoy",
        "haproxy-ingress",
        "kong",
        "prometheus",
        "alertmanager",
        "grafana",
        "cert-manager",
    }
)
# JupyterHub's core pods carry `component: <one of these>` (IL-0094).
JUPYTERHUB_CORE = frozenset({"hub", "proxy", "autohttps", "user-scheduler"})


def meta(obj: Obj) -> dict[str, Any]:
    return obj.get("metadata") or {}


def name(obj: Obj) -> str:
    return str(meta(obj).get("name") or "")


def namespace(obj: Obj) -> str:
    return str(meta(obj).get("namespace") or "")


def labels(obj: Obj) -> dict[str, str]:
    return meta(obj).get("labels") or {}


def ref(obj: Obj) -> ObjectRef:
    return ObjectRef(str(obj.get("kind") or ""), namespace(obj), name(obj))


def dig(obj: Any, *keys: str) -> Any:
    """obj[k1][k2]... or None when any step is missing."""
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def timestamp(value: object) -> datetime | None:
    """An RFC 3339 time as an aware datetime; one written without a zone is taken as UTC."""
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


# --- workloads and pod templates -------------------------------------------------------------


def pod_spec(workload: Obj) -> dict[str, Any]:
    """The pod spec of a workload's template, or of a pod."""
    if workload.get("kind") == "Pod":
        return workload.get("spec") or {}
    if workload.get("kind") == "CronJob":
        return dig(workload, "spec", "jobTemplate", "spec", "template", "spec") or {}
    return dig(workload, "spec", "template", "spec") or {}


def template_labels(workload: Obj) -> dict[str, str]:
    """The labels its pods carry: a template's, or a pod's own."""
    if workload.get("kind") == "Pod":
        return labels(workload)
    if workload.get("kind") == "CronJob":
        return dig(workload, "spec", "jobTemplate", "spec", "template", "metadata", "labels") or {}
    return dig(workload, "spec", "template", "metadata", "labels") or {}


def workloads(snapshot: Snapshot, *kinds: str) -> Iterator[Obj]:
    for kind in kinds:
        yield from snapshot.of(kind)


BATCH_KINDS = frozenset({"Job", "CronJob"})


def pods_standing_in(snapshot: Snapshot, kinds: tuple[str, ...]) -> Iterator[tuple[Obj, ObjectRef]]:
    """Pods to judge in place of a workload of `kinds` the snapshot does not hold.

    A bare Pod (no controller) stands for itself; a running pod whose Deployment, StatefulSet,
    DaemonSet or other long-running controller is not in the snapshot stands for that
    workload, once, so `kubectl get pods` alone is still judged and a workload in the snapshot
    is never judged twice. Pods of Jobs, and finished pods, stand for nothing.
    """
    present = {ref(item) for kind in kinds for item in snapshot.of(kind)}
    seen: set[ObjectRef] = set()
    for pod in snapshot.of("Pod"):
        if is_terminated(pod):
            continue
        workload = owner(pod)
        if workload is not None and (workload.kind in BATCH_KINDS or workload in present):
            continue
        stands_for = workload or ref(pod)
        if stands_for not in seen:
            seen.add(stands_for)
            yield pod, stands_for


def judged(snapshot: Snapshot, *kinds: str) -> Iterator[tuple[Obj, ObjectRef]]:
    """The workloads of `kinds` with their refs, then the pods standing in for absent ones."""
    for workload in workloads(snapshot, *kinds):
        yield workload, ref(workload)
    yield from pods_standing_in(snapshot, kinds)


def containers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return list(spec.get("containers") or [])


def containers_lacking(workload: Obj, lacks: Callable[[dict[str, Any]], bool]) -> list[str]:
    """Names of the workload's containers for which `lacks` holds (a missing probe, limit ...)."""
    return [str(c.get("name")) for c in containers(pod_spec(workload)) if lacks(c)]


def all_containers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return list(spec.get("initContainers") or []) + containers(spec)


def resource(container: dict[str, Any], section: str, key: str) -> float | None:
    """A container's request or limit for one resource, None when unset or unparsable.

    A request left out beside a limit is the limit: the API server defaults it so, which a
    manifest (not yet defaulted) does not show.
    """
    value = dig(container, "resources", section, key)
    if value is None and section == "requests":
        value = dig(container, "resources", "limits", key)
    if value is None:
        return None
    try:
        return parse_quantity(value)
    except ValueError:
        return None


def effective(spec: dict[str, Any], section: str, key: str) -> float:
    """What the scheduler counts: max(sum of containers, largest init container) + overhead."""
    total = sum(resource(c, section, key) or 0.0 for c in containers(spec))
    init = [resource(c, section, key) or 0.0 for c in spec.get("initContainers") or []]
    overhead = dig(spec, "overhead", key)
    extra = parse_quantity(overhead) if overhead is not None else 0.0
    return max([total, *init]) + extra


def selector_matches(selector: dict[str, Any] | None, target: dict[str, str]) -> bool:
    """A LabelSelector (matchLabels + matchExpressions) against a label map."""
    if not selector:
        return False
    for key, value in (selector.get("matchLabels") or {}).items():
        if target.get(key) != value:
            return False
    return all(_expression_matches(e, target) for e in selector.get("matchExpressions") or [])


def _expression_matches(expression: dict[str, Any], target: dict[str, str]) -> bool:
    key, operator = expression.get("key", ""), expression.get("operator")
    values = expression.get("values") or []
    if operator == "In":
        return target.get(key) in values
    if operator == "NotIn":
        return target.get(key) not in values
    if operator == "Exists":
        return key in target
    if operator == "DoesNotExist":
        return key not in target
    return False


# --- pods -----------------------------------------------------------------------------------

_HASH_SUFFIX = re.compile(r"-[a-z0-9]{5,10}$")


def owner(pod: Obj) -> ObjectRef | None:
    """The workload behind a pod; a ReplicaSet resolves to its Deployment by name."""
    for reference in meta(pod).get("ownerReferences") or []:
        if not reference.get("controller"):
            continue
        kind, owner_name = str(reference.get("kind")), str(reference.get("name"))
        if kind == "ReplicaSet":
            pod_hash = labels(pod).get("pod-template-hash")
            if pod_hash and owner_name.endswith(f"-{pod_hash}"):
                return ObjectRef("Deployment", namespace(pod), owner_name[: -len(pod_hash) - 1])
            return ObjectRef("Deployment", namespace(pod), _HASH_SUFFIX.sub("", owner_name))
        return ObjectRef(kind, namespace(pod), owner_name)
    return None


def is_terminated(pod: Obj) -> bool:
    return dig(pod, "status", "phase") in ("Succeeded", "Failed")


def is_running_ready(pod: Obj) -> bool:
    if dig(pod, "status", "phase") != "Running":
        return False
    return condition(pod, "Ready") == "True"


def condition(obj: Obj, kind: str) -> str | None:
    for item in dig(obj, "status", "conditions") or []:
        if item.get("type") == kind:
            return str(item.get("status"))
    return None


def condition_item(obj: Obj, kind: str) -> dict[str, Any] | None:
    for item in dig(obj, "status", "conditions") or []:
        if item.get("type") == kind:
            return dict(item)
    return None


def active_pods(snapshot: Snapshot) -> list[Obj]:
    """Pods that hold node resources: not Succeeded or Failed."""
    return [pod for pod in snapshot.of("Pod") if not is_terminated(pod)]


def pod_node(pod: Obj) -> str:
    return str(dig(pod, "spec", "nodeName") or "")


def qos_class(pod: Obj) -> str:
    return str(dig(pod, "status", "qosClass") or "")


def priority(pod: Obj) -> int:
    return int(dig(pod, "spec", "priority") or 0)


def is_platform_pod(pod: Obj) -> bool:
    """kube-system, platform namespaces, known platform apps and JupyterHub core pods."""
    pod_labels = labels(pod)
    app_names = {
        pod_labels.get("app.kubernetes.io/name"),
        pod_labels.get("app"),
        pod_labels.get("k8s-app"),
    }
    if namespace(pod) in PLATFORM_NAMESPACES or app_names & PLATFORM_APPS:
        return True
    return pod_labels.get("component") in JUPYTERHUB_CORE and pod_labels.get("app") == "jupyterhub"


def volumes(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return list(spec.get("volumes") or [])


# --- nodes ----------------------------------------------------------------------------------


def node_ready(node: Obj) -> bool:
    return condition(node, "Ready") == "True"


def node_schedulable(node: Obj) -> bool:
    return node_ready(node) and not dig(node, "spec", "unschedulable")


def zone(node: Obj) -> str | None:
    node_labels = labels(node)
    return node_labels.get(ZONE_LABEL) or node_labels.get(LEGACY_ZONE_LABEL)


def allocatable(node: Obj, key: str) -> float:
    value = dig(node, "status", "allocatable", key)
    return parse_quantity(value) if value is not None else 0.0


def capacity(node: Obj, key: str) -> float:
    value = dig(node, "status", "capacity", key)
    return parse_quantity(value) if value is not None else 0.0


def is_gpu_node(node: Obj) -> bool:
    return capacity(node, GPU) > 0 or labels(node).get("nvidia.com/gpu.present") == "true"


def nodes_by_name(snapshot: Snapshot) -> dict[str, Obj]:
    return {name(node): node for node in snapshot.of("Node")}
