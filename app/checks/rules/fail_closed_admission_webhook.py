"""fail-closed-admission-webhook: a webhook whose outage blocks the cluster's own objects."""

from __future__ import annotations

from typing import Any

from app.checks import kube
from app.checks.registry import Gap, Text, check
from app.checks.snapshot import Snapshot

PATTERN = "fail-closed-admission-webhook"
CORE_RESOURCES = frozenset({"*", "pods", "nodes", "leases", "configmaps", "*/*"})
KUBE_SYSTEM = {"kubernetes.io/metadata.name": "kube-system"}
KINDS = ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")


def covers_core(webhook: dict[str, Any]) -> list[str]:
    return sorted(
        {
            str(resource)
            for rule in webhook.get("rules") or []
            for resource in rule.get("resources") or []
            if str(resource) in CORE_RESOURCES
        }
    )


def reaches_kube_system(webhook: dict[str, Any]) -> bool:
    selector = webhook.get("namespaceSelector")
    if not selector or selector == {}:
        return True
    return kube.selector_matches(selector, KUBE_SYSTEM)


@check(PATTERN, "fail-closed-webhook", covers=KINDS)
def fail_closed_webhook(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for configuration in kube.workloads(snapshot, *KINDS):
        for webhook in configuration.get("webhooks") or []:
            resources = covers_core(webhook)
            if webhook.get("failurePolicy", "Fail") != "Fail" or not resources:
                continue
            if not reaches_kube_system(webhook):
                continue
            timeout = int(webhook.get("timeoutSeconds") or 10)
            listed = ", ".join(resources)
            gaps.append(
                Gap(
                    (kube.ref(configuration),),
                    Text(
                        f"webhook {webhook.get('name')} fails closed on {listed}, including "
                        f"kube-system, with a {timeout}s timeout: if its backend is down, "
                        "those writes fail cluster-wide.",
                        f"웹훅 {webhook.get('name')} 이 kube-system 을 포함해 {listed} 에 "
                        f"fail-closed 로 걸려 있고 타임아웃이 {timeout}초다. 백엔드가 죽으면 "
                        "클러스터 전체에서 그 쓰기가 실패한다.",
                    ),
                    severity="high" if timeout > 10 else None,
                )
            )
    return gaps
