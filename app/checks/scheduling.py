"""Scheduling predicates: whether a pod spec may land on a node (selectors, affinity, taints).

One home for what several patterns ask: node-label-selector-drift (does any node match?),
no-spare-capacity (where could one more replica go?).
"""

from __future__ import annotations

from typing import Any

from app.checks import kube
from app.checks.snapshot import Obj


def required_terms(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The required nodeAffinity terms of a pod spec (any one of them must match)."""
    affinity = kube.dig(
        spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"
    )
    return list((affinity or {}).get("nodeSelectorTerms") or [])


def requirement_matches(expression: dict[str, Any], node_labels: dict[str, str]) -> bool:
    """One node selector requirement, including the numeric Gt and Lt operators."""
    key, operator = str(expression.get("key")), expression.get("operator")
    values = [str(v) for v in expression.get("values") or []]
    if operator in ("Gt", "Lt"):
        try:
            have, want = int(node_labels[key]), int(values[0])
        except (KeyError, IndexError, ValueError):
            return False
        return have > want if operator == "Gt" else have < want
    return kube.selector_matches({"matchExpressions": [expression]}, node_labels)


def node_matches(spec: dict[str, Any], node: Obj) -> bool:
    """nodeSelector AND any of the required nodeAffinity terms."""
    node_labels = kube.labels(node)
    selector = spec.get("nodeSelector") or {}
    if any(node_labels.get(key) != value for key, value in selector.items()):
        return False
    terms = required_terms(spec)
    if not terms:
        return True
    fields = {"metadata.name": kube.name(node)}
    for term in terms:
        if all(
            requirement_matches(e, node_labels) for e in term.get("matchExpressions") or []
        ) and all(requirement_matches(e, fields) for e in term.get("matchFields") or []):
            return True
    return False


def tolerates(spec: dict[str, Any], taint: dict[str, Any]) -> bool:
    """Whether the pod spec tolerates one taint (PreferNoSchedule never blocks)."""
    if taint.get("effect") not in ("NoSchedule", "NoExecute"):
        return True
    for toleration in spec.get("tolerations") or []:
        key, operator = toleration.get("key"), toleration.get("operator") or "Equal"
        if key and key != taint.get("key"):
            continue
        if not key and operator != "Exists":
            continue
        if operator == "Equal" and toleration.get("value") != taint.get("value"):
            continue
        if toleration.get("effect") in (None, "", taint.get("effect")):
            return True
    return False


def can_host(spec: dict[str, Any], node: Obj) -> bool:
    """A Ready, schedulable node whose labels match and whose taints are tolerated."""
    taints = kube.dig(node, "spec", "taints") or []
    return (
        kube.node_schedulable(node)
        and node_matches(spec, node)
        and all(tolerates(spec, taint) for taint in taints)
    )
