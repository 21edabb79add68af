"""runaway-job-retries: Jobs and CronJobs that retry or spawn without bound (IL-0036)."""

from __future__ import annotations

from collections import Counter

from app.checks import kube
from app.checks.cron import shortest_interval
from app.checks.registry import Gap, ObjectRef, Text, check
from app.checks.snapshot import Obj, Snapshot

PATTERN = "runaway-job-retries"
BACKOFF_LIMIT = 100
SHORT_INTERVAL_MINUTES = 10
FAILED_JOB_PODS, POD_RESTARTS, FAILED_PODS_IN_NAMESPACE = 20, 50, 100


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
    """Shortest gap between runs of a cron schedule in whole minutes (None: not valid cron)."""
    interval = shortest_interval(schedule)
    if interval is None:
        return None
    return max(1, int(interval.total_seconds() // 60))


@check(PATTERN, "unbounded-retries", covers=("CronJob", "Job"))
def unbounded_retries(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for workload in kube.workloads(snapshot, "CronJob", "Job"):
        if workload.get("kind") == "Job" and owned_by_cronjob(workload):
            continue  # judged on its CronJob
        spec = job_spec(workload)
        backoff = spec.get("backoffLimit")
        backoff = 6 if backoff is None else int(str(backoff))
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
        minutes = interval_minutes(str(spec.get("schedule") or ""))
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


@check(PATTERN, "retry-evidence", covers=("Job", "Pod"))
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


KEPT_FINISHED = 500


def finished(job: Obj) -> bool:
    return any(
        item.get("type") in ("Complete", "Failed") and item.get("status") == "True"
        for item in kube.dig(job, "status", "conditions") or []
    )


@check(PATTERN, "no-cleanup", covers=("Job", "Pod"))
def no_cleanup(snapshot: Snapshot) -> list[Gap]:
    jobs: Counter[str] = Counter()
    for job in snapshot.of("Job"):
        spec = job.get("spec") or {}
        if owned_by_cronjob(job) or spec.get("ttlSecondsAfterFinished") is not None:
            continue  # CronJobs prune by history limits; a TTL prunes the rest
        if finished(job):
            jobs[kube.namespace(job)] += 1
    pods: Counter[str] = Counter()
    for pod in snapshot.of("Pod"):
        owner = kube.owner(pod)
        if owner and owner.kind == "Job" and kube.is_terminated(pod):
            pods[kube.namespace(pod)] += 1
    gaps = []
    for namespace in sorted(set(jobs) | set(pods)):
        if jobs[namespace] <= KEPT_FINISHED and pods[namespace] <= KEPT_FINISHED:
            continue
        gaps.append(
            Gap(
                (ObjectRef("Namespace", "", namespace),),
                Text(
                    f"{jobs[namespace]} finished Jobs without ttlSecondsAfterFinished and "
                    f"{pods[namespace]} finished Job pods are kept: nothing removes them until "
                    "the cluster-wide terminated-pod GC threshold (12500 pods by default), and "
                    "every list of jobs or pods carries them.",
                    f"ttlSecondsAfterFinished 가 없는 끝난 Job {jobs[namespace]}개와 끝난 Job "
                    f"파드 {pods[namespace]}개가 남아 있다. 클러스터 전체의 종료 파드 GC 기준"
                    "(기본 12500개)에 이를 때까지 아무것도 지우지 않고, Job 이나 파드를 조회할 "
                    "때마다 함께 실려 온다.",
                ),
            )
        )
    return gaps


def _quota_counts_pods(quota: Obj) -> bool:
    hard = kube.dig(quota, "spec", "hard") or {}
    return "count/pods" in hard or "pods" in hard


def _container_defaults(snapshot: Snapshot) -> dict[str, dict[str, object]]:
    """Namespace -> the default limits its LimitRanges give containers."""
    defaults: dict[str, dict[str, object]] = {}
    for limit_range in snapshot.of("LimitRange"):
        for item in kube.dig(limit_range, "spec", "limits") or []:
            if item.get("type") == "Container":
                defaults.setdefault(kube.namespace(limit_range), {}).update(
                    item.get("default") or {}
                )
    return defaults


@check(
    PATTERN,
    "job-pods-unbounded",
    requires=("ResourceQuota", "LimitRange"),
    covers=("CronJob", "Job"),
)
def job_pods_unbounded(snapshot: Snapshot) -> list[Gap]:
    counted = {kube.namespace(q) for q in snapshot.of("ResourceQuota") if _quota_counts_pods(q)}
    defaults = _container_defaults(snapshot)
    gaps = []
    for workload in kube.workloads(snapshot, "CronJob", "Job"):
        namespace = kube.namespace(workload)
        if namespace in counted or (workload.get("kind") == "Job" and owned_by_cronjob(workload)):
            continue
        missing = sorted(
            {
                key
                for container in kube.all_containers(kube.pod_spec(workload))
                for key in ("memory", "ephemeral-storage")
                if kube.resource(container, "limits", key) is None
                and key not in defaults.get(namespace, {})
            }
        )
        if not missing:
            continue
        listed = " and ".join(f"{key} limit" for key in missing)
        listed_ko = "와 ".join(
            "메모리 한도" if key == "memory" else "ephemeral-storage 한도" for key in missing
        )
        fills = " and ".join("memory" if key == "memory" else "disk" for key in missing)
        fills_ko = "와 ".join("메모리" if key == "memory" else "디스크" for key in missing)
        gaps.append(
            Gap(
                (kube.ref(workload),),
                Text(
                    f"its pods have no {listed} (none set, no LimitRange default) and namespace "
                    f"{namespace} has no count/pods quota: a runaway or retrying job can fill "
                    f"node {fills} with as many pods as it likes, and nodes die one by one.",
                    f"파드에 {listed_ko}가 없고(직접 정하지도, LimitRange 기본값도 없다) "
                    f"네임스페이스 {namespace} 에 count/pods 쿼터도 없다. 폭주하거나 재시도하는 "
                    f"Job 이 파드를 얼마든지 띄워 노드의 {fills_ko}를 채우고, 노드가 차례로 "
                    "죽는다.",
                ),
            )
        )
    return gaps


@check(PATTERN, "cronjob-no-starting-deadline", covers=("CronJob",))
def cronjob_no_starting_deadline(snapshot: Snapshot) -> list[Gap]:
    gaps = []
    for cronjob in snapshot.of("CronJob"):
        spec = cronjob.get("spec") or {}
        if spec.get("suspend") or spec.get("startingDeadlineSeconds") is not None:
            continue
        gaps.append(
            Gap(
                (kube.ref(cronjob),),
                Text(
                    "no startingDeadlineSeconds: after the controller or the control plane has "
                    "been down, missed runs are counted since the last run; past 100 missed "
                    "schedules the CronJob is not started again until someone intervenes.",
                    "startingDeadlineSeconds 가 없다. 컨트롤러나 컨트롤 플레인이 멈췄다 돌아오면 "
                    "마지막 실행 이후 놓친 실행을 세고, 놓친 일정이 100번을 넘으면 누군가 손대기 "
                    "전까지 이 CronJob 을 다시 시작하지 않는다.",
                ),
            )
        )
    return gaps
