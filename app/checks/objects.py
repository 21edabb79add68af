"""Typed reading: every field a check reads, validated before any check sees the object.

The models declare only what the checks read (extra fields are allowed and ignored), in strict
mode, so a check can trust that `replicas` is an integer, labels are strings and quantities
parse. An object that fails is skipped with a warning; the raw dict is what checks keep.
"""

from __future__ import annotations

import ipaddress
import math
import re
from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from app.checks.quantity import parse_quantity

Int = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
Count = Annotated[int, Field(ge=0, le=2**31 - 1)]


def _quantity(value: str | int | float) -> str | int | float:
    number = parse_quantity(value)  # raises ValueError, which pydantic reports
    if not math.isfinite(number):
        raise ValueError("not a finite quantity")
    return value


def _timestamp(value: str) -> str:
    datetime.fromisoformat(value.replace("Z", "+00:00"))
    return value


def _cidr(value: str) -> str:
    ipaddress.ip_network(value, strict=False)
    return value


_INT_OR_PERCENT = re.compile(r"^(?:\d{1,9}%?)$")


def _int_or_percent(value: int | str) -> int | str:
    if isinstance(value, str) and not _INT_OR_PERCENT.match(value):
        raise ValueError("expected an integer or a percentage such as 50%")
    return value


Quantity = Annotated[
    str | Annotated[int, Field(ge=-(2**63), le=2**63 - 1)] | float, AfterValidator(_quantity)
]
Timestamp = Annotated[str, AfterValidator(_timestamp)]
Cidr = Annotated[str, AfterValidator(_cidr)]
IntOrPercent = Annotated[
    Annotated[int, Field(ge=0, le=2**31 - 1)] | str, AfterValidator(_int_or_percent)
]
Strings = dict[str, str]
Quantities = dict[str, Quantity]


