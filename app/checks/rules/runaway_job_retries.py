"""runaway-job-retries: Jobs and CronJobs that retry or spawn without bound (IL-0036)."""

from __future__ import annotations

from collections import Counter

from app.checks import kube
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "runaway-job-retries"
BACKOFF_LIMIT = 100
SHORT_INTERVAL_MINUTES = 10
FAILED_JOB_PODS, POD_RESTARTS, FAILED_PODS_IN_NAMESPACE = 20, 50, 100
_NAMED = {"@yearly": 525600, "@annually": 525600, "@monthly": 40320, "@weekly": 10080}
_NAMED |= {"@daily": 1440, "@midnight": 1440, "@hourly": 60}


def job_spec(workload: Obj) -> dict[str, object]:
    if workload.get("kind") == "CronJob":
        return kube.dig(workload, "spec", "jobTemplate", "spec") or {}
    return workload.get("spec") or {}


def owned_by_cronjob(job: Obj) -> bool:
    return any(
        reference.get("kind") == "CronJob"
        for reference in kube.meta(job).get("ownerReferences") or []
    )


def interval_minutes(schedule: str) -> int | None:
    """Smallest gap between runs of a cron schedule, judged from its minute and hour fields."""
    schedule = schedule.strip()
    if schedule in _NAMED:
        return _NAMED[schedule]
    fields = schedule.split()
    if schedule.startswith("@every ") or len(fields) < 5:
        return None
    minute, hour = fields[0], fields[1]
    if hour not in ("*",) and not hour.startswith("*/"):
        return 60 if "," in hour or "-" in hour else 1440
    if minute == "*":
        return 1
    if minute.startswith("*/") and minute[2:].isdigit():
        return int(minute[2:])
    if "," in minute and all(part.isdigit() for part in minute.split(",")):
        values = sorted(int(part) for part in minute.split(","))
        return min(b - a for a, b in zip(values, values[1:] + [values[0] + 60], strict=True))
    return 60


@check(PATTERN, "unbounded-retries", requires=("Job", "CronJob"))
def unbounded_retries(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload in kube.workloads(snapshot, "CronJob", "Job"):
        if workload.get("kind") == "Job" and owned_by_cronjob(workload):
            continue  # judged on its CronJob
        spec = job_spec(workload)
        backoff = int(str(spec.get("backoffLimit", 6)))
        policy = kube.pod_spec(workload).get("restartPolicy")
        deadline = spec.get("activeDeadlineSeconds")
        if backoff >= BACKOFF_LIMIT:
            why = Text(
                f"backoffLimit is {backoff}: a failing pod is retried up to {backoff} times.",
                f"backoffLimit({backoff})이 커서 실패하는 파드를 {backoff}번까지 다시 돌린다.",
            )
        elif policy == "OnFailure" and deadline is None:
            why = Text(
                "restartPolicy OnFailure with no activeDeadlineSeconds: a crashing container "
                "restarts in place forever, and backoffLimit may never stop it.",
                "restartPolicy 가 OnFailure 인데 activeDeadlineSeconds 가 없어, 죽는 컨테이너가 "
                "제자리에서 끝없이 다시 뜨고 backoffLimit 으로도 멈추지 않을 수 있다.",
            )
        else:
            continue
        gaps.append(Gap((kube.ref(workload),), why))
    return gaps


@check(PATTERN, "cronjob-overlap", requires=("CronJob",))
def cronjob_overlap(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for cronjob in snapshot.of("CronJob"):
        spec = cronjob.get("spec") or {}
        if spec.get("concurrencyPolicy", "Allow") != "Allow":
            continue
        minutes = interval_minutes(str(spec.get("schedule", "")))
        if minutes is None or minutes > SHORT_INTERVAL_MINUTES:
            continue
        if job_spec(cronjob).get("activeDeadlineSeconds") is not None:
            continue
        gaps.append(
            Gap(
                (kube.ref(cronjob),),
                Text(
                    f"runs every {minutes} min with concurrencyPolicy Allow and no "
                    "activeDeadlineSeconds: slow or stuck runs pile up side by side.",
                    f"{minutes}분마다 도는데 concurrencyPolicy 가 Allow 이고 "
                    "activeDeadlineSeconds 가 없어, 느리거나 멈춘 실행이 겹겹이 쌓인다.",
                ),
            )
        )
    return gaps


@check(PATTERN, "retry-evidence", requires=("Job", "Pod"))
def retry_evidence(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for job in snapshot.of("Job"):
        failed = int(kube.dig(job, "status", "failed") or 0)
        if failed >= FAILED_JOB_PODS:
            gaps.append(
                Gap(
                    (kube.ref(job),),
                    Text(
                        f"{failed} pods of this Job have failed so far.",
                        f"이 Job 의 파드가 지금까지 {failed}개 실패했다.",
                    ),
                )
            )
    failed_pods: Counter[str] = Counter()
    for pod in snapshot.of("Pod"):
        if kube.dig(pod, "status", "phase") == "Failed":
            failed_pods[kube.namespace(pod)] += 1
        owner = kube.owner(pod)
        restarts = sum(
            int(status.get("restartCount") or 0)
            for status in kube.dig(pod, "status", "containerStatuses") or []
        )
        if owner and owner.kind == "Job" and restarts >= POD_RESTARTS:
            gaps.append(
                Gap(
                    (kube.ref(pod), owner),
                    Text(
                        f"a Job pod restarted {restarts} times in place.",
                        f"Job 파드가 제자리에서 {restarts}번 다시 시작했다.",
                    ),
                )
            )
    for namespace, count in sorted(failed_pods.items()):
        if count >= FAILED_PODS_IN_NAMESPACE:
            gaps.append(
                Gap(
                    (ObjectRef("Namespace", "", namespace),),
                    Text(
                        f"{count} Failed pods are kept in this namespace.",
                        f"이 네임스페이스에 Failed 파드가 {count}개 남아 있다.",
                    ),
                )
            )
    return gaps
