"""Which cluster each input comes from: what tells two clusters apart, and what shows one.

Several `--snapshot` files must come from one cluster. Objects of the same kind and name with
two uids give a mix away (app.checks.snapshot checks that as it reads), but two clusters can
share no object name at all. The inputs still speak of each other: a pod names its node and,
through ownerReferences, the uid of its StatefulSet, DaemonSet, Job or (for a static pod) Node;
a PersistentVolume's claimRef holds its claim's uid; a pod's hostIP is an address of its node.
A reference whose uid or address disagrees with the object another input holds proves two
clusters. An input linked to the others by nothing (no shared uid, no object one refers to and
another holds, no node or namespace of their own in common) cannot be told apart, and the
reader says so instead of merging quietly. Manifests (objects without a uid) belong to no
cluster yet and are not compared. Everything is built once over all objects: linear, not
pairwise.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from app.checks.text import Text

Key = tuple[str, str, str]  # kind, namespace, name
# Names every cluster has: sharing them says nothing about being one cluster.
COMMON_NAMESPACES = frozenset({"default", "kube-system", "kube-public", "kube-node-lease"})
_HASH = re.compile(r"-[a-z0-9]{5,10}$")


def show(key: Key) -> str:
    kind, namespace, name = key
    return f"{kind} {namespace + '/' if namespace else ''}{name}"


@dataclass(frozen=True)
class Said:
    """Something one object says about another, and the input it was read from."""

    value: str  # a uid ("" when the reference only names the object), or an IP address
    by: str  # the object that says it: "Pod shop/web-0"
    label: str


class Inputs:
    """The live objects of every input, with what they say about each other."""

    def __init__(self, order: list[str]) -> None:
        self.order = {label: index for index, label in reversed(list(enumerate(order)))}
        self.labels: list[str] = []  # the inputs that hold live objects
        self.holders: dict[Key, dict[str, str]] = defaultdict(dict)  # key -> input -> uid
        self.uids: dict[str, set[str]] = defaultdict(set)  # uid -> inputs
        self.references: list[tuple[Key, Said]] = []  # what must exist, with which uid
        self.addresses: dict[str, dict[str, frozenset[str]]] = defaultdict(dict)  # node
        self.host_ips: list[tuple[str, Said]] = []  # (node, a pod's hostIP on it)
        self.namespaces: dict[str, set[str]] = defaultdict(set)  # own namespace -> inputs

    def add(self, label: str, kind: str, item: dict[str, Any]) -> None:
        """Record one object that has a uid (a manifest has none and is not recorded)."""
        metadata = item.get("metadata")
        metadata = metadata if isinstance(metadata, dict) else {}
        uid = metadata.get("uid")
        if not isinstance(uid, str) or not uid:
            return
        if label not in self.labels:
            self.labels.append(label)
        namespace = str(metadata.get("namespace") or "")
        key = (kind, namespace, str(metadata.get("name") or ""))
        by = show(key)
        self.holders[key][label] = uid
        self.uids[uid].add(label)
        if namespace and namespace not in COMMON_NAMESPACES:
            self.namespaces[namespace].add(label)

        def refer(target: Key, holder: dict[str, Any] | None = None) -> None:
            value = holder.get("uid") if holder else None
            self.references.append(
                (target, Said(value if isinstance(value, str) else "", by, label))
            )

        for reference in metadata.get("ownerReferences") or []:
            if isinstance(reference, dict) and reference.get("kind") and reference.get("name"):
                owner_kind, owner = str(reference["kind"]), str(reference["name"])
                refer((owner_kind, "" if owner_kind == "Node" else namespace, owner), reference)
                if owner_kind == "ReplicaSet":  # its Deployment, by the name it derives from
                    refer(("Deployment", namespace, _HASH.sub("", owner)))
        spec = item.get("spec")
        spec = spec if isinstance(spec, dict) else {}
        status = item.get("status")
        status = status if isinstance(status, dict) else {}
        if kind == "Pod":
            for volume in spec.get("volumes") or []:
                claim = volume.get("persistentVolumeClaim") if isinstance(volume, dict) else None
                if isinstance(claim, dict) and claim.get("claimName"):
                    refer(("PersistentVolumeClaim", namespace, str(claim["claimName"])))
            node = spec.get("nodeName")
            if isinstance(node, str) and node:
                refer(("Node", "", node))
                host_ip = status.get("hostIP")
                if isinstance(host_ip, str) and host_ip:
                    self.host_ips.append((node, Said(host_ip, by, label)))
        elif kind == "Node":
            addresses = {
                str(a.get("address"))
                for a in status.get("addresses") or []
                if isinstance(a, dict) and a.get("type") in ("InternalIP", "ExternalIP")
            }
            self.addresses[key[2]][label] = frozenset(addresses)
        elif kind == "PersistentVolume" and isinstance(spec.get("claimRef"), dict):
            claim = spec["claimRef"]
            refer(
                (
                    "PersistentVolumeClaim",
                    str(claim.get("namespace") or ""),
                    str(claim.get("name")),
                ),
                claim,
            )
        elif kind == "PersistentVolumeClaim" and spec.get("volumeName"):
            refer(("PersistentVolume", "", str(spec["volumeName"])))
        elif kind == "HorizontalPodAutoscaler" and isinstance(spec.get("scaleTargetRef"), dict):
            target = spec["scaleTargetRef"]
            refer((str(target.get("kind")), namespace, str(target.get("name"))))

    def conflict(self) -> Text | None:
        """Proof that two inputs come from different clusters, in words; None if none."""
        for key, said in self.references:
            for label, uid in self.holders.get(key, {}).items():
                if said.value and label != said.label and uid != said.value:
                    return _apart(
                        said.label,
                        label,
                        Text(
                            f"{said.by} belongs to {show(key)} with uid {said.value}, but the "
                            f"{show(key)} in {label} has uid {uid}",
                            f"{said.by} 는 uid 가 {said.value} 인 {show(key)} 의 것인데, "
                            f"{label} 의 {show(key)} 는 uid 가 {uid} 다",
                        ),
                    )
        for node, said in self.host_ips:
            for label, addresses in self.addresses.get(node, {}).items():
                if addresses and label != said.label and said.value not in addresses:
                    shown = ", ".join(sorted(addresses))
                    return _apart(
                        said.label,
                        label,
                        Text(
                            f"{said.by} runs on node {node} at {said.value}, but node {node} in "
                            f"{label} has the address {shown}",
                            f"{said.by} 는 노드 {node} 의 {said.value} 에서 도는데, {label} 의 "
                            f"노드 {node} 주소는 {shown} 다",
                        ),
                    )
        return None

    def unrelated(self) -> list[tuple[str, Text]]:
        """Inputs nothing links to the first one's cluster, each with its warning."""
        parent = {label: label for label in self.labels}

        def root(label: str) -> str:
            while parent[label] != label:
                parent[label] = parent[parent[label]]
                label = parent[label]
            return label

        def join(labels: set[str]) -> None:
            first, *rest = [root(label) for label in labels]
            for other in rest:
                parent[other] = first

        for shared in [*self.uids.values(), *self.namespaces.values()]:
            join(shared)
        nodes: dict[Key, set[str]] = defaultdict(set)  # pods of two inputs on one node
        for key, said in self.references:
            if holders := self.holders.get(key):
                join({said.label, *holders})
            if key[0] == "Node":
                nodes[key].add(said.label)
        for shared in nodes.values():
            join(shared)
        if not self.labels:
            return []
        labels = sorted(self.labels, key=lambda label: self.order.get(label, len(self.order)))
        main = root(labels[0])
        linked = [label for label in labels if root(label) == main]
        return [(label, _unrelated(linked)) for label in labels if root(label) != main]


def _apart(first: str, second: str, reason: Text) -> Text:
    return Text(
        f"{first} and {second} come from different clusters ({reason.en}); check one cluster at "
        "a time",
        f"{first} 와 {second} 는 서로 다른 클러스터의 것이다 ({reason.ko}). 클러스터를 하나씩 "
        "점검한다",
    )


def _unrelated(linked: list[str]) -> Text:
    others = ", ".join(linked[:3]) + (f" and {len(linked) - 3} more" if len(linked) > 3 else "")
    others_ko = ", ".join(linked[:3]) + (f" 외 {len(linked) - 3}개" if len(linked) > 3 else "")
    return Text(
        f"shares no uid, no object it refers to and no namespace of its own with {others}, so "
        "whether they come from one cluster cannot be told; they are checked as one — if they "
        "come from two clusters, check them one at a time",
        f"{others_ko} 와 uid 도, 서로 가리키는 오브젝트도, 기본이 아닌 네임스페이스도 겹치지 "
        "않아 한 클러스터의 것인지 알 수 없다. 하나로 보고 점검한다. 두 클러스터의 것이면 하나씩 "
        "점검한다",
    )
