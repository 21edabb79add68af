"""Writes the recorded snapshots in snapshots/ from the builders (run: python -m tests.checks.record).

The files are committed; tests read them as a user's `kubectl get --raw` output would be read.
"""

from __future__ import annotations

import json
from pathlib import Path

from app.checks.snapshot import Obj

from .factories import (
    GOOD_COREFILE,
    container,
    cronjob,
    daemonset,
    deployment,
    documents,
    job,
    node,
    pdb,
    pod,
    simple,
)

HERE = Path(__file__).parent / "snapshots"
SPREAD = [
    {
        "maxSkew": 1,
        "topologyKey": "kubernetes.io/hostname",
        "whenUnsatisfiable": "ScheduleAnyway",
        "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "shop"}},
    }
]
DNS_ANTI_AFFINITY = {
    "podAntiAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {
                "weight": 100,
                "podAffinityTerm": {
                    "labelSelector": {
                        "matchExpressions": [
                            {"key": "k8s-app", "operator": "In", "values": ["kube-dns"]}
                        ]
                    },
                    "topologyKey": "kubernetes.io/hostname",
                },
            }
        ]
    }
}
CRITICAL = 2000000000
NODE_CRITICAL = 2000001000


def platform(well: bool) -> list[Obj]:
    """kube-system as a small managed cluster has it."""
    dns_labels = {"k8s-app": "kube-dns"}
    dns_resources = {"cpu": "100m", "memory": "170Mi"}
    dns_container = container(
        "coredns",
        "registry.k8s.io/coredns/coredns:v1.11.1",
        requests=dns_resources,
        limits={"memory": "512Mi" if well else "170Mi"},
    )
    proxy = container(
        "kube-proxy",
        "registry.k8s.io/kube-proxy:v1.30.4" if well else "registry.k8s.io/kube-proxy:latest",
        requests={"cpu": "100m", "memory": "64Mi"},
        limits={"memory": "256Mi"} if well else None,
    )
    objects = [
        simple("Namespace", "kube-system"),
        simple("Namespace", "default"),
        deployment(
            "coredns",
            namespace="kube-system",
            replicas=2 if well else 1,
            labels=dns_labels,
            containers=[dns_container],
            priorityClassName="system-cluster-critical",
            **({"affinity": DNS_ANTI_AFFINITY} if well else {}),
        ),
        simple("ConfigMap", "coredns", "kube-system", data={"Corefile": GOOD_COREFILE}),
        daemonset(
            "kube-proxy",
            namespace="kube-system",
            labels={"k8s-app": "kube-proxy"},
            containers=[proxy],
            priorityClassName="system-node-critical" if well else None,
            serviceAccountName="kube-proxy",
        ),
    ]
    dns_nodes = ["node-0", "node-1"] if well else ["node-0"]
    for index, node_name in enumerate(dns_nodes):
        objects.append(
            pod(
                f"coredns-5d78c9869d-{index}q7wz",
                namespace="kube-system",
                node_name=node_name,
                owner=("ReplicaSet", "coredns-5d78c9869d"),
                labels=dns_labels,
                containers=[dns_container],
                priority=CRITICAL,
                priorityClassName="system-cluster-critical",
            )
        )
    for index in range(3):
        objects.append(
            pod(
                f"kube-proxy-{index}x8vb",
                namespace="kube-system",
                node_name=f"node-{index}",
                owner=("DaemonSet", "kube-proxy"),
                labels={"k8s-app": "kube-proxy"},
                containers=[proxy],
                priority=NODE_CRITICAL if well else 0,
            )
        )
    if well:
        objects.append(pdb("coredns", dns_labels, namespace="kube-system"))
    return objects


def shop(well: bool) -> list[Obj]:
    labels = {"app.kubernetes.io/name": "shop"}
    web = container(
        "shop",
        "registry.example.com/shop:2.3.1",
        requests={"cpu": "250m", "memory": "256Mi"},
        limits={"memory": "512Mi"},
        ports=[{"containerPort": 8080, "protocol": "TCP"}],
    )
    extra = {"topologySpreadConstraints": SPREAD} if well else {}
    objects = [
        simple("Namespace", "shop"),
        deployment("shop", namespace="shop", replicas=3, labels=labels, containers=[web], **extra),
    ]
    shop_nodes = ["node-0", "node-1", "node-2"] if well else ["node-1", "node-1", "node-2"]
    for index, node_name in enumerate(shop_nodes):
        objects.append(
            pod(
                f"shop-6c9f7d8b5-{index}k2mz",
                namespace="shop",
                node_name=node_name,
                owner=("ReplicaSet", "shop-6c9f7d8b5"),
                labels=labels,
                containers=[web],
            )
        )
    if well:
        objects += [
            pdb("shop", labels, namespace="shop"),
            simple(
                "ResourceQuota",
                "shop",
                "shop",
                spec={"hard": {"requests.memory": "16Gi", "count/pods": "50"}},
            ),
        ]
    return objects


def batch(well: bool) -> list[Obj]:
    objects = [simple("Namespace", "batch")]
    if well:
        objects += [
            cronjob(
                "nightly-report",
                schedule="0 2 * * *",
                concurrency="Forbid",
                deadline=3600,
                starting_deadline=600,
            ),
            simple(
                "ResourceQuota",
                "batch",
                "batch",
                spec={"hard": {"requests.memory": "64Gi", "count/pods": "100"}},
            ),
            simple(
                "LimitRange",
                "defaults",
                "batch",
                spec={
                    "limits": [
                        {
                            "type": "Container",
                            "default": {"memory": "512Mi"},
                            "defaultRequest": {"cpu": "100m", "memory": "256Mi"},
                        }
                    ]
                },
            ),
        ]
        return objects
    objects += [
        cronjob("sync-search", schedule="*/2 * * * *", restart_policy="OnFailure"),
        job("reindex", backoff_limit=1000, failed=57),
    ]
    for index in range(4):
        objects.append(
            pod(
                f"reindex-{index}x7k2p",
                namespace="batch",
                node_name=f"node-{index % 3}",
                owner=("Job", "reindex"),
                containers=[container("reindex", "registry.example.com/reindex:0.9.0")],
                phase="Failed",
                ready=False,
                restartPolicy="Never",
            )
        )
    return objects


def cluster(well: bool) -> list[Obj]:
    zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]
    nodes = [
        node(
            f"node-{index}",
            zone=zones[index],
            labels={"eks.amazonaws.com/nodegroup": "general"},
            ready_since=f"2025-0{index + 2}-11T09:2{index}:00Z",
        )
        for index in range(3)
    ]
    return nodes + platform(well) + shop(well) + batch(well)


def write(path: Path, objects: list[Obj]) -> None:
    text = "\n".join(json.dumps(document, indent=2) for document in documents(objects))
    path.write_text(text + "\n", encoding="utf-8")


def write_mixed_list(path: Path, objects: list[Obj]) -> None:
    """The `kubectl get a,b -A -o json` form: one List whose items carry their kind."""
    kinds = ("Node", "Pod", "Deployment")
    items = [obj for obj in objects if obj["kind"] in kinds]
    document = {
        "apiVersion": "v1",
        "kind": "List",
        "metadata": {"resourceVersion": ""},
        "items": items,
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    write(HERE / "cluster-with-gaps.json", cluster(well=False))
    write(HERE / "cluster-well-configured.json", cluster(well=True))
    write_mixed_list(HERE / "kubectl-list-form.json", cluster(well=False))


if __name__ == "__main__":
    main()
