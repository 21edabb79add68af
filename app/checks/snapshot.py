"""A snapshot: the objects of one cluster read with `kubectl get`, grouped by kind.

Input is what people have: `kubectl get -o json` or `-o yaml`, a typed <Kind>List, a mixed List,
a single object, multi-document YAML or concatenated JSON, a directory of manifests, standard
input. Each object is validated as it is read (app.checks.objects); a bad one is skipped with a
warning naming the file, kind, namespace and name, and the rest is still checked.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.checks import clusters, objects
from app.checks.documents import SnapshotError, parse_documents
from app.checks.text import Text

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
    Resource("Service", "/api/v1/services"),
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
    "kubectl get nodes,pods,namespaces,services,pvc,pv,resourcequotas,limitranges,deployments,"
    "statefulsets,daemonsets,jobs,cronjobs,storageclasses,poddisruptionbudgets,hpa,"
    "priorityclasses,validatingwebhookconfigurations,mutatingwebhookconfigurations -A -o json"
    " > snapshot.json && kubectl get configmaps -n kube-system -o json >> snapshot.json"
)

SECRET_MESSAGE = "the snapshot contains a Secret; remove secrets from the command"
SECRET = Text(SECRET_MESSAGE, "스냅숏에 Secret 이 들어 있다. 명령에서 secrets 를 빼고 다시 만든다")
MANIFEST_SUFFIXES = (".json", ".yaml", ".yml")


@dataclass(frozen=True)
class ReadWarning:
    """An object that was skipped, or read with a caveat; `where` names file and object."""

    where: str
    problem: Text


@dataclass(frozen=True)
class Snapshot:
    """Objects by kind, plus the kinds that were read (even when they had no objects)."""

    objects: Mapping[str, tuple[Obj, ...]]
    kinds: frozenset[str]
    warnings: tuple[ReadWarning, ...] = ()
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def of(self, kind: str) -> tuple[Obj, ...]:
        """The objects of one kind (empty when none or not read)."""
        return self.objects.get(kind, ())

    def has(self, kind: str) -> bool:
        """Whether the kind was read at all."""
        return kind in self.kinds

    def missing(self, kinds: Iterable[str]) -> list[str]:
        """The kinds among `kinds` that were not read."""
        return [kind for kind in kinds if kind not in self.kinds]


# --- entry points ---------------------------------------------------------------------------


def load_snapshot(text: str | bytes, label: str = "") -> Snapshot:
    """Parse one input (JSON or YAML, one or more documents); `label` names it in messages.

    :raises SnapshotError: for input that is not JSON or YAML, holds no Kubernetes object,
        holds a Secret, or mixes two clusters.
    """
    reader = _Reader()
    reader.add(label, text)
    return reader.build()


def snapshot_from_documents(documents: Iterable[object]) -> Snapshot:
    """Build a snapshot from already parsed list documents (the live path uses this).

    :raises SnapshotError: as load_snapshot does.
    """
    reader = _Reader()
    for document in documents:
        reader.add_document("the cluster", document, 1)
    return reader.build()


def load_snapshot_files(paths: Iterable[str | Path]) -> Snapshot:
    """Read files, directories of manifests, or "-" (standard input) as one cluster's snapshot.

    :raises SnapshotError: for an unreadable file or bad content (the message names the file),
        or inputs that come from different clusters.
    """
    paths = list(paths)
    if not paths:
        raise SnapshotError(Text("no snapshot file given", "스냅숏 파일을 주지 않았다"))
    reader = _Reader()
    for label, raw in _inputs(paths):
        reader.add(label, raw)
    return reader.build()


def _inputs(paths: list[str | Path]) -> Iterator[tuple[str, bytes]]:
    for path in paths:
        if str(path) == "-":
            yield "standard input", sys.stdin.buffer.read()
            continue
        path = Path(path)
        if path.is_dir():
            files = sorted(
                p
                for p in path.rglob("*")
                if p.suffix in MANIFEST_SUFFIXES
                and p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
            if not files:
                raise SnapshotError(
                    Text(
                        f"{path}: no .json, .yaml or .yml file in this directory",
                        f"{path}: 디렉터리에 .json, .yaml, .yml 파일이 없다",
                    )
                )
            for file in files:
                yield str(file), _read(file)
        else:
            yield str(path), _read(path)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise SnapshotError(
            Text(f"cannot read {path}: {reason}", f"{path} 을(를) 읽을 수 없다: {reason}")
        ) from None


# --- collecting objects ---------------------------------------------------------------------


def describe(kind: str, item: Obj) -> str:
    """`Deployment shop/web` for a warning; missing parts are left out."""
    metadata = item.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    namespace, name = metadata.get("namespace"), metadata.get("name")
    where = f"{namespace}/" if isinstance(namespace, str) and namespace else ""
    return f"{kind} {where}{name if isinstance(name, str) else '(no name)'}"


@dataclass
class _Seen:
    item: Obj
    label: str  # where it was read: the input, and the document in it
    uid: str | None
    source: str  # the input alone


class _Reader:
    """Collects objects from several inputs, refusing Secrets and a second cluster."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[tuple[str, str], _Seen]] = {}
        self.kinds: set[str] = set()
        self.warnings: list[ReadWarning] = []
        self.documents = 0  # Lists and objects with a kind, even when skipped
        # The inputs in the order read, to tell whether several come from one cluster.
        self.inputs: list[str] = []
        self.input = "the cluster"

    def add(self, label: str, raw: str | bytes) -> None:
        self.input = label or "input"
        self.inputs.append(self.input)
        try:
            documents = parse_documents(raw)
        except SnapshotError as error:
            raise (error.within(label) if label else error) from None
        for number, document in enumerate(documents, start=1):
            self.add_document(label or "input", document, number if len(documents) > 1 else 0)

    def add_document(self, label: str, document: object, number: int) -> None:
        where = f"{label} (document {number})" if number else label
        if isinstance(document, list):  # a bare array of objects
            for index, item in enumerate(document):
                self.add_item(where, item, None, index)
            return
        if not isinstance(document, dict):
            self.warn(where, Text("not a Kubernetes object", "쿠버네티스 오브젝트가 아니다"))
            return
        kind = document.get("kind")
        if kind in ("Secret", "SecretList"):
            raise SnapshotError(SECRET)
        if isinstance(kind, str) and kind.endswith("List"):
            items = document.get("items")
            if not isinstance(items, list):
                self.warn(
                    where, Text(f"the {kind} has no items list", f"{kind} 에 items 목록이 없다")
                )
                return
            self.documents += 1
            item_kind = None if kind == "List" else kind.removesuffix("List")
            if item_kind:
                self.kinds.add(item_kind)
            for index, item in enumerate(items):
                self.add_item(where, item, item_kind, index)
            return
        self.add_item(where, document, None, None)

    def add_item(self, where: str, item: object, list_kind: str | None, index: int | None) -> None:
        at = f"{where}, item {index}" if index is not None else where
        if not isinstance(item, dict):
            self.warn(at, Text("not a Kubernetes object", "쿠버네티스 오브젝트가 아니다"))
            return
        kind = item.get("kind") or list_kind
        if kind == "Secret":
            raise SnapshotError(SECRET)
        if not isinstance(kind, str) or not kind:
            self.warn(at, Text("the object has no kind", "오브젝트에 kind 가 없다"))
            return
        item["kind"] = kind
        self.documents += 1
        problem = objects.problem(kind, item)
        if problem is not None:
            self.warn(
                f"{where}: {describe(kind, item)}",
                Text(f"skipped, {problem}", f"건너뛰었다. {problem}"),
            )
            return
        self.kinds.add(kind)
        metadata = item.get("metadata") or {}
        namespace, name = str(metadata.get("namespace") or ""), metadata.get("name")
        key = (namespace, str(name) if name else f"(unnamed {len(self.seen.get(kind, {}))})")
        uid = metadata.get("uid")
        earlier = self.seen.setdefault(kind, {}).get(key)
        if earlier is not None:
            self._same_cluster(kind, key, earlier, where, uid)
        self.seen[kind][key] = _Seen(item, where, uid, self.input)

    def _same_cluster(
        self, kind: str, key: tuple[str, str], earlier: _Seen, where: str, uid: str | None
    ) -> None:
        if uid and earlier.uid and uid != earlier.uid:
            shown = f"{kind} {key[0] + '/' if key[0] else ''}{key[1]}"
            raise SnapshotError(
                Text(
                    f"{earlier.label} and {where} come from different clusters ({shown} has two "
                    "uids); check one cluster at a time",
                    f"{earlier.label} 와 {where} 는 서로 다른 클러스터의 것이다 ({shown} 의 uid 가 "
                    "둘이다). 클러스터를 하나씩 점검한다",
                )
            )
        if not uid and earlier.label != where:
            self.warn(
                f"{where}: {describe(kind, earlier.item)}",
                Text(
                    f"also in {earlier.label}; the later one is used",
                    f"{earlier.label} 에도 있어 나중 것을 쓴다",
                ),
            )

    def warn(self, where: str, problem: Text) -> None:
        self.warnings.append(ReadWarning(where, problem))

    def _one_cluster(self) -> None:
        """Refuse inputs that prove two clusters; warn about one nothing links to the rest."""
        if len(self.inputs) < 2:
            return
        found = clusters.Inputs(self.inputs)
        for kind, entries in self.seen.items():
            for entry in entries.values():
                found.add(entry.source, kind, entry.item)
        if (proof := found.conflict()) is not None:
            raise SnapshotError(proof)
        for label, problem in found.unrelated():
            self.warn(label, problem)

    def build(self) -> Snapshot:
        self._one_cluster()
        if not self.documents:
            first = self.warnings[0] if self.warnings else None
            reason = f" ({first.where}: {first.problem.en})" if first else ""
            reason_ko = f" ({first.where}: {first.problem.ko})" if first else ""
            raise SnapshotError(
                Text(
                    "no Kubernetes object or List in the input; use kubectl get ... -o json "
                    f"(or -o yaml){reason}",
                    "입력에 쿠버네티스 오브젝트나 List 가 없다. kubectl get ... -o json "
                    f"(또는 -o yaml)로 만든다{reason_ko}",
                )
            )
        objects_by_kind = {
            kind: tuple(entry.item for entry in entries.values())
            for kind, entries in self.seen.items()
        }
        return Snapshot(objects_by_kind, frozenset(self.kinds), tuple(self.warnings))
