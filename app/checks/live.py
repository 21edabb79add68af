"""Read a snapshot from a live cluster with the official client: list calls only."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from app.checks.documents import SnapshotError
from app.checks.snapshot import RESOURCES, Obj, Snapshot, snapshot_from_documents

PAGE_SIZE = 500


def snapshot_from_cluster(context: str | None, kubeconfig: str | None) -> Snapshot:
    """List every kind in RESOURCES through the kubernetes client (list/get only, no Secrets).

    A kind the API refuses (403) or does not serve (404) is left out, so its checks become
    not-evaluable.

    :raises SnapshotError: when the kubeconfig cannot be loaded or the cluster is unreachable.
    """
    from kubernetes import client, config  # imported here: only the live path needs it
    from kubernetes.client.exceptions import ApiException
    from kubernetes.config.config_exception import ConfigException

    try:
        api_client = config.new_client_from_config(  # type: ignore[no-untyped-call]
            config_file=kubeconfig, context=context
        )
    except (ConfigException, OSError, TypeError, ValueError) as error:
        raise SnapshotError(f"cannot load kubeconfig: {error}") from None
    documents: list[Obj] = []
    with api_client:
        listers = _listers(client, api_client)
        for resource in RESOURCES:
            try:
                items = _list_all(listers[resource.kind])
            except ApiException as error:
                if error.status in (401, 403, 404):
                    continue
                raise SnapshotError(f"listing {resource.kind} failed: {error.reason}") from None
            except Exception as error:  # urllib3 connection errors have no common base we import
                raise SnapshotError(f"cannot reach the cluster: {error}") from None
            documents.append({"kind": f"{resource.kind}List", "items": items})
    return snapshot_from_documents(documents)


Lister = Callable[..., Any]


def _listers(client: Any, api_client: Any) -> dict[str, Lister]:
    core = client.CoreV1Api(api_client)
    apps = client.AppsV1Api(api_client)
    batch = client.BatchV1Api(api_client)
    admission = client.AdmissionregistrationV1Api(api_client)
    return {
        "Node": core.list_node,
        "Pod": core.list_pod_for_all_namespaces,
        "Namespace": core.list_namespace,
        "Service": core.list_service_for_all_namespaces,
        "PersistentVolumeClaim": core.list_persistent_volume_claim_for_all_namespaces,
        "PersistentVolume": core.list_persistent_volume,
        "ResourceQuota": core.list_resource_quota_for_all_namespaces,
        "LimitRange": core.list_limit_range_for_all_namespaces,
        "ConfigMap": lambda **kw: core.list_namespaced_config_map("kube-system", **kw),
        "Deployment": apps.list_deployment_for_all_namespaces,
        "StatefulSet": apps.list_stateful_set_for_all_namespaces,
        "DaemonSet": apps.list_daemon_set_for_all_namespaces,
        "Job": batch.list_job_for_all_namespaces,
        "CronJob": batch.list_cron_job_for_all_namespaces,
        "StorageClass": client.StorageV1Api(api_client).list_storage_class,
        "PodDisruptionBudget": client.PolicyV1Api(
            api_client
        ).list_pod_disruption_budget_for_all_namespaces,
        "HorizontalPodAutoscaler": client.AutoscalingV2Api(
            api_client
        ).list_horizontal_pod_autoscaler_for_all_namespaces,
        "PriorityClass": client.SchedulingV1Api(api_client).list_priority_class,
        "ValidatingWebhookConfiguration": admission.list_validating_webhook_configuration,
        "MutatingWebhookConfiguration": admission.list_mutating_webhook_configuration,
    }


def _list_all(lister: Lister) -> list[Obj]:
    """Page through a list call, keeping the raw JSON exactly as the API sent it."""
    items: list[Obj] = []
    token: str | None = None
    while True:
        kwargs: dict[str, Any] = {"limit": PAGE_SIZE, "_preload_content": False}
        if token:
            kwargs["_continue"] = token
        response = lister(**kwargs)
        body = json.loads(response.data)
        items.extend(body.get("items") or [])
        token = (body.get("metadata") or {}).get("continue")
        if not token:
            return items
