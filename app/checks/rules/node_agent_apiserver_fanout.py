"""node-agent-apiserver-fanout: per-node agents that multiply API server load (IL-0075)."""

from __future__ import annotations

from app.checks import kube
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "node-agent-apiserver-fanout"
LARGE_DAEMONSET = 100
# Node components that must talk to the API server from every node.
CORE_AGENTS = (
    "kube-proxy",
    "calico-node",
    "cilium",
    "aws-node",
    "kube-flannel",
    "weave-net",
    "antrea-agent",
    "csi",
    "device-plugin",
    "nvidia",
    "node-local-dns",
    "konnectivity-agent",
)


def env(container: dict[str, object], key: str) -> str | None:
    for item in container.get("env") or []:  # type: ignore[attr-defined]
        if isinstance(item, dict) and item.get("name") == key:
            return str(item.get("value", ""))
    return None


def desired(daemonset: Obj) -> int:
    return int(kube.dig(daemonset, "status", "desiredNumberScheduled") or 0)


def is_core_agent(daemonset: Obj) -> bool:
    return any(word in kube.name(daemonset) for word in CORE_AGENTS)


@check(PATTERN, "large-ds-with-api-token", requires=("DaemonSet",))
def large_ds_with_api_token(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for daemonset in snapshot.of("DaemonSet"):
        spec = kube.pod_spec(daemonset)
        account = spec.get("serviceAccountName") or spec.get("serviceAccount") or "default"
        clients = desired(daemonset)
        if clients < LARGE_DAEMONSET or account == "default" or is_core_agent(daemonset):
            continue
        if spec.get("automountServiceAccountToken") is False:
            continue
        gaps.append(
            Gap(
                (kube.ref(daemonset),),
                Text(
                    f"{clients} pods each hold a token of ServiceAccount {account}: "
                    f"{clients} API server clients whose load grows with every node.",
                    f"파드 {clients}개가 저마다 ServiceAccount {account} 의 토큰을 들고 있다. "
                    f"노드가 늘 때마다 부하가 커지는 API 서버 클라이언트가 {clients}개다.",
                ),
            )
        )
    return gaps


@check(PATTERN, "datadog-without-cluster-agent", requires=("DaemonSet",))
def datadog_without_cluster_agent(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for daemonset in snapshot.of("DaemonSet"):
        agents = [
            c
            for c in kube.containers(kube.pod_spec(daemonset))
            if "datadog" in str(c.get("image", "")) and "agent" in str(c.get("image", ""))
        ]
        if not agents:
            continue
        cluster_agent = any(env(c, "DD_CLUSTER_AGENT_ENABLED") == "true" for c in agents)
        events = any(env(c, "DD_COLLECT_KUBERNETES_EVENTS") == "true" for c in agents)
        if cluster_agent and not events:
            continue
        problem = (
            "DD_COLLECT_KUBERNETES_EVENTS=true on the node agents"
            if events
            else "DD_CLUSTER_AGENT_ENABLED is not true"
        )
        gaps.append(
            Gap(
                (kube.ref(daemonset),),
                Text(
                    f"{problem}: each of the {desired(daemonset)} node agents queries the API "
                    "server itself.",
                    f"설정({problem}) 때문에 노드 에이전트 {desired(daemonset)}개가 저마다 API "
                    "서버에 직접 묻는다.",
                ),
            )
        )
    return gaps
