"""pod-ip-exhaustion: pod IPs held back per node, or a pod range too small (IL-0006)."""

from __future__ import annotations

import ipaddress
import re

from app.checks import kube
from app.checks.registry import Gap, NotEvaluable, ObjectRef, Text, check
from app.checks.rules.node_agent_apiserver_fanout import env
from app.checks.snapshot import Snapshot

PATTERN = "pod-ip-exhaustion"
CEILING_SHARE = 0.8


@check(PATTERN, "vpc-cni-warm-eni", requires=("DaemonSet",))
def vpc_cni_warm_eni(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for daemonset in snapshot.of("DaemonSet"):
        if kube.namespace(daemonset) != "kube-system" or kube.name(daemonset) != "aws-node":
            continue
        cni = [c for c in kube.containers(kube.pod_spec(daemonset)) if c.get("name") == "aws-node"]
        if not cni:
            continue
        warm_ip, minimum_ip = env(cni[0], "WARM_IP_TARGET"), env(cni[0], "MINIMUM_IP_TARGET")
        prefix = env(cni[0], "ENABLE_PREFIX_DELEGATION") == "true"
        if warm_ip or minimum_ip or prefix:
            continue
        warm_eni = env(cni[0], "WARM_ENI_TARGET") or "1"
        gaps.append(
            Gap(
                (kube.ref(daemonset),),
                Text(
                    f"WARM_IP_TARGET and MINIMUM_IP_TARGET are unset (WARM_ENI_TARGET={warm_eni}) "
                    "and prefix delegation is off: every node keeps a whole spare ENI of IPs, "
                    "even when it is full.",
                    f"WARM_IP_TARGET 과 MINIMUM_IP_TARGET 이 없고 (WARM_ENI_TARGET={warm_eni}) "
                    "prefix delegation 도 꺼져 있어, 가득 찬 노드도 ENI 하나 분량의 IP 를 "
                    "여분으로 붙잡고 있다.",
                ),
            )
        )
    return gaps


def cluster_cidr(snapshot: Snapshot) -> str | None:
    """podSubnet from kubeadm-config, else clusterCIDR from kube-proxy's config."""
    sources = {
        "kubeadm-config": ("ClusterConfiguration", r"podSubnet:\s*\"?([0-9./,:a-f]+)"),
        "kube-proxy": ("config.conf", r"clusterCIDR:\s*\"?([0-9./,:a-f]+)"),
    }
    for config_map in snapshot.of("ConfigMap"):
        source = sources.get(kube.name(config_map))
        if kube.namespace(config_map) != "kube-system" or source is None:
            continue
        match = re.search(source[1], str(kube.dig(config_map, "data", source[0]) or ""))
        if match:
            for cidr in match.group(1).split(","):
                if ":" not in cidr and _is_network(cidr):
                    return cidr
    return None


def _is_network(text: str) -> bool:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


@check(PATTERN, "podcidr-ceiling", requires=("Node", "ConfigMap"))
def podcidr_ceiling(snapshot: Snapshot) -> list[Gap]:
    cidr = cluster_cidr(snapshot)
    node_prefixes = [
        network.prefixlen
        for n in snapshot.of("Node")
        if kube.dig(n, "spec", "podCIDR")
        and (network := ipaddress.ip_network(str(kube.dig(n, "spec", "podCIDR")), strict=False))
        and network.version == 4
    ]
    if cidr is None or not node_prefixes:
        raise NotEvaluable(
            Text(
                "no cluster pod range (kubeadm-config or kube-proxy ConfigMap) or no node podCIDR",
                "클러스터 파드 대역(kubeadm-config 나 kube-proxy ConfigMap)이나 "
                "노드 podCIDR 이 없다",
            )
        )
    cluster_prefix = ipaddress.ip_network(cidr, strict=False).prefixlen
    node_prefix = max(node_prefixes)
    if node_prefix < cluster_prefix:
        return []  # node ranges wider than the cluster range: nothing to compare
    ceiling = 2 ** (node_prefix - cluster_prefix)
    nodes = len(snapshot.of("Node"))
    if nodes < CEILING_SHARE * ceiling:
        return []
    return [
        Gap(
            (),
            Text(
                f"pod range {cidr} split into /{node_prefix} per node fits {ceiling} nodes, and "
                f"{nodes} are in use ({nodes / ceiling:.0%}).",
                f"파드 대역({cidr})을 노드마다 /{node_prefix} 로 나누면 노드 {ceiling}대까지인데, "
                f"이미 {nodes}대({nodes / ceiling:.0%})를 쓰고 있다.",
            ),
            scope="cluster",
            subject=f"pod range {cidr}",
        )
    ]


# Sandbox and scheduling messages of CNI plugins and cloud IPAM that mean "no address left".
IP_STARVED = re.compile(
    r"failed to (?:assign|allocate|request)[^.;]{0,40}\bIP(?:s|v[46])?\b"
    r"|no (?:more )?(?:free |available )?IP(?:v[46])? addresses"
    r"|no IP addresses available"
    r"|IP (?:space|range|addresses?) (?:is |are )?exhausted"
    r"|ipam(?:d)?[^.;]{0,40}(?:no available|exhausted|failed)"
    r"|insufficient vpc\.amazonaws\.com/(?:pod-eni|PrivateIPv4Address)",
    re.IGNORECASE,
)


def status_messages(pod: dict[str, object]) -> list[str]:
    """Every message the pod status carries: its own, its conditions', its waiting containers'."""
    status = kube.dig(pod, "status") or {}
    found = [str(status.get("message") or "")]
    found += [str(c.get("message") or "") for c in status.get("conditions") or []]
    for container in (status.get("initContainerStatuses") or []) + (
        status.get("containerStatuses") or []
    ):
        found.append(str(kube.dig(container, "state", "waiting", "message") or ""))
    return [message for message in found if message]


@check(PATTERN, "ip-starved-pods", requires=("Pod",))
def ip_starved_pods(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for pod in snapshot.of("Pod"):
        if kube.dig(pod, "status", "phase") != "Pending":
            continue
        message = next((m for m in status_messages(pod) if IP_STARVED.search(m)), None)
        if message is None:
            continue
        where = kube.pod_node(pod)
        objects = (kube.ref(pod), ObjectRef("Node", "", where)) if where else (kube.ref(pod),)
        gaps.append(
            Gap(
                objects,
                Text(
                    f"Pending because no pod IP could be assigned: {message[:300]}",
                    f"파드 IP 를 받지 못해 Pending 이다: {message[:300]}",
                ),
            )
        )
    return gaps
