"""Writes a large generated cluster snapshot for the checker's benchmark.

    python -m tests.checks.gen_cluster --pods 15000 --pdbs 3000 > /tmp/big.json
    time incident-library check --snapshot /tmp/big.json > /dev/null

One Deployment per PDB (pods spread evenly over them), 500 nodes over three zones, an HPA and
a Service for every third Deployment, typed <Kind>Lists as `kubectl get --raw` gives them.
Each pod carries managedFields as the API returns them, so 15,000 pods make about 47 MB, the
size of the real snapshot in issue 15.
"""

from __future__ import annotations

import argparse
import json
import sys

from app.checks.snapshot import Obj

from .factories import deployment, documents, hpa, node, pdb, pod, simple

# What server-side apply records on every pod; the checks never read it, but it has to be parsed.
MANAGED = [
    {
        "manager": manager,
        "operation": "Update",
        "apiVersion": "v1",
        "time": "2025-05-01T08:00:00Z",
        "fieldsType": "FieldsV1",
        "fieldsV1": {
            f"f:{section}": {f"f:{field}": {} for field in fields}
            for section, fields in (
                ("metadata", ("generateName", "labels", "ownerReferences", "annotations")),
                ("spec", ("containers", "dnsPolicy", "enableServiceLinks", "restartPolicy")),
                ("status", ("conditions", "containerStatuses", "hostIP", "phase", "podIP")),
            )
        },
    }
    for manager in ("kube-controller-manager", "kubelet", "kube-scheduler", "helm")
]


def with_managed_fields(item: Obj) -> Obj:
    item["metadata"]["managedFields"] = MANAGED
    return item


def cluster(pods: int, pdbs: int, nodes: int) -> list[Obj]:
    objects: list[Obj] = [
        node(f"node-{i:04d}", zone=f"eu-west-1{'abc'[i % 3]}") for i in range(nodes)
    ]
    per = max(1, pods // max(1, pdbs))
    for d in range(pdbs):
        namespace, name = f"team-{d % 60}", f"svc-{d}"
        labels = {"app.kubernetes.io/name": name}
        objects.append(deployment(name, namespace=namespace, replicas=per, labels=labels))
        objects.append(pdb(f"{name}-pdb", labels, namespace=namespace))
        if d % 3 == 0:
            objects.append(hpa(name, name, minimum=per, namespace=namespace))
            objects.append(
                simple("Service", name, namespace, spec={"selector": labels, "type": "ClusterIP"})
            )
        for r in range(per):
            objects.append(
                with_managed_fields(
                    pod(
                        f"{name}-6d4cf56db6-{r:05d}",
                        namespace=namespace,
                        node_name=f"node-{(d * per + r) % nodes:04d}",
                        owner=("ReplicaSet", f"{name}-6d4cf56db6"),
                        labels=labels,
                    )
                )
            )
    return objects


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pods", type=int, default=15000)
    parser.add_argument("--pdbs", type=int, default=3000)
    parser.add_argument("--nodes", type=int, default=500)
    args = parser.parse_args()
    for document in documents(cluster(args.pods, args.pdbs, args.nodes)):
        sys.stdout.write(json.dumps(document) + "\n")


if __name__ == "__main__":
    main()
