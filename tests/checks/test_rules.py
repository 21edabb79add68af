"""Every registered check, on a small snapshot with its gap and on the well-configured twin."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from app.checks import CHECKS, Gap
from app.checks.registry import SCOPES, NotEvaluable, ObjectRef
from app.checks.snapshot import Obj

from .factories import (
    GOOD_COREFILE,
    container,
    cronjob,
    daemonset,
    deployment,
    hpa,
    job,
    make_snapshot,
    node,
    pdb,
    pod,
    pv,
    pvc,
    simple,
    sized,
)

Objects = Callable[[], list[Obj]]
SPREAD = {
    "topologySpreadConstraints": [
        {
            "maxSkew": 1,
            "topologyKey": "kubernetes.io/hostname",
            "whenUnsatisfiable": "ScheduleAnyway",
            "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "web"}},
        }
    ]
}
ANTI_AFFINITY = {
    "affinity": {
        "podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {
                    "weight": 100,
                    "podAffinityTerm": {
                        "topologyKey": "topology.kubernetes.io/zone",
                        "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "api"}},
                    },
                }
            ]
        }
    }
}
WEB_LABELS = {"app.kubernetes.io/name": "web"}


def web_pods(nodes: list[str]) -> list[Obj]:
    return [
        pod(f"web-7d9f8b6c5d-{i}{n[-1]}x9z", node_name=n, owner=("ReplicaSet", "web-7d9f8b6c5d"))
        for i, n in enumerate(nodes)
    ]


def dns(replicas: int = 2, memory: str = "512Mi") -> Obj:
    labels = {"k8s-app": "kube-dns"}
    limits = {"memory": memory}
    requests = {"cpu": "100m", "memory": "70Mi"}
    return deployment(
        "coredns",
        namespace="kube-system",
        replicas=replicas,
        labels=labels,
        containers=[
            container("coredns", "registry.k8s.io/coredns/coredns:v1.11.1", requests, limits)
        ],
        priorityClassName="system-cluster-critical",
    )


def dns_pod(name: str, node_name: str) -> Obj:
    return pod(
        name,
        namespace="kube-system",
        node_name=node_name,
        owner=("ReplicaSet", "coredns-5d78c9869d"),
        labels={"k8s-app": "kube-dns"},
        priority=2000000000,
    )


def corefile(body: str) -> Obj:
    return simple("ConfigMap", "coredns", "kube-system", data={"Corefile": body})


def aws_node(env: list[dict[str, str]]) -> Obj:
    return daemonset(
        "aws-node",
        namespace="kube-system",
        desired=40,
        containers=[
            container(
                "aws-node",
                "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.2",
                env=env,
            )
        ],
        priorityClassName="system-node-critical",
        serviceAccountName="aws-node",
    )


def nodes(count: int, **kwargs: object) -> list[Obj]:
    return [node(f"node-{i:03d}", **kwargs) for i in range(count)]  # type: ignore[arg-type]


def apiserver(*args: str) -> Obj:
    command = ["kube-apiserver", "--advertise-address=10.0.0.10", *args]
    return pod(
        "kube-apiserver-cp-1",
        namespace="kube-system",
        node_name="cp-1",
        labels={"component": "kube-apiserver", "tier": "control-plane"},
        containers=[
            container("kube-apiserver", "registry.k8s.io/kube-apiserver:v1.30.4", command=command)
        ],
        priority=2000001000,
    )


def webhook(failure: str, selector: dict[str, object] | None, timeout: int = 10) -> Obj:
    hook: dict[str, object] = {
        "name": "validation.gatekeeper.sh",
        "failurePolicy": failure,
        "timeoutSeconds": timeout,
        "sideEffects": "None",
        "admissionReviewVersions": ["v1"],
        "clientConfig": {
            "service": {"namespace": "gatekeeper-system", "name": "gatekeeper-webhook-service"}
        },
        "rules": [
            {
                "apiGroups": ["*"],
                "apiVersions": ["*"],
                "operations": ["CREATE", "UPDATE"],
                "resources": ["*"],
            }
        ],
    }
    if selector is not None:
        hook["namespaceSelector"] = selector
    return simple(
        "ValidatingWebhookConfiguration",
        "gatekeeper-validating-webhook-configuration",
        webhooks=[hook],
    )


EXCLUDE_KUBE_SYSTEM: dict[str, object] = {
    "matchExpressions": [
        {"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["kube-system"]}
    ]
}
GPU_REQ = {"cpu": "16", "memory": "128Gi", "nvidia.com/gpu": "8"}
DATASET_PVC = pvc(
    "datasets",
    namespace="ml",
    volume="pv-vast-datasets",
    storage_class="vast",
    modes=("ReadWriteMany",),
)
VAST_PV = pv(
    "pv-vast-datasets",
    {"csi": {"driver": "csi.vastdata.com", "volumeHandle": "datasets"}},
    ["vers=3", "hard", "timeo=600"],
)


def trainer(i: int, scratch: bool) -> Obj:
    volumes: list[dict[str, object]] = [
        {"name": "data", "persistentVolumeClaim": {"claimName": "datasets"}},
        {"name": "dshm", "emptyDir": {"medium": "Memory"}},
    ]
    if scratch:
        volumes.append(
            {"name": "scratch", "hostPath": {"path": "/mnt/nvme/scratch", "type": "Directory"}}
        )
    return pod(
        f"llm-train-worker-{i}",
        namespace="ml",
        node_name=f"gpu-{i}",
        owner=("StatefulSet", "llm-train-worker"),
        containers=[container("trainer", "nvcr.io/nvidia/pytorch:24.05-py3", GPU_REQ, GPU_REQ)],
        volumes=volumes,
    )


def ingress(replicas: int) -> list[Obj]:
    labels = {
        "app.kubernetes.io/name": "ingress-nginx",
        "app.kubernetes.io/component": "controller",
    }
    return [
        deployment(
            "ingress-nginx-controller", namespace="ingress-nginx", replicas=replicas, labels=labels
        ),
        hpa(
            "ingress-nginx-controller",
            "ingress-nginx-controller",
            replicas,
            namespace="ingress-nginx",
        ),
        pdb("ingress-nginx-controller", labels, namespace="ingress-nginx"),
        *[
            pod(
                f"ingress-nginx-controller-6b9d8f7c5-{i}abcd",
                namespace="ingress-nginx",
                node_name=f"node-{i}",
                owner=("ReplicaSet", "ingress-nginx-controller-6b9d8f7c5"),
                labels=labels,
                priority=1000000,
            )
            for i in range(replicas)
        ],
    ]


def hub(guaranteed: bool) -> Obj:
    labels = {"app": "jupyterhub", "component": "hub"}
    resources = (
        sized("hub")
        if guaranteed
        else container("hub", "quay.io/jupyterhub/k8s-hub:3.3.7", {"cpu": "200m"})
    )
    extra = {"priorityClassName": "jupyterhub-core"} if guaranteed else {}
    return deployment(
        "hub", namespace="jhub", replicas=1, labels=labels, containers=[resources], **extra
    )


def budget(name: str, spec: dict[str, object], status: dict[str, int]) -> Obj:
    return simple(
        "PodDisruptionBudget",
        name,
        "default",
        apiVersion="policy/v1",
        spec={**spec, "selector": {"matchLabels": {"app.kubernetes.io/name": name}}},
        status={"observedGeneration": 1, **status},
    )


def labelled_pods(app: str, count: int, ready: int | None = None) -> list[Obj]:
    return [
        pod(
            f"{app}-7d9f8b6c5d-{i}x9z",
            node_name=f"node-{i}",
            owner=("ReplicaSet", f"{app}-7d9f8b6c5d"),
            labels={"app.kubernetes.io/name": app},
            ready=ready is None or i < ready,
        )
        for i in range(count)
    ]


COMPLETE = {
    "type": "Complete",
    "status": "True",
    "lastProbeTime": "2025-05-01T08:04:10Z",
    "lastTransitionTime": "2025-05-01T08:04:10Z",
}


def busy_pods(count: int) -> list[Obj]:
    return [
        pod(
            f"worker-6f7c9d8b4-{i:04d}",
            namespace="jobs",
            node_name=f"node-{i % 40:03d}",
            owner=("ReplicaSet", "worker-6f7c9d8b4"),
        )
        for i in range(count)
    ]


DNS_AUTOSCALER = deployment(
    "dns-autoscaler",
    namespace="kube-system",
    replicas=1,
    labels={"k8s-app": "dns-autoscaler"},
    containers=[
        container(
            "autoscaler",
            "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.8.9",
            {"cpu": "20m", "memory": "10Mi"},
            command=[
                "/cluster-proportional-autoscaler",
                "--namespace=kube-system",
                "--configmap=dns-autoscaler",
                "--target=Deployment/coredns",
                '--default-params={"linear":{"coresPerReplica":256,"nodesPerReplica":16,"min":2}}',
            ],
        )
    ],
    serviceAccountName="dns-autoscaler",
)


def node_local_dns(desired: int) -> Obj:
    return daemonset(
        "node-local-dns",
        namespace="kube-system",
        desired=desired,
        labels={"k8s-app": "node-local-dns"},
        containers=[
            container(
                "node-cache",
                "registry.k8s.io/dns/k8s-dns-node-cache:1.23.1",
                {"cpu": "25m", "memory": "5Mi"},
                args=["-localip", "169.254.20.10,10.96.0.10", "-conf", "/etc/Corefile"],
            )
        ],
        hostNetwork=True,
        dnsPolicy="Default",
        priorityClassName="system-node-critical",
    )


def log_agent(desired: int, **extra: object) -> Obj:
    return daemonset(
        "fluent-bit",
        namespace="logging",
        desired=desired,
        labels={"app.kubernetes.io/name": "fluent-bit"},
        containers=[container("fluent-bit", "cr.fluentbit.io/fluent/fluent-bit:3.0.7")],
        serviceAccountName="fluent-bit",
        **extra,
    )


def kube_proxy(scheduled: int, selector: dict[str, str]) -> Obj:
    return daemonset(
        "kube-proxy",
        namespace="kube-system",
        desired=scheduled,
        labels={"k8s-app": "kube-proxy"},
        containers=[container("kube-proxy", "registry.k8s.io/kube-proxy:v1.30.4")],
        nodeSelector=selector,
        hostNetwork=True,
        priorityClassName="system-node-critical",
        tolerations=[{"operator": "Exists"}],
    )


def worker_with_probe(
    probe: dict[str, object], mount_path: str = "/data", app: str = "feature-store"
) -> Obj:
    return pod(
        f"{app}-0",
        namespace="ml",
        owner=("StatefulSet", app),
        containers=[
            container(
                "server",
                "registry.example.com/feature-store:3.1.0",
                {"cpu": "1", "memory": "4Gi"},
                {"memory": "4Gi"},
                volumeMounts=[{"name": "data", "mountPath": mount_path}],
                livenessProbe={**probe, "periodSeconds": 10, "timeoutSeconds": 5},
            )
        ],
        volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": "datasets"}}],
    )


def hostpath_readers(count: int, path: str) -> list[Obj]:
    return [
        pod(
            f"preprocess-{i}",
            namespace="ml",
            node_name=f"gpu-{i}",
            owner=("Job", "preprocess"),
            volumes=[{"name": "corpus", "hostPath": {"path": path, "type": "Directory"}}],
        )
        for i in range(count)
    ]


def skipper() -> Obj:
    return deployment(
        "skipper-ingress",
        namespace="kube-system",
        replicas=3,
        labels={"application": "skipper-ingress", "component": "ingress"},
        containers=[
            container(
                "skipper-ingress",
                "registry.opensource.zalan.do/teapot/skipper:v0.21.52",
                {"cpu": "1", "memory": "500Mi"},
                {"memory": "500Mi"},
                ports=[{"containerPort": 9999, "name": "ingress-port", "protocol": "TCP"}],
            )
        ],
        priorityClassName="system-cluster-critical",
    )


# (pattern, check) -> (objects with the gap, the same cluster configured well)
CASES: dict[tuple[str, str], tuple[Objects, Objects]] = {
    ("replicas-colocated", "no-spread-policy"): (
        lambda: [deployment("web", replicas=3)],
        lambda: [
            deployment("web", replicas=3, **SPREAD),
            deployment("api", replicas=2, **ANTI_AFFINITY),
            deployment("batch", replicas=1),
        ],
    ),
    ("replicas-colocated", "observed-node-skew"): (
        lambda: web_pods(["node-a", "node-a", "node-b"]),
        lambda: web_pods(["node-a", "node-b", "node-c"]),
    ),
    ("replicas-colocated", "observed-zone-skew"): (
        lambda: [
            node("node-a", zone="eu-west-1a"),
            node("node-b", zone="eu-west-1a"),
            node("node-c", zone="eu-west-1b"),
            *web_pods(["node-a", "node-b"]),
        ],
        lambda: [
            node("node-a", zone="eu-west-1a"),
            node("node-b", zone="eu-west-1a"),
            node("node-c", zone="eu-west-1b"),
            *web_pods(["node-a", "node-c"]),
        ],
    ),
    ("replicas-colocated", "cpu-requests-missing"): (
        lambda: [
            deployment("web", replicas=3, containers=[container("web", limits={"memory": "1.5Gi"})])
        ],
        lambda: [
            deployment("web", replicas=3),
            deployment("one", replicas=1, containers=[container("one")]),
        ],
    ),
    ("replicas-colocated", "pdb-missing"): (
        lambda: [deployment("web", replicas=3), pdb("other", {"app.kubernetes.io/name": "other"})],
        lambda: [deployment("web", replicas=3), pdb("web", WEB_LABELS)],
    ),
    ("node-overcommit", "memory-limit-overcommit"): (
        lambda: [
            node("node-a", memory="16Gi"),
            *[
                pod(
                    f"student-{i}",
                    namespace="jhub-wer",
                    containers=[
                        container("notebook", requests={"memory": "1Gi"}, limits={"memory": "8Gi"})
                    ],
                )
                for i in range(8)
            ],
        ],
        lambda: [
            node("node-a", memory="16Gi"),
            *[
                pod(
                    f"student-{i}",
                    namespace="jhub-wer",
                    containers=[
                        container("notebook", requests={"memory": "1Gi"}, limits={"memory": "2Gi"})
                    ],
                )
                for i in range(8)
            ],
        ],
    ),
    ("node-overcommit", "besteffort-share"): (
        lambda: [
            pod(f"worker-{i}", namespace="scratch", containers=[container("w")]) for i in range(4)
        ],
        lambda: [pod(f"worker-{i}", namespace="scratch") for i in range(4)],
    ),
    ("node-overcommit", "namespace-without-guardrails"): (
        lambda: [simple("Namespace", "team-a"), pod("w", namespace="team-a")],
        lambda: [
            simple("Namespace", "team-a"),
            simple("Namespace", "kube-system"),
            simple("Namespace", "empty"),
            pod("w", namespace="team-a"),
            pod("coredns-x", namespace="kube-system"),
            simple(
                "LimitRange",
                "defaults",
                "team-a",
                spec={
                    "limits": [
                        {
                            "type": "Container",
                            "default": {"memory": "512Mi"},
                            "defaultRequest": {"cpu": "100m"},
                        }
                    ]
                },
            ),
        ],
    ),
    ("node-overcommit", "node-pressure"): (
        lambda: [
            node(
                "node-a",
                pressure="MemoryPressure",
                taints=[{"key": "node.kubernetes.io/memory-pressure", "effect": "NoSchedule"}],
            )
        ],
        lambda: [node("node-a")],
    ),
    ("platform-pods-unprotected", "critical-without-requests"): (
        lambda: [
            pod(
                "proxy-5f7d6b8c9-abcde",
                namespace="jhub",
                labels={"app": "jupyterhub", "component": "proxy"},
                owner=("ReplicaSet", "proxy-5f7d6b8c9"),
                containers=[container("chp")],
            )
        ],
        lambda: [
            pod(
                "proxy-5f7d6b8c9-abcde",
                namespace="jhub",
                labels={"app": "jupyterhub", "component": "proxy"},
                owner=("ReplicaSet", "proxy-5f7d6b8c9"),
            ),
            pod("user-x", namespace="jhub", containers=[container("nb")]),
        ],
    ),
    ("platform-pods-unprotected", "critical-priority-not-above-users"): (
        lambda: [
            pod(
                "hub-6d8f9c7b5-abcde",
                namespace="jhub",
                labels={"app": "jupyterhub", "component": "hub"},
            ),
            pod("jupyter-alice", namespace="jhub", labels={"component": "singleuser-server"}),
        ],
        lambda: [
            pod(
                "hub-6d8f9c7b5-abcde",
                namespace="jhub",
                labels={"app": "jupyterhub", "component": "hub"},
                priority=1000000,
            ),
            pod("jupyter-alice", namespace="jhub", labels={"component": "singleuser-server"}),
        ],
    ),
    ("platform-pods-unprotected", "single-replica-platform"): (
        lambda: [hub(guaranteed=False), dns(replicas=1)],
        lambda: [hub(guaranteed=True), dns(replicas=2), deployment("web", replicas=1)],
    ),
    ("runaway-job-retries", "unbounded-retries"): (
        lambda: [job("reindex", backoff_limit=1000), cronjob("report", restart_policy="OnFailure")],
        lambda: [
            job("reindex", backoff_limit=4, activeDeadlineSeconds=3600),
            cronjob("report", restart_policy="OnFailure", deadline=600),
            job("report-28934560", restart_policy="OnFailure", cronjob="report"),
        ],
    ),
    ("runaway-job-retries", "cronjob-overlap"): (
        lambda: [cronjob("sync", schedule="*/5 * * * *")],
        lambda: [
            cronjob("sync", schedule="*/5 * * * *", concurrency="Forbid"),
            cronjob("nightly", schedule="0 2 * * *"),
            cronjob("fast", schedule="* * * * *", deadline=50),
        ],
    ),
    ("runaway-job-retries", "retry-evidence"): (
        lambda: [
            job("reindex", failed=57),
            pod("reindex-x7k2p", namespace="batch", owner=("Job", "reindex"), restarts=84),
        ],
        lambda: [
            job("reindex", failed=2),
            pod("reindex-x7k2p", namespace="batch", owner=("Job", "reindex"), restarts=1),
        ],
    ),
    ("node-agent-apiserver-fanout", "large-ds-with-api-token"): (
        lambda: [
            daemonset(
                "datadog-agent",
                namespace="datadog",
                desired=290,
                serviceAccountName="datadog-agent",
            )
        ],
        lambda: [
            daemonset(
                "datadog-agent", namespace="datadog", desired=40, serviceAccountName="datadog-agent"
            ),
            daemonset(
                "kube-proxy", namespace="kube-system", desired=290, serviceAccountName="kube-proxy"
            ),
        ],
    ),
    ("node-agent-apiserver-fanout", "datadog-without-cluster-agent"): (
        lambda: [
            daemonset(
                "datadog-agent",
                namespace="datadog",
                desired=290,
                containers=[
                    container(
                        "agent",
                        "gcr.io/datadoghq/agent:7.55.0",
                        env=[{"name": "DD_COLLECT_KUBERNETES_EVENTS", "value": "true"}],
                    )
                ],
            )
        ],
        lambda: [
            daemonset(
                "datadog-agent",
                namespace="datadog",
                desired=290,
                containers=[
                    container(
                        "agent",
                        "gcr.io/datadoghq/agent:7.55.0",
                        env=[{"name": "DD_CLUSTER_AGENT_ENABLED", "value": "true"}],
                    )
                ],
            )
        ],
    ),
    ("control-plane-undersized", "apiserver-flags"): (
        lambda: [*nodes(260), apiserver("--enable-priority-and-fairness=false")],
        lambda: [
            *nodes(260),
            apiserver("--max-requests-inflight=1200", "--max-mutating-requests-inflight=600"),
        ],
    ),
    ("cluster-dns-fragile", "dns-replicas"): (
        lambda: [
            dns(),
            dns_pod("coredns-5d78c9869d-aaaaa", "node-a"),
            dns_pod("coredns-5d78c9869d-bbbbb", "node-a"),
        ],
        lambda: [
            dns(),
            dns_pod("coredns-5d78c9869d-aaaaa", "node-a"),
            dns_pod("coredns-5d78c9869d-bbbbb", "node-b"),
            pdb("coredns", {"k8s-app": "kube-dns"}, namespace="kube-system"),
        ],
    ),
    ("cluster-dns-fragile", "dns-memory-limit"): (
        lambda: [*nodes(60), dns(memory="170Mi")],
        lambda: [*nodes(60), dns(memory="512Mi")],
    ),
    ("cluster-dns-fragile", "corefile"): (
        lambda: [
            corefile(
                GOOD_COREFILE.replace("    cache 30\n", "").replace("/etc/resolv.conf", "10.0.0.2")
            )
        ],
        lambda: [corefile(GOOD_COREFILE)],
    ),
    ("pod-ip-exhaustion", "vpc-cni-warm-eni"): (
        lambda: [aws_node([{"name": "AWS_VPC_K8S_CNI_LOGLEVEL", "value": "DEBUG"}])],
        lambda: [
            aws_node(
                [
                    {"name": "WARM_IP_TARGET", "value": "5"},
                    {"name": "MINIMUM_IP_TARGET", "value": "30"},
                ]
            )
        ],
    ),
    ("pod-ip-exhaustion", "podcidr-ceiling"): (
        lambda: [
            *[node(f"node-{i:03d}", pod_cidr=f"10.244.{i}.0/24") for i in range(220)],
            simple(
                "ConfigMap",
                "kube-proxy",
                "kube-system",
                data={
                    "config.conf": "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nclusterCIDR: 10.244.0.0/16\nmode: iptables\n"
                },
            ),
        ],
        lambda: [
            *[node(f"node-{i:03d}", pod_cidr=f"10.244.{i}.0/24") for i in range(20)],
            simple(
                "ConfigMap",
                "kube-proxy",
                "kube-system",
                data={
                    "config.conf": "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nclusterCIDR: 10.244.0.0/16\nmode: iptables\n"
                },
            ),
        ],
    ),
    ("node-label-selector-drift", "deprecated-master-label"): (
        lambda: [
            node("cp-1", labels={"node-role.kubernetes.io/control-plane": ""}),
            daemonset(
                "calico-rr",
                namespace="kube-system",
                nodeSelector={"node-role.kubernetes.io/master": ""},
            ),
        ],
        lambda: [
            node("cp-1", labels={"node-role.kubernetes.io/control-plane": ""}),
            daemonset(
                "calico-rr",
                namespace="kube-system",
                nodeSelector={"node-role.kubernetes.io/control-plane": ""},
            ),
        ],
    ),
    ("node-label-selector-drift", "selector-matches-no-node"): (
        lambda: [
            node("node-a", labels={"pool": "general"}),
            deployment(
                "web",
                affinity={
                    "nodeAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": {
                            "nodeSelectorTerms": [
                                {
                                    "matchExpressions": [
                                        {"key": "pool", "operator": "In", "values": ["gpu-a100"]}
                                    ]
                                }
                            ]
                        }
                    }
                },
            ),
        ],
        lambda: [
            node("node-a", labels={"pool": "general"}),
            deployment(
                "web",
                affinity={
                    "nodeAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": {
                            "nodeSelectorTerms": [
                                {
                                    "matchExpressions": [
                                        {"key": "pool", "operator": "In", "values": ["general"]}
                                    ]
                                }
                            ]
                        }
                    }
                },
            ),
        ],
    ),
    ("fail-closed-admission-webhook", "fail-closed-webhook"): (
        lambda: [webhook("Fail", None, timeout=30)],
        lambda: [
            webhook("Fail", EXCLUDE_KUBE_SYSTEM, timeout=5),
            simple(
                "MutatingWebhookConfiguration",
                "ignore",
                webhooks=[
                    {
                        "name": "m.example.com",
                        "failurePolicy": "Ignore",
                        "rules": [{"resources": ["pods"]}],
                    }
                ],
            ),
        ],
    ),
    ("synchronized-node-changes", "synchronized-ready-transitions"): (
        lambda: (
            [node(f"node-{i}", ready_since=f"2025-03-08T06:{10 + i}:00Z") for i in range(4)]
            + [node("node-x", ready_since="2025-01-02T10:00:00Z")]
        ),
        lambda: [node(f"node-{i}", ready_since=f"2025-0{i + 1}-08T06:10:00Z") for i in range(5)],
    ),
    ("synchronized-node-changes", "kernel-drift-in-pool"): (
        lambda: [
            node("node-a", labels={"eks.amazonaws.com/nodegroup": "general"}),
            node(
                "node-b",
                labels={"eks.amazonaws.com/nodegroup": "general"},
                kernel="6.1.0-21-cloud-amd64",
            ),
        ],
        lambda: [
            node("node-a", labels={"eks.amazonaws.com/nodegroup": "general"}),
            node("node-b", labels={"eks.amazonaws.com/nodegroup": "general"}),
            node(
                "node-c",
                labels={"eks.amazonaws.com/nodegroup": "gpu"},
                kernel="6.1.0-21-cloud-amd64",
            ),
        ],
    ),
    ("single-power-domain", "no-failure-domain-labels"): (
        lambda: [node("gpu-0", zone=None, gpus=8), node("gpu-1", zone=None, gpus=8)],
        lambda: [
            node("gpu-0", zone="aus01-a", gpus=8, labels={"topology.kubernetes.io/rack": "r1"}),
            node("gpu-1", zone="aus01-b", gpus=8, labels={"topology.kubernetes.io/rack": "r7"}),
        ],
    ),
    ("stale-network-mounts", "network-fs-inventory"): (
        lambda: [DATASET_PVC, VAST_PV, trainer(0, scratch=True)],
        lambda: [
            pvc("data", volume="pv-ebs"),
            pv("pv-ebs", {"csi": {"driver": "ebs.csi.aws.com", "volumeHandle": "vol-0abc"}}),
            pod("db-0", volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]),
        ],
    ),
    ("stale-network-mounts", "soft-or-untuned-mounts"): (
        lambda: [
            pv(
                "pv-nfs-home",
                {"nfs": {"server": "10.0.5.20", "path": "/export/home"}},
                ["nfsvers=4.1", "soft"],
            )
        ],
        lambda: [
            pv(
                "pv-nfs-home",
                {"nfs": {"server": "10.0.5.20", "path": "/export/home"}},
                ["nfsvers=4.1", "hard", "timeo=600"],
            ),
            simple("StorageClass", "gp3", provisioner="ebs.csi.aws.com"),
        ],
    ),
    ("shared-fs-metadata-storm", "rwx-fan-in"): (
        lambda: [DATASET_PVC, VAST_PV, *[trainer(i, scratch=True) for i in range(8)]],
        lambda: [DATASET_PVC, VAST_PV, *[trainer(i, scratch=True) for i in range(4)]],
    ),
    ("dataset-on-tiered-shared-storage", "gpu-pods-without-local-scratch"): (
        lambda: [DATASET_PVC, VAST_PV, trainer(0, scratch=False), trainer(1, scratch=False)],
        lambda: [DATASET_PVC, VAST_PV, trainer(0, scratch=True), trainer(1, scratch=True)],
    ),
    ("no-spare-capacity", "replica-cannot-fit"): (
        lambda: [
            node("node-a", cpu="4", memory="16Gi"),
            node(
                "node-b",
                cpu="4",
                memory="16Gi",
                taints=[{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}],
            ),
            deployment(
                "ingester",
                replicas=1,
                containers=[container("ingester", requests={"cpu": "1", "memory": "6Gi"})],
            ),
            pod(
                "ingester-5b8c-a1b2c",
                owner=("ReplicaSet", "ingester-5b8c7d9f6"),
                containers=[container("ingester", requests={"cpu": "1", "memory": "6Gi"})],
            ),
            pod("cache-0", containers=[container("cache", requests={"memory": "6Gi"})]),
        ],
        lambda: [
            node("node-a", cpu="4", memory="16Gi"),
            node("node-b", cpu="4", memory="16Gi"),
            deployment(
                "ingester",
                replicas=1,
                containers=[container("ingester", requests={"cpu": "1", "memory": "6Gi"})],
            ),
            pod(
                "ingester-5b8c-a1b2c",
                owner=("ReplicaSet", "ingester-5b8c7d9f6"),
                containers=[container("ingester", requests={"cpu": "1", "memory": "6Gi"})],
            ),
            pod("cache-0", containers=[container("cache", requests={"memory": "6Gi"})]),
        ],
    ),
    ("no-spare-capacity", "degraded-capacity"): (
        lambda: [
            node("node-a", ready=False),
            node("node-b", unschedulable=True),
            pod(
                "web-x",
                node_name=None,
                phase="Pending",
                ready=False,
                scheduled_message="0/3 nodes are available: 3 Insufficient memory.",
            ),
        ],
        lambda: [node("node-a"), node("node-b"), pod("web-x")],
    ),
    ("gpu-node-health-gating", "gpu-allocatable-drop"): (
        lambda: [node("gpu-0", gpus=8, allocatable_gpus=7)],
        lambda: [node("gpu-0", gpus=8), node("cpu-0")],
    ),
    ("gpu-node-health-gating", "gpu-node-missing-health-agents"): (
        lambda: [
            node("gpu-0", gpus=8),
            pod(
                "nvidia-device-plugin-daemonset-x2k9d",
                namespace="gpu-operator",
                node_name="gpu-0",
                owner=("DaemonSet", "nvidia-device-plugin-daemonset"),
            ),
        ],
        lambda: [
            node("gpu-0", gpus=8),
            node("cpu-0"),
            *[
                pod(
                    f"{name}-x2k9d",
                    namespace="gpu-operator",
                    node_name="gpu-0",
                    owner=("DaemonSet", name),
                )
                for name in (
                    "nvidia-device-plugin-daemonset",
                    "nvidia-dcgm-exporter",
                    "node-problem-detector",
                )
            ],
        ],
    ),
    ("priority-preemption-surprise", "user-priority-above-platform"): (
        lambda: [
            pod("ingress-nginx-controller-x", namespace="ingress-nginx", priority=1000),
            pod("etl-x", namespace="data", priority=100000),
        ],
        lambda: [
            pod("ingress-nginx-controller-x", namespace="ingress-nginx", priority=2000000000),
            pod("etl-x", namespace="data", priority=100000),
            pod("bulk-x", namespace="data", priority=2000000000, preemptionPolicy="Never"),
        ],
    ),
    ("shared-ingress-saturation", "ingress-controller-ha"): (
        lambda: ingress(replicas=2),
        lambda: ingress(replicas=3),
    ),
    ("cpu-limit-throttling", "tight-cpu-limits"): (
        lambda: [
            deployment(
                "api",
                containers=[
                    container(
                        "api",
                        requests={"cpu": "500m"},
                        limits={"cpu": "500m"},
                        ports=[{"containerPort": 8080}],
                    )
                ],
            )
        ],
        lambda: [
            deployment(
                "api",
                containers=[
                    container(
                        "api",
                        requests={"cpu": "500m"},
                        limits={"cpu": "2"},
                        ports=[{"containerPort": 8080}],
                    )
                ],
            ),
            deployment(
                "worker",
                containers=[container("worker", requests={"cpu": "500m"}, limits={"cpu": "500m"})],
            ),
        ],
    ),
    ("recovery-depends-on-failed-layer", "node-critical-without-priority"): (
        lambda: [daemonset("calico-node", namespace="calico-system")],
        lambda: [
            daemonset(
                "calico-node", namespace="calico-system", priorityClassName="system-node-critical"
            ),
            daemonset("log-agent", namespace="logging"),
        ],
    ),
    ("recovery-depends-on-failed-layer", "pull-on-restart"): (
        lambda: [
            pod(
                "kube-proxy-x",
                namespace="kube-system",
                containers=[container("kube-proxy", "registry.k8s.io/kube-proxy:latest")],
            )
        ],
        lambda: [
            pod(
                "kube-proxy-x",
                namespace="kube-system",
                containers=[container("kube-proxy", "registry.k8s.io/kube-proxy:v1.30.4")],
            ),
            pod("app", containers=[container("app", "app:latest")]),
        ],
    ),
    ("replicas-colocated", "pdb-blocks-drain"): (
        lambda: [
            *labelled_pods("web", 3),
            budget(
                "web",
                {"minAvailable": 3},
                {
                    "currentHealthy": 3,
                    "desiredHealthy": 3,
                    "disruptionsAllowed": 0,
                    "expectedPods": 3,
                },
            ),
            budget(
                "legacy-api",
                {"maxUnavailable": 1},
                {
                    "currentHealthy": 0,
                    "desiredHealthy": 0,
                    "disruptionsAllowed": 0,
                    "expectedPods": 0,
                },
            ),
        ],
        lambda: [
            *labelled_pods("web", 3),
            *labelled_pods("api", 3, ready=2),
            budget(
                "web",
                {"maxUnavailable": 1},
                {
                    "currentHealthy": 3,
                    "desiredHealthy": 2,
                    "disruptionsAllowed": 1,
                    "expectedPods": 3,
                },
            ),
            # one pod is down: 0 allowed now is the budget working, not blocking
            budget(
                "api",
                {"minAvailable": 2},
                {
                    "currentHealthy": 2,
                    "desiredHealthy": 2,
                    "disruptionsAllowed": 0,
                    "expectedPods": 3,
                },
            ),
        ],
    ),
    ("runaway-job-retries", "no-cleanup"): (
        lambda: [
            *[
                job(f"export-{i:04d}", status={"succeeded": 1, "conditions": [COMPLETE]})
                for i in range(501)
            ],
        ],
        lambda: [
            *[
                job(
                    f"export-{i:04d}",
                    ttlSecondsAfterFinished=86400,
                    status={"succeeded": 1, "conditions": [COMPLETE]},
                )
                for i in range(501)
            ],
            *[
                job(f"report-{i}", cronjob="report", status={"conditions": [COMPLETE]})
                for i in range(3)
            ],
        ],
    ),
    ("runaway-job-retries", "job-pods-unbounded"): (
        lambda: [
            job("reindex", containers=[container("reindex", limits={"memory": "2Gi"})]),
            simple(
                "ResourceQuota",
                "compute",
                "batch",
                spec={"hard": {"requests.cpu": "64", "requests.memory": "256Gi"}},
            ),
        ],
        lambda: [
            job("reindex", containers=[container("reindex", limits={"memory": "2Gi"})]),
            simple(
                "ResourceQuota",
                "compute",
                "batch",
                spec={"hard": {"requests.memory": "256Gi", "count/pods": "200"}},
            ),
            cronjob("report", namespace="reports"),
            simple(
                "LimitRange",
                "defaults",
                "reports",
                spec={
                    "limits": [
                        {
                            "type": "Container",
                            "default": {"memory": "512Mi", "ephemeral-storage": "2Gi"},
                            "defaultRequest": {"cpu": "100m", "memory": "256Mi"},
                        }
                    ]
                },
            ),
        ],
    ),
    ("cluster-dns-fragile", "dns-autoscaling"): (
        lambda: [dns(), *busy_pods(1000)],
        lambda: [dns(), DNS_AUTOSCALER, *busy_pods(1000)],
    ),
    ("cluster-dns-fragile", "nodelocal-dns"): (
        lambda: nodes(120),
        lambda: [*nodes(120), node_local_dns(120)],
    ),
    ("cluster-dns-fragile", "ds-dns-fanout"): (
        lambda: [log_agent(150)],
        lambda: [
            log_agent(150, dnsConfig={"options": [{"name": "ndots", "value": "2"}]}),
            node_local_dns(150),
            daemonset(
                "calico-node",
                namespace="calico-system",
                desired=150,
                hostNetwork=True,
                dnsPolicy="ClusterFirstWithHostNet",
            ),
        ],
    ),
    ("pod-ip-exhaustion", "ip-starved-pods"): (
        lambda: [
            pod(
                "payments-7c5d9b8f6-qx2lm",
                namespace="payments",
                node_name=None,
                phase="Pending",
                ready=False,
                scheduled_message=(
                    "0/40 nodes are available: 40 Insufficient vpc.amazonaws.com/pod-eni. "
                    "preemption: 0/40 nodes are available: 40 No preemption victims found for "
                    "incoming pod."
                ),
            )
        ],
        lambda: [
            pod(
                "payments-7c5d9b8f6-qx2lm",
                namespace="payments",
                node_name=None,
                phase="Pending",
                ready=False,
                scheduled_message="0/40 nodes are available: 40 Insufficient memory.",
            ),
            pod("payments-7c5d9b8f6-r8v4n", namespace="payments", phase="Pending", ready=False),
        ],
    ),
    ("node-label-selector-drift", "critical-ds-gaps"): (
        lambda: [
            node("node-a", labels={"node.kubernetes.io/pool": "general"}),
            node("node-b", labels={"node.kubernetes.io/pool": "general"}),
            node("node-c", labels={"node.kubernetes.io/pool": "general-v2"}),
            kube_proxy(2, {"kubernetes.io/os": "linux", "node.kubernetes.io/pool": "general"}),
        ],
        lambda: [
            node("node-a", labels={"node.kubernetes.io/pool": "general"}),
            node("node-b", labels={"node.kubernetes.io/pool": "general"}),
            node("node-c", labels={"node.kubernetes.io/pool": "general-v2"}),
            node("node-d", unschedulable=True),
            node("win-0", labels={"kubernetes.io/os": "windows"}),
            kube_proxy(3, {"kubernetes.io/os": "linux"}),
        ],
    ),
    ("synchronized-node-changes", "os-homogeneity"): (
        lambda: nodes(5),
        lambda: [*nodes(3), *nodes(2, kernel="6.1.0-21-cloud-amd64")],
    ),
    ("stale-network-mounts", "liveness-on-shared-fs"): (
        lambda: [
            DATASET_PVC,
            VAST_PV,
            worker_with_probe(
                {"exec": {"command": ["sh", "-c", "test -f /data/.ready && ls /data/shards"]}}
            ),
        ],
        lambda: [
            DATASET_PVC,
            VAST_PV,
            worker_with_probe({"httpGet": {"path": "/healthz", "port": 8080}}),
            worker_with_probe(
                {"exec": {"command": ["sh", "-c", "test -f /tmp/alive"]}},
                mount_path="/database",
                app="vector-db",
            ),
        ],
    ),
    ("shared-fs-metadata-storm", "shared-hostpath-fan-in"): (
        lambda: hostpath_readers(8, "/vast/corpus/v3"),
        lambda: [
            *hostpath_readers(4, "/vast/corpus/v3"),
            *[
                pod(
                    f"cache-warm-{i}",
                    namespace="ml",
                    node_name=f"gpu-{i}",
                    volumes=[{"name": "cache", "hostPath": {"path": "/mnt/nvme/cache"}}],
                )
                for i in range(8)
            ],
        ],
    ),
    ("no-spare-capacity", "no-free-gpu-node"): (
        lambda: [
            *[
                node(f"gpu-{i}", gpus=8, labels={"nvidia.com/gpu.present": "true"})
                for i in range(4)
            ],
            *[trainer(i, scratch=True) for i in range(4)],
        ],
        lambda: [
            *[
                node(f"gpu-{i}", gpus=8, labels={"nvidia.com/gpu.present": "true"})
                for i in range(5)
            ],
            node("gpu-5", gpus=8, unschedulable=True),
            *[trainer(i, scratch=True) for i in range(4)],
        ],
    ),
    ("priority-preemption-surprise", "large-preemptors"): (
        lambda: [
            node("node-a", cpu="16", memory="64Gi"),
            *[
                pod(
                    f"spark-exec-{i}",
                    namespace="analytics",
                    node_name=None if i else "node-a",
                    phase="Running" if i == 0 else "Pending",
                    owner=("StatefulSet", "spark-exec"),
                    containers=[container("executor", requests={"cpu": "6", "memory": "24Gi"})],
                    priority=100000,
                    priorityClassName="analytics-high",
                )
                for i in range(2)
            ],
        ],
        lambda: [
            node("node-a", cpu="16", memory="64Gi"),
            pod(
                "spark-exec-0",
                namespace="analytics",
                owner=("StatefulSet", "spark-exec"),
                containers=[container("executor", requests={"cpu": "6", "memory": "24Gi"})],
                priority=100000,
                priorityClassName="analytics-queued",
                preemptionPolicy="Never",
            ),
            pod(
                "checkout-6b7d9-abcde",
                namespace="shop",
                owner=("ReplicaSet", "checkout-6b7d9"),
                priority=1000000,
                priorityClassName="business-critical",
            ),
            pod(
                "bulk-0",
                namespace="analytics",
                containers=[container("bulk", requests={"cpu": "8", "memory": "32Gi"})],
            ),
        ],
    ),
    ("shared-ingress-saturation", "ingress-fixed-memory"): (
        lambda: [skipper()],
        lambda: [skipper(), hpa("skipper-ingress", "skipper-ingress", 3, namespace="kube-system")],
    ),
    ("probes-misconfigured", "readiness-probe-missing"): (
        lambda: [deployment("web"), service("web", WEB_LABELS)],
        lambda: [
            deployment("web", containers=[sized(readinessProbe=READY)]),
            service("web", WEB_LABELS),
            deployment("worker"),  # no Service sends it traffic: kube-score agrees
        ],
    ),
    ("probes-misconfigured", "liveness-same-as-readiness"): (
        lambda: [deployment("web", containers=[sized(readinessProbe=READY, livenessProbe=READY)])],
        lambda: [deployment("web", containers=[sized(readinessProbe=READY, livenessProbe=ALIVE)])],
    ),
    ("disruption-budget-blocks-drain", "pdb-spec-blocks-drain"): (
        lambda: [
            spec_budget("a", maxUnavailable=0),
            spec_budget("b", minAvailable="100%"),
            deployment("web", replicas=1),
            hpa("web", "web", minimum=3),
            spec_budget("c", minAvailable=3, labels=WEB_LABELS),
        ],
        lambda: [
            spec_budget("a", maxUnavailable=1),
            spec_budget("b", minAvailable="50%"),
            deployment("web", replicas=1),
            hpa("web", "web", minimum=3),
            spec_budget("c", minAvailable=2, labels=WEB_LABELS),
        ],
    ),
    ("autoscaler-misconfigured", "hpa-target-missing"): (
        lambda: [deployment("web-v2"), hpa("web", "web")],
        lambda: [deployment("web"), hpa("web", "web")],
    ),
    ("autoscaler-misconfigured", "replicas-beside-hpa"): (
        lambda: [applied(deployment("web"), replicas=3), hpa("web", "web")],
        lambda: [applied(deployment("web"), replicas=None), hpa("web", "web"), deployment("api")],
    ),
    ("autoscaler-misconfigured", "hpa-max-beyond-nodes"): (
        lambda: [*nodes(2, cpu="4"), deployment("web"), hpa("web", "web", maximum=40)],
        lambda: [*nodes(2, cpu="4"), deployment("web"), hpa("web", "web", maximum=20)],
    ),
    ("service-without-ready-endpoints", "service-ready-endpoints"): (
        lambda: [
            service("web", WEB_LABELS),
            service("ledger", {"app.kubernetes.io/name": "ledger"}),
            *ready_web(1),
        ],
        lambda: [
            service("web", WEB_LABELS),
            simple("Service", "external", "default", spec={"type": "ExternalName"}),
            *ready_web(2),
        ],
    ),
    ("runaway-job-retries", "cronjob-no-starting-deadline"): (
        lambda: [cronjob("sync", schedule="0 * * * *")],
        lambda: [with_spec(cronjob("sync", schedule="0 * * * *"), startingDeadlineSeconds=300)],
    ),
    ("node-overcommit", "memory-limits-missing"): (
        lambda: [deployment("web", containers=[container(requests={"cpu": "1"})])],
        lambda: [
            deployment("web", containers=[sized()]),
            deployment("api", namespace="team", containers=[container(requests={"cpu": "1"})]),
            simple(
                "LimitRange",
                "defaults",
                "team",
                spec={"limits": [{"type": "Container", "default": {"memory": "512Mi"}}]},
            ),
        ],
    ),
    ("runtime-health", "crash-looping-pods"): (
        lambda: [
            crash_looping(
                pod("coredns-5d78c9869d-abcde", owner=("ReplicaSet", "coredns-5d78c9869d"))
            )
        ],
        lambda: [
            pod("coredns-5d78c9869d-abcde", owner=("ReplicaSet", "coredns-5d78c9869d"), restarts=2)
        ],
    ),
    ("runtime-health", "pods-not-ready"): (
        lambda: [pod("web-1", ready=False)],
        lambda: [pod("web-1"), pod("done", phase="Succeeded", ready=False)],
    ),
    ("runtime-health", "workloads-below-desired"): (
        lambda: [deployment("web", status={"replicas": 3, "availableReplicas": 1})],
        lambda: [
            deployment("web", status={"replicas": 3, "availableReplicas": 3}),
            deployment("new"),
        ],
    ),
    ("runtime-health", "network-unavailable-nodes"): (
        lambda: [with_condition(node("node-a"), "NetworkUnavailable", "True")],
        lambda: [with_condition(node("node-a"), "NetworkUnavailable", "False")],
    ),
}

READY = {"httpGet": {"path": "/ready", "port": 8080}, "periodSeconds": 5}
ALIVE = {"tcpSocket": {"port": 8080}, "periodSeconds": 20, "failureThreshold": 6}


def service(name: str, selector: dict[str, str], namespace: str = "default") -> Obj:
    return simple("Service", name, namespace, spec={"selector": selector, "type": "ClusterIP"})


def spec_budget(name: str, labels: dict[str, str] | None = None, **spec: object) -> Obj:
    selector = {"matchLabels": labels or {"app": name}}
    return simple("PodDisruptionBudget", name, "default", spec={**spec, "selector": selector})


def applied(workload: Obj, replicas: int | None) -> Obj:
    manifest: dict[str, object] = {"kind": "Deployment", "spec": {"template": {}}}
    if replicas is not None:
        manifest["spec"] = {"replicas": replicas, "template": {}}
    workload["metadata"]["annotations"] = {
        "kubectl.kubernetes.io/last-applied-configuration": json.dumps(manifest)
    }
    return workload


def ready_web(count: int) -> list[Obj]:
    return [
        pod(f"web-7d9f8b6c5d-{i}x9z", labels=WEB_LABELS, owner=("ReplicaSet", "web-7d9f8b6c5d"))
        for i in range(count)
    ] + [pod("web-7d9f8b6c5d-zzzzz", labels=WEB_LABELS, ready=False)]


def with_spec(item: Obj, **fields: object) -> Obj:
    item["spec"].update(fields)
    return item


def crash_looping(item: Obj) -> Obj:
    item["status"]["containerStatuses"][0]["restartCount"] = 183
    item["status"]["containerStatuses"][0]["state"] = {
        "waiting": {"reason": "CrashLoopBackOff", "message": "back-off 5m0s restarting"}
    }
    return item


def with_condition(item: Obj, kind: str, status: str) -> Obj:
    item["status"]["conditions"].append(
        {"type": kind, "status": status, "reason": "NoRouteCreated"}
    )
    return item


def run(key: tuple[str, str], objects: list[Obj]) -> list[Gap]:
    return CHECKS[key].function(make_snapshot(*objects))


def test_every_registered_check_has_a_case() -> None:
    assert sorted(CASES) == sorted(CHECKS)


@pytest.mark.parametrize("key", sorted(CASES), ids="/".join)
def test_check_finds_the_gap(key: tuple[str, str]) -> None:
    gaps = run(key, CASES[key][0]())
    assert gaps, f"{key} found nothing"
    for gap in gaps:
        assert gap.why.en and gap.why.ko
        assert gap.objects if gap.scope == "objects" else gap.scope in SCOPES
        assert all(isinstance(item, ObjectRef) for item in gap.objects)


@pytest.mark.parametrize("key", sorted(CASES), ids="/".join)
def test_check_passes_the_well_configured_twin(key: tuple[str, str]) -> None:
    assert run(key, CASES[key][1]()) == []


def test_memory_overcommit_sentence_has_the_numbers() -> None:
    gaps = run(
        ("node-overcommit", "memory-limit-overcommit"),
        CASES[("node-overcommit", "memory-limit-overcommit")][0](),
    )
    assert gaps == [
        Gap(
            (ObjectRef("Node", "", "node-a"),),
            gaps[0].why,
            severity="high",
        )
    ]
    assert gaps[0].why.en.startswith("memory limits add up to 64Gi, 4.0x the 16Gi allocatable")


def test_observed_node_skew_names_the_deployment_behind_the_replicaset() -> None:
    gaps = run(
        ("replicas-colocated", "observed-node-skew"), web_pods(["node-a", "node-a", "node-b"])
    )
    assert gaps[0].objects == (
        ObjectRef("Deployment", "default", "web"),
        ObjectRef("Node", "", "node-a"),
    )
    assert gaps[0].why.en.startswith("2 of 3 ready pods run on node node-a")


def test_hpa_minimum_counts_as_replicas() -> None:
    objects = [deployment("web", replicas=1), hpa("web", "web", minimum=3)]
    gaps = run(("replicas-colocated", "no-spread-policy"), objects)
    assert [g.objects for g in gaps] == [(ObjectRef("Deployment", "default", "web"),)]
    assert "3 replicas" in gaps[0].why.en


def test_apiserver_flags_not_evaluable_on_a_managed_control_plane() -> None:
    with pytest.raises(NotEvaluable):
        run(("control-plane-undersized", "apiserver-flags"), nodes(3))


def test_webhook_with_long_timeout_is_high() -> None:
    gaps = run(("fail-closed-admission-webhook", "fail-closed-webhook"), [webhook("Fail", {}, 30)])
    assert [g.severity for g in gaps] == ["high"]


@pytest.mark.parametrize(
    ("message", "starved"),
    [
        (
            'failed to setup network for sandbox "4f1c": plugin type="aws-cni" name="aws-cni" '
            "failed (add): add cmd: failed to assign an IP address to container",
            True,
        ),
        (
            "failed to allocate for range 0: no IP addresses available in range set: "
            "10.244.1.1-10.244.1.254",
            True,
        ),
        ('plugin type="calico" failed (add): failed to request IPv4 addresses', True),
        ("0/40 nodes are available: 40 Insufficient memory.", False),
        ('Back-off pulling image "registry.example.com/app:1.4.2"', False),
    ],
)
def test_ip_starvation_messages(message: str, starved: bool) -> None:
    waiting = pod("api-x", phase="Pending", ready=False)
    waiting["status"]["containerStatuses"][0]["state"] = {
        "waiting": {"reason": "ContainerCreating", "message": message}
    }
    gaps = run(("pod-ip-exhaustion", "ip-starved-pods"), [waiting])
    assert bool(gaps) is starved


def test_liveness_probe_on_a_sibling_path_is_not_the_mount() -> None:
    probe = {"exec": {"command": ["sh", "-c", "test -f /database/ready"]}}
    objects = [DATASET_PVC, VAST_PV, worker_with_probe(probe)]
    assert run(("stale-network-mounts", "liveness-on-shared-fs"), objects) == []
    probe = {"exec": {"command": ["/bin/check", "--dir=/data"]}}
    objects = [DATASET_PVC, VAST_PV, worker_with_probe(probe)]
    assert run(("stale-network-mounts", "liveness-on-shared-fs"), objects)


def test_pdb_findings_name_the_budget_and_severity() -> None:
    gaps = run(
        ("replicas-colocated", "pdb-blocks-drain"),
        CASES[("replicas-colocated", "pdb-blocks-drain")][0](),
    )
    assert [(g.objects[0].name, g.severity) for g in gaps] == [("web", None), ("legacy-api", "low")]


def test_gpu_gang_on_one_node_is_not_a_gang() -> None:
    objects = [node("gpu-0", gpus=8), trainer(0, scratch=True)]
    assert run(("no-spare-capacity", "no-free-gpu-node"), objects) == []


# --- pods stand in for workloads the snapshot does not hold ------------------------------------

WEB_POD_LABELS = {"app.kubernetes.io/name": "web"}
BARE = [container(requests={"cpu": "1"})]  # no probe, no memory limit
POD_CHECKS = [
    ("probes-misconfigured", "readiness-probe-missing"),
    ("node-overcommit", "memory-limits-missing"),
]


def web_replicas(count: int, **kwargs: object) -> list[Obj]:
    return [
        pod(
            f"web-5d78c9869d-{index:05d}",
            owner=("ReplicaSet", "web-5d78c9869d"),
            labels=WEB_POD_LABELS,
            containers=BARE,
            **kwargs,  # type: ignore[arg-type]
        )
        for index in range(count)
    ]


@pytest.mark.parametrize("key", POD_CHECKS, ids="/".join)
def test_a_bare_pod_is_judged_as_itself(key: tuple[str, str]) -> None:
    bare = pod("debug", labels=WEB_POD_LABELS, containers=BARE)
    gaps = run(key, [bare, service("web", WEB_LABELS)])
    assert [g.objects for g in gaps] == [(ObjectRef("Pod", "default", "debug"),)]


@pytest.mark.parametrize("key", POD_CHECKS, ids="/".join)
def test_pods_of_an_absent_deployment_are_judged_once_as_that_deployment(
    key: tuple[str, str],
) -> None:
    # `kubectl get pods,services -A -o json`: the Deployment is not in the snapshot.
    gaps = run(key, [*web_replicas(3), service("web", WEB_LABELS)])
    assert [g.objects for g in gaps] == [(ObjectRef("Deployment", "default", "web"),)]


@pytest.mark.parametrize("key", POD_CHECKS, ids="/".join)
def test_pods_of_a_deployment_in_the_snapshot_are_not_judged_twice(key: tuple[str, str]) -> None:
    objects = [deployment("web", containers=BARE), *web_replicas(3), service("web", WEB_LABELS)]
    gaps = run(key, objects)
    assert [g.objects for g in gaps] == [(ObjectRef("Deployment", "default", "web"),)]


@pytest.mark.parametrize("key", POD_CHECKS, ids="/".join)
def test_job_pods_and_finished_pods_stand_for_nothing(key: tuple[str, str]) -> None:
    objects = [
        pod("migrate-x7k2p", owner=("Job", "migrate"), labels=WEB_POD_LABELS, containers=BARE),
        pod("old", labels=WEB_POD_LABELS, phase="Succeeded", containers=BARE),
        service("web", WEB_LABELS),
    ]
    assert run(key, objects) == []


def test_a_bare_pod_with_probe_and_limit_passes_both() -> None:
    ready = pod("debug", labels=WEB_POD_LABELS, containers=[sized(readinessProbe=READY)])
    for key in POD_CHECKS:
        assert run(key, [ready, service("web", WEB_LABELS)]) == [], key


def test_a_bare_pod_no_service_selects_needs_no_readiness_probe() -> None:
    lonely = pod("debug", labels={"app": "other"})
    assert (
        run(
            ("probes-misconfigured", "readiness-probe-missing"),
            [lonely, service("web", WEB_LABELS)],
        )
        == []
    )


def test_liveness_equal_to_readiness_on_a_bare_pod() -> None:
    same = pod("debug", containers=[sized(readinessProbe=READY, livenessProbe=READY)])
    gaps = run(("probes-misconfigured", "liveness-same-as-readiness"), [same])
    assert [g.objects for g in gaps] == [(ObjectRef("Pod", "default", "debug"),)]


@pytest.mark.parametrize(
    ("min_available", "replicas", "blocks"),
    [
        ("90%", 3, True),  # rounds up: keeps all 3
        ("67%", 3, True),  # 2.01 rounds up to 3
        ("66%", 3, False),  # 1.98 rounds up to 2: one may go
        ("50%", 1, True),  # a single replica: 0.5 rounds up to 1
        ("50%", 4, False),
        ("0%", 3, False),
        (0, 3, False),
        (3, 3, True),
        ("3", 3, True),
        (2, 3, False),
    ],
)
def test_pdb_min_available_is_scaled_as_the_disruption_controller_does(
    min_available: object, replicas: int, blocks: bool
) -> None:
    objects = [
        deployment("web", replicas=replicas),
        spec_budget("web", minAvailable=min_available, labels=WEB_LABELS),
    ]
    gaps = run(("disruption-budget-blocks-drain", "pdb-spec-blocks-drain"), objects)
    assert bool(gaps) is blocks
    if blocks and isinstance(min_available, str) and min_available.endswith("%"):
        assert f"minAvailable {min_available} (keeps {replicas})" in gaps[0].why.en


def test_a_budget_over_a_deployment_scaled_to_zero_blocks_nothing() -> None:
    objects = [deployment("web", replicas=0), spec_budget("web", minAvailable=1, labels=WEB_LABELS)]
    assert run(("disruption-budget-blocks-drain", "pdb-spec-blocks-drain"), objects) == []
