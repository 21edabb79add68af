"""A snapshot: the objects of a cluster read with `kubectl get`, grouped by kind."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Obj = dict[str, Any]


@dataclass(frozen=True)
class Resource:
    """A kind the checks read and the API path that lists it across namespaces."""

    kind: str
    path: str


RESOURCES: tuple[Resource, ...] = (
    Resource("Node", "/api/v1/nodes"),
    Resource("Pod", "/api/v1/pods"),
    Resource("Namespace", "/api/v1/namespaces"),
    Resource("PersistentVolumeClaim", "/api/v1/persistentvolumeclaims"),
    Resource("PersistentVolume", "/api/v1/persistentvolumes"),
    Resource("ResourceQuota", "/api/v1/resourcequotas"),
    Resource("LimitRange", "/api/v1/limitranges"),
    # Only kube-system: CoreDNS, kube-proxy, kubeadm and CNI settings live there.
    Resource("ConfigMap", "/api/v1/namespaces/kube-system/configmaps"),
    Resource("Deployment", "/apis/apps/v1/deployments"),
    Resource("StatefulSet", "/apis/apps/v1/statefulsets"),
    Resource("DaemonSet", "/apis/apps/v1/daemonsets"),
    Resource("Job", "/apis/batch/v1/jobs"),
    Resource("CronJob", "/apis/batch/v1/cronjobs"),
    Resource("StorageClass", "/apis/storage.k8s.io/v1/storageclasses"),
    Resource("PodDisruptionBudget", "/apis/policy/v1/poddisruptionbudgets"),
    Resource("HorizontalPodAutoscaler", "/apis/autoscaling/v2/horizontalpodautoscalers"),
    Resource("PriorityClass", "/apis/scheduling.k8s.io/v1/priorityclasses"),
    Resource(
        "ValidatingWebhookConfiguration",
        "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
    ),
    Resource(
        "MutatingWebhookConfiguration",
        "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
    ),
)

# `kubectl get --raw` returns a typed <Kind>List, so a kind the cluster has none of still shows
# up as read (an empty NodeList), which a mixed `kubectl get a,b -o json` List cannot tell.
SNAPSHOT_COMMAND = (
    "for p in "
    + " ".join(resource.path for resource in RESOURCES)
    + '; do kubectl get --raw "$p"; echo; done > snapshot.json'
)

# The same read as one mixed List; accepted too, but a kind with no objects looks unread.
SNAPSHOT_LIST_COMMAND = (
    "kubectl get nodes,pods,namespaces,pvc,pv,resourcequotas,limitranges,deployments,"
    "statefulsets,daemonsets,jobs,cronjobs,storageclasses,poddisruptionbudgets,hpa,"
    "priorityclasses,validatingwebhookconfigurations,mutatingwebhookconfigurations -A -o json"
    " > snapshot.json && kubectl get configmaps -n kube-system -o json >> snapshot.json"
)

SECRET_MESSAGE = "the snapshot contains a Secret; remove secrets from the command"


class SnapshotError(Exception):
    """Bad snapshot input; the message is one line meant for the user."""


@dataclass(frozen=True)
class Snapshot:
    """Objects by kind, plus the kinds that were read (even when they had no objects)."""

    objects: Mapping[str, tuple[Obj, ...]]
    kinds: frozenset[str]

    def of(self, kind: str) -> tuple[Obj, ...]:
        """The objects of one kind (empty when none or not read)."""
        return self.objects.get(kind, ())

    def has(self, kind: str) -> bool:
        """Whether the kind was read at all."""
        return kind in self.kinds

    def missing(self, kinds: Iterable[str]) -> list[str]:
        """The kinds among `kinds` that were not read."""
        return [kind for kind in kinds if kind not in self.kinds]


def load_snapshot(text: str | bytes) -> Snapshot:
    """Parse one or more concatenated `List` / `<Kind>List` JSON documents.

    :raises SnapshotError: for empty or malformed JSON, a document that is not a list, an item
        without a kind, or any Secret.
    """
    return _build(_documents(_decode(text)))


def snapshot_from_documents(documents: Iterable[object]) -> Snapshot:
    """Build a snapshot from already parsed list documents (the live path uses this).

    :raises SnapshotError: as load_snapshot does.
    """
    return _build([_check_list(document) for document in documents])


def load_snapshot_files(paths: Iterable[str | Path]) -> Snapshot:
    """Read and merge snapshot files; "-" reads standard input.

    :raises SnapshotError: for an unreadable file or bad content (the message names the file).
    """
    documents: list[Obj] = []
    paths = list(paths)
    if not paths:
        raise SnapshotError("no snapshot file given")
    for path in paths:
        raw = _read(path)
        try:
            documents.extend(_documents(_decode(raw)))
        except SnapshotError as error:
            raise SnapshotError(f"{_label(path)}: {error}") from None
    return _build(documents)


def _label(path: str | Path) -> str:
    return "standard input" if str(path) == "-" else str(path)


def _read(path: str | Path) -> bytes:
    if str(path) == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise SnapshotError(f"cannot read {path}: {error.strerror or error}") from None


def _decode(text: str | bytes) -> str:
    if isinstance(text, bytes):
        try:
            return text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise SnapshotError("the snapshot is not UTF-8 text") from None
    return text


def _documents(text: str) -> list[Obj]:
    decoder = json.JSONDecoder()
    documents: list[Obj] = []
    position = _skip_space(text, 0)
    if position == len(text):
        raise SnapshotError("the snapshot is empty")
    while position < len(text):
        try:
            document, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise SnapshotError(
                f"the snapshot is not valid JSON (line {error.lineno}, column {error.colno}: "
                f"{error.msg})"
            ) from None
        documents.append(_check_list(document))
        position = _skip_space(text, position)
    return documents


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _check_list(document: object) -> Obj:
    if not isinstance(document, dict):
        raise SnapshotError("the snapshot is not a Kubernetes List (expected a JSON object)")
    kind = document.get("kind")
    if kind in ("Secret", "SecretList"):
        raise SnapshotError(SECRET_MESSAGE)
    if not isinstance(kind, str) or not kind.endswith("List"):
        raise SnapshotError(
            f"the snapshot is not a Kubernetes List (kind is {kind!r}); use kubectl get ... -o json"
        )
    if not isinstance(document.get("items"), list):
        raise SnapshotError(f"the {kind} has no items list")
    return document


def _build(documents: list[Obj]) -> Snapshot:
    seen: dict[str, dict[tuple[str, str], Obj]] = {}
    kinds: set[str] = set()
    for document in documents:
        list_kind = str(document["kind"])
        item_kind = None if list_kind == "List" else list_kind.removesuffix("List")
        if item_kind:
            kinds.add(item_kind)
        for index, item in enumerate(document["items"]):
            kind = _item_kind(item, item_kind, index)
            kinds.add(kind)
            metadata = item.get("metadata") or {}
            key = (str(metadata.get("namespace") or ""), str(metadata.get("name") or index))
            seen.setdefault(kind, {})[key] = item
    objects = {kind: tuple(items.values()) for kind, items in seen.items()}
    return Snapshot(objects=objects, kinds=frozenset(kinds))


def _item_kind(item: object, list_item_kind: str | None, index: int) -> str:
    if not isinstance(item, dict):
        raise SnapshotError(f"item {index} of the list is not an object")
    kind = item.get("kind") or list_item_kind
    if kind == "Secret":
        raise SnapshotError(SECRET_MESSAGE)
    if not isinstance(kind, str) or not kind:
        raise SnapshotError(f"item {index} of the List has no kind")
    item["kind"] = kind
    return kind
