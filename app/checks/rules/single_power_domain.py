"""single-power-domain: nodes the scheduler cannot spread across failure domains (IL-0134)."""

from __future__ import annotations

from app.checks import kube
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Snapshot

PATTERN = "single-power-domain"
RACK_LABELS = ("topology.kubernetes.io/rack", "topology.kubernetes.io/power-domain", "rack")


@check(PATTERN, "no-failure-domain-labels", requires=("Node",))
def no_failure_domain_labels(snapshot: Snapshot) -> list[Gap]:
    nodes = snapshot.of("Node")
    zones = {kube.zone(node) for node in nodes}
    gaps = []
    if len(nodes) >= 2 and zones == {None}:
        gaps.append(
            Gap(
                (),
                Text(
                    f"none of the {len(nodes)} nodes has a topology.kubernetes.io/zone label: "
                    "nothing can be spread across failure domains.",
                    f"노드 {len(nodes)}대 어디에도 topology.kubernetes.io/zone 라벨이 없어 "
                    "장애 영역에 나눠 놓을 수가 없다.",
                ),
                scope="cluster",
            )
        )
    elif len(nodes) >= 2 and len(zones) == 1:
        gaps.append(
            Gap(
                (),
                Text(
                    f"all {len(nodes)} nodes are in zone {next(iter(zones))}: one site or "
                    "power event reaches every node.",
                    f"노드 {len(nodes)}대가 모두 {next(iter(zones))} 영역에 있어 한 곳의 전력 "
                    "사고가 모든 노드에 미친다.",
                ),
                scope="cluster",
            )
        )
    gpu_nodes = [n for n in nodes if kube.is_gpu_node(n)]
    unlabelled = [n for n in gpu_nodes if not any(k in kube.labels(n) for k in RACK_LABELS)]
    if len(gpu_nodes) >= 2 and len(unlabelled) == len(gpu_nodes):
        gaps.append(
            Gap(
                (),
                Text(
                    f"none of the {len(gpu_nodes)} GPU nodes has a rack or power-domain label "
                    f"({', '.join(RACK_LABELS)}).",
                    f"GPU 노드 {len(gpu_nodes)}대 어디에도 랙이나 전력 도메인 라벨"
                    f"({', '.join(RACK_LABELS)})이 없다.",
                ),
                severity="low",
                scope="cluster",
            )
        )
    return gaps
