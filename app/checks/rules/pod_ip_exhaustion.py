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
                if ":" not in cidr:
                    return cidr
    return None


@check(PATTERN, "podcidr-ceiling", requires=("Node", "ConfigMap"))
def podcidr_ceiling(snapshot: Snapshot) -> list[Gap]:
    cidr = cluster_cidr(snapshot)
    node_prefixes = [
        ipaddress.ip_network(str(kube.dig(n, "spec", "podCIDR")), strict=False).prefixlen
        for n in snapshot.of("Node")
        if kube.dig(n, "spec", "podCIDR")
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
    ceiling = 2 ** (node_prefix - cluster_prefix)
    nodes = len(snapshot.of("Node"))
    if nodes < CEILING_SHARE * ceiling:
        return []
    return [
        Gap(
            (ObjectRef("ConfigMap", "kube-system", "pod range " + cidr),),
            Text(
                f"pod range {cidr} split into /{node_prefix} per node fits {ceiling} nodes, and "
                f"{nodes} are in use ({nodes / ceiling:.0%}).",
                f"파드 대역({cidr})을 노드마다 /{node_prefix} 로 나누면 노드 {ceiling}대까지인데, "
                f"이미 {nodes}대({nodes / ceiling:.0%})를 쓰고 있다.",
            ),
        )
    ]