class Model(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")


class OwnerReference(Model):
    kind: str | None = None
    name: str | None = None
    uid: str | None = None
    controller: bool | None = None


class ObjectMeta(Model):
    name: str | None = None
    namespace: str | None = None
    uid: str | None = None
    labels: Strings | None = None
    annotations: Strings | None = None
    ownerReferences: list[OwnerReference] | None = None
    creationTimestamp: Timestamp | None = None


class Requirement(Model):
    key: str | None = None
    operator: str | None = None
    values: list[str] | None = None


class LabelSelector(Model):
    matchLabels: Strings | None = None
    matchExpressions: list[Requirement] | None = None


class Condition(Model):
    type: str | None = None
    status: str | None = None
    reason: str | None = None
    message: str | None = None
    lastTransitionTime: Timestamp | None = None


# --- pods and their templates ---------------------------------------------------------------


class EnvVar(Model):
    name: str | None = None
    value: str | None = None


class Resources(Model):
    requests: Quantities | None = None
    limits: Quantities | None = None


class ExecAction(Model):
    command: list[str] | None = None


class Probe(Model):
    exec: ExecAction | None = None
    initialDelaySeconds: Int | None = None
    periodSeconds: Int | None = None
    timeoutSeconds: Int | None = None
    failureThreshold: Int | None = None


class VolumeMount(Model):
    name: str | None = None
    mountPath: str | None = None


class Container(Model):
    name: str | None = None
    image: str | None = None
    imagePullPolicy: str | None = None
    command: list[str] | None = None
    args: list[str] | None = None
    env: list[EnvVar] | None = None
    ports: list[dict[str, object]] | None = None
    resources: Resources | None = None
    volumeMounts: list[VolumeMount] | None = None
    livenessProbe: Probe | None = None
    readinessProbe: Probe | None = None
    startupProbe: Probe | None = None


class HostPath(Model):
    path: str | None = None


class NfsSource(Model):
    server: str | None = None
    path: str | None = None


class EmptyDir(Model):
    medium: str | None = None


class ClaimSource(Model):
    claimName: str | None = None


class Volume(Model):
    name: str | None = None
    hostPath: HostPath | None = None
    nfs: NfsSource | None = None
    emptyDir: EmptyDir | None = None
    persistentVolumeClaim: ClaimSource | None = None


class NodeSelectorTerm(Model):
    matchExpressions: list[Requirement] | None = None
    matchFields: list[Requirement] | None = None


class NodeSelector(Model):
    nodeSelectorTerms: list[NodeSelectorTerm] | None = None


class NodeAffinity(Model):
    requiredDuringSchedulingIgnoredDuringExecution: NodeSelector | None = None


class PodAffinityTerm(Model):
    labelSelector: LabelSelector | None = None
    topologyKey: str | None = None
    namespaces: list[str] | None = None
    namespaceSelector: LabelSelector | None = None


class WeightedTerm(Model):
    weight: Int | None = None
    podAffinityTerm: PodAffinityTerm | None = None


class PodAntiAffinity(Model):
    requiredDuringSchedulingIgnoredDuringExecution: list[PodAffinityTerm] | None = None
    preferredDuringSchedulingIgnoredDuringExecution: list[WeightedTerm] | None = None


class Affinity(Model):
    nodeAffinity: NodeAffinity | None = None
    podAntiAffinity: PodAntiAffinity | None = None


class Toleration(Model):
    key: str | None = None
    operator: str | None = None
    value: str | None = None
    effect: str | None = None


class SpreadConstraint(Model):
    maxSkew: Int | None = None
    topologyKey: str | None = None
    whenUnsatisfiable: str | None = None
    labelSelector: LabelSelector | None = None


class DnsOption(Model):
    name: str | None = None
    value: str | None = None


class DnsConfig(Model):
    options: list[DnsOption] | None = None


class PodSpec(Model):
    containers: list[Container] | None = None
    initContainers: list[Container] | None = None
    volumes: list[Volume] | None = None
    nodeName: str | None = None
    nodeSelector: Strings | None = None
    affinity: Affinity | None = None
    tolerations: list[Toleration] | None = None
    topologySpreadConstraints: list[SpreadConstraint] | None = None
    priority: Int | None = None
    priorityClassName: str | None = None
    preemptionPolicy: str | None = None
    hostNetwork: bool | None = None
    dnsPolicy: str | None = None
    dnsConfig: DnsConfig | None = None
    serviceAccountName: str | None = None
    serviceAccount: str | None = None
    automountServiceAccountToken: bool | None = None
    restartPolicy: str | None = None
    overhead: Quantities | None = None


class TemplateMeta(Model):
    labels: Strings | None = None


class PodTemplate(Model):
    metadata: TemplateMeta | None = None
    spec: PodSpec | None = None


class ContainerState(Model):
    waiting: Condition | None = None
    terminated: dict[str, object] | None = None


class ContainerStatus(Model):
    name: str | None = None
    ready: bool | None = None
    restartCount: Count | None = None
    state: ContainerState | None = None
    lastState: ContainerState | None = None


class PodStatus(Model):
    phase: str | None = None
    qosClass: str | None = None
    reason: str | None = None
    message: str | None = None
    conditions: list[Condition] | None = None
    containerStatuses: list[ContainerStatus] | None = None
    initContainerStatuses: list[ContainerStatus] | None = None


class Pod(Model):
    metadata: ObjectMeta | None = None
    spec: PodSpec | None = None
    status: PodStatus | None = None


# --- workloads ------------------------------------------------------------------------------


class WorkloadSpec(Model):
    replicas: Count | None = None
    selector: LabelSelector | None = None
    template: PodTemplate | None = None


class WorkloadStatus(Model):
    replicas: Count | None = None
    readyReplicas: Count | None = None
    availableReplicas: Count | None = None
    unavailableReplicas: Count | None = None
    updatedReplicas: Count | None = None
    conditions: list[Condition] | None = None
    desiredNumberScheduled: Count | None = None
    currentNumberScheduled: Count | None = None
    numberReady: Count | None = None
    numberAvailable: Count | None = None
    numberUnavailable: Count | None = None


class Workload(Model):
    metadata: ObjectMeta | None = None
    spec: WorkloadSpec | None = None
    status: WorkloadStatus | None = None


class JobSpec(Model):
    backoffLimit: Count | None = None
    activeDeadlineSeconds: Int | None = None
    ttlSecondsAfterFinished: Int | None = None
    parallelism: Count | None = None
    completions: Count | None = None
    template: PodTemplate | None = None


class JobStatus(Model):
    failed: Count | None = None
    succeeded: Count | None = None
    active: Count | None = None
    conditions: list[Condition] | None = None


class Job(Model):
    metadata: ObjectMeta | None = None
    spec: JobSpec | None = None
    status: JobStatus | None = None


class JobTemplate(Model):
    metadata: TemplateMeta | None = None
    spec: JobSpec | None = None


class CronJobSpec(Model):
    schedule: str | None = None
    timeZone: str | None = None
    concurrencyPolicy: str | None = None
    suspend: bool | None = None
    startingDeadlineSeconds: Int | None = None
    jobTemplate: JobTemplate | None = None


class CronJob(Model):
    metadata: ObjectMeta | None = None
    spec: CronJobSpec | None = None


# --- nodes, storage, policy -----------------------------------------------------------------


class Taint(Model):
    key: str | None = None
    value: str | None = None
    effect: str | None = None


class NodeSpec(Model):
    unschedulable: bool | None = None
    taints: list[Taint] | None = None
    podCIDR: Cidr | None = None
    podCIDRs: list[Cidr] | None = None


class NodeInfo(Model):
    kernelVersion: str | None = None
    osImage: str | None = None


class NodeStatus(Model):
    capacity: Quantities | None = None
    allocatable: Quantities | None = None
    conditions: list[Condition] | None = None
    nodeInfo: NodeInfo | None = None


class Node(Model):
    metadata: ObjectMeta | None = None
    spec: NodeSpec | None = None
    status: NodeStatus | None = None


class ClaimSpec(Model):
    volumeName: str | None = None
    storageClassName: str | None = None
    accessModes: list[str] | None = None


class Claim(Model):
    metadata: ObjectMeta | None = None
    spec: ClaimSpec | None = None


class CsiSource(Model):
    driver: str | None = None


class VolumeSpec(Model):
    nfs: NfsSource | None = None
    csi: CsiSource | None = None
    local: dict[str, object] | None = None
    hostPath: HostPath | None = None
    mountOptions: list[str] | None = None


class PersistentVolume(Model):
    metadata: ObjectMeta | None = None
    spec: VolumeSpec | None = None


class StorageClass(Model):
    metadata: ObjectMeta | None = None
    provisioner: str | None = None
    mountOptions: list[str] | None = None


class QuotaSpec(Model):
    hard: Quantities | None = None


class Quota(Model):
    metadata: ObjectMeta | None = None
    spec: QuotaSpec | None = None


class LimitItem(Model):
    type: str | None = None
    default: Quantities | None = None
    defaultRequest: Quantities | None = None


class LimitSpec(Model):
    limits: list[LimitItem] | None = None


class LimitRange(Model):
    metadata: ObjectMeta | None = None
    spec: LimitSpec | None = None


class ConfigMap(Model):
    metadata: ObjectMeta | None = None
    data: Strings | None = None


class BudgetSpec(Model):
    minAvailable: IntOrPercent | None = None
    maxUnavailable: IntOrPercent | None = None
    selector: LabelSelector | None = None


class BudgetStatus(Model):
    currentHealthy: Count | None = None
    desiredHealthy: Count | None = None
    disruptionsAllowed: Count | None = None
    expectedPods: Count | None = None


class Budget(Model):
    metadata: ObjectMeta | None = None
    spec: BudgetSpec | None = None
    status: BudgetStatus | None = None


class ScaleTarget(Model):
    apiVersion: str | None = None
    kind: str | None = None
    name: str | None = None


class AutoscalerSpec(Model):
    scaleTargetRef: ScaleTarget | None = None
    minReplicas: Count | None = None
    maxReplicas: Count | None = None


class Autoscaler(Model):
    metadata: ObjectMeta | None = None
    spec: AutoscalerSpec | None = None


class WebhookRule(Model):
    resources: list[str] | None = None


class Webhook(Model):
    name: str | None = None
    failurePolicy: str | None = None
    timeoutSeconds: Int | None = None
    namespaceSelector: LabelSelector | None = None
    rules: list[WebhookRule] | None = None


class WebhookConfiguration(Model):
    metadata: ObjectMeta | None = None
    webhooks: list[Webhook] | None = None


class ServiceSpec(Model):
    selector: Strings | None = None
    type: str | None = None


class Service(Model):
    metadata: ObjectMeta | None = None
    spec: ServiceSpec | None = None


class Other(Model):
    metadata: ObjectMeta | None = None


MODELS: dict[str, type[Model]] = {
    "Pod": Pod,
    "Node": Node,
    "Deployment": Workload,
    "StatefulSet": Workload,
    "DaemonSet": Workload,
    "ReplicaSet": Workload,
    "Job": Job,
    "CronJob": CronJob,
    "PersistentVolumeClaim": Claim,
    "PersistentVolume": PersistentVolume,
    "StorageClass": StorageClass,
    "ResourceQuota": Quota,
    "LimitRange": LimitRange,
    "ConfigMap": ConfigMap,
    "PodDisruptionBudget": Budget,
    "HorizontalPodAutoscaler": Autoscaler,
    "ValidatingWebhookConfiguration": WebhookConfiguration,
    "MutatingWebhookConfiguration": WebhookConfiguration,
    "Service": Service,
}


def problem(kind: str, item: dict[str, object]) -> str | None:
    """None when the object has the shape the checks rely on, else the first bad field."""
    model = MODELS.get(kind, Other)
    try:
        model.model_validate(item)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(step) for step in first["loc"] if not _is_type_tag(step))
        return f"{where or '(object)'}: {first['msg']}"
    except (RecursionError, ValueError, TypeError, OverflowError) as error:
        return f"(object): {type(error).__name__}"
    return None


def _is_type_tag(step: object) -> bool:
    """pydantic puts the member type of a union in the location (`str`, `int`, `function-after`)."""
    return isinstance(step, str) and (
        step in ("str", "int", "float", "bool") or "[" in step or step.startswith("function-")
    )
