#!/usr/bin/env python3
"""Measure how often `check` agrees with the labelled test fixtures of kube-score, Polaris and
Kubescape's regolibrary.

Neither project's files are copied here: point this script at a checkout or a bare clone
(for example the one `git clone --bare https://github.com/zegl/kube-score` makes) and it reads
the fixtures and their labels from there.

    .venv/bin/python scripts/measure_checker_agreement.py \\
        --kube-score ../kube-score.git --polaris ../polaris.git \\
        --kubescape ../regolibrary.git [--verbose]

Labels. kube-score: each `testExpectedScore(t, "<file>", "<check>", <grade>)` in score/*_test.go
(default configuration only); CRITICAL and WARNING mean "gap", OK and 0 (not applicable) mean
"no gap". Polaris: test/checks/<check>/<file>.yaml, "gap" when the file name says failure
(mutated.* files are its auto-fix outputs and are left out). Kubescape: rules/<rule>/test/<case>/,
"gap" when its expected.json lists an alert.

Scope. A case is in scope when the foreign check maps to one of ours (MAPPINGS) and our check
could be evaluated on the file. A case is out of scope when one of our patterns deliberately
differs (RULES): each rule names the check whose `other_checkers` in data/patterns.yaml records
the difference (verdict `differs`), and a rule with no such record is not honoured: its cases
stay in scope. A rule looks at the content of the fixture, never at its label. Out-of-scope
cases are counted and listed, not hidden.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.checks import run_checks  # noqa: E402
from app.checks.documents import SnapshotError, parse_documents  # noqa: E402
from app.checks.kube import PLATFORM_APPS, PLATFORM_NAMESPACES  # noqa: E402
from app.checks.patterns import Pattern, library_data, load_grounding, load_patterns  # noqa: E402
from app.checks.report import Report  # noqa: E402
from app.checks.snapshot import load_snapshot  # noqa: E402

Obj = dict[str, Any]

# --- reading a fetched repository ----------------------------------------------------------


class Repo:
    """Files of a checkout, or of a bare git directory (read with `git show HEAD:<path>`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.bare = not (path / ".git").exists() and (path / "HEAD").is_file()

    def files(self, prefix: str) -> list[str]:
        if self.bare:
            out = self._git("ls-tree", "-r", "--name-only", "HEAD", "--", prefix)
            return sorted(out.splitlines())
        root = self.path / prefix
        return sorted(str(p.relative_to(self.path)) for p in root.rglob("*") if p.is_file())

    def read(self, name: str) -> str:
        if self.bare:
            return self._git("show", f"HEAD:{name}")
        return (self.path / name).read_text(encoding="utf-8")

    def commit(self) -> str:
        if self.bare:
            return self._git("rev-parse", "HEAD").strip()
        try:
            return subprocess.run(
                ["git", "-C", str(self.path), "rev-parse", "HEAD"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "(not a git checkout)"

    def _git(self, *args: str) -> str:
        return subprocess.run(
            ["git", f"--git-dir={self.path}", *args], check=True, capture_output=True, text=True
        ).stdout


# --- labelled cases --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    checker: str
    theirs: str  # their check, as its users name it (kube-score check ID, Polaris check)
    file: str  # path inside their repository
    gap: bool  # their label


_KS_CALL = re.compile(
    r'testExpectedScore\(t,\s*("[^"]*"(?:\s*\+\s*\w+\s*\+\s*"[^"]*")?),\s*"([^"]+)",\s*'
    r"(scorecard\.Grade\w+|0)\)"
)
_KS_LOOP = re.compile(r"range \[\]string\{([^}]*)\}")
_KS_GAP = {"scorecard.GradeCritical": True, "scorecard.GradeWarning": True}


def kube_score_id(name: str) -> str:
    """kube-score's check ID, as in --ignore-test: "Pod Probes" -> "pod-probes"."""
    return name.lower().replace(" ", "-")


def kube_score_cases(repo: Repo) -> list[Case]:
    cases = []
    for test in repo.files("score"):
        if not re.fullmatch(r"score/[a-z_]+_test\.go", test):
            continue
        source = repo.read(test)
        for match in _KS_CALL.finditer(source):
            file_expr, name, grade = match.groups()
            for file in _expand(file_expr, source[: match.start()]):
                gap = _KS_GAP.get(grade, False)
                cases.append(Case("kube-score", kube_score_id(name), f"score/testdata/{file}", gap))
    return cases


def _expand(expression: str, before: str) -> list[str]:
    """ "a" -> [a]; "cronjob-"+v+"-x.yaml" inside `for _, v := range []string{...}` -> each."""
    parts = [p.strip() for p in expression.split("+")]
    if len(parts) == 1:
        return [parts[0].strip('"')]
    loops = _KS_LOOP.findall(before)
    values = re.findall(r'"([^"]*)"', loops[-1]) if loops else []
    head, tail = parts[0].strip('"'), parts[2].strip('"')
    return [f"{head}{value}{tail}" for value in values]


def polaris_cases(repo: Repo) -> list[Case]:
    cases = []
    for path in repo.files("test/checks"):
        parts = path.split("/")
        if len(parts) != 4 or not path.endswith((".yaml", ".yml")):
            continue
        check, file = parts[2], parts[3]
        if file == "check.yaml" or "mutated" in file or check.startswith("_"):
            continue
        cases.append(Case("Polaris", check, path, "failure" in file))
    return cases


def kubescape_cases(repo: Repo) -> list[Case]:
    """Kubescape regolibrary: rules/<rule>/test/<case>/ holds the input manifests and
    expected.json, the alerts the rule raises on them ([] = no gap). Cases with a data.json
    (thresholds set by configuration) are left out: their label depends on that setting."""
    found: dict[str, set[str]] = {}
    for path in repo.files("rules"):
        parts = path.split("/")
        if len(parts) >= 5 and parts[2] == "test":
            found.setdefault("/".join(parts[:4]), set()).add("/".join(parts[4:]))
    cases = []
    for directory, names in sorted(found.items()):
        if "expected.json" not in names or "data.json" in names:
            continue
        try:
            expected = json.loads(repo.read(f"{directory}/expected.json") or "[]")
        except json.JSONDecodeError:
            continue
        rule = directory.split("/")[1]
        cases.append(Case("Kubescape", rule, directory, bool(expected)))
    return cases


def read_case(repo: Repo, case: Case) -> str:
    """A fixture's manifests as one YAML stream (a Kubescape case is a directory of them)."""
    if case.checker != "Kubescape":
        return repo.read(case.file)
    manifests = [
        name
        for name in repo.files(case.file)
        if name.endswith((".yaml", ".yml", ".json"))
        and not name.endswith(("/expected.json", "/data.json"))
    ]
    return "\n---\n".join(repo.read(name) for name in manifests)


# --- what the fixtures hold ------------------------------------------------------------------


def documents(text: str) -> list[Obj]:
    try:
        return [d for d in parse_documents(text) if isinstance(d, dict)]
    except SnapshotError:
        return []


def pod_spec(obj: Obj) -> Obj:
    spec = obj.get("spec") or {}
    if obj.get("kind") == "Pod":
        return spec
    if obj.get("kind") == "CronJob":
        spec = (spec.get("jobTemplate") or {}).get("spec") or {}
    return (spec.get("template") or {}).get("spec") or {}


POD_KINDS = ("Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob")


def subjects(docs: list[Obj], kinds: tuple[str, ...] = POD_KINDS) -> list[Obj]:
    return [d for d in docs if d.get("kind") in kinds]


def replicas(obj: Obj) -> int | None:
    value = (obj.get("spec") or {}).get("replicas")
    return value if isinstance(value, int) else None


def containers(obj: Obj) -> list[Obj]:
    return [c for c in pod_spec(obj).get("containers") or [] if isinstance(c, dict)]


def resources(container: Obj, section: str) -> Obj:
    return (container.get("resources") or {}).get(section) or {}


def is_platform(obj: Obj) -> bool:
    metadata = obj.get("metadata") or {}
    labels = metadata.get("labels") or {}
    names = {labels.get("app"), labels.get("app.kubernetes.io/name"), labels.get("k8s-app")}
    return metadata.get("namespace") in PLATFORM_NAMESPACES or bool(names & PLATFORM_APPS)


# --- our checks, theirs, and where we deliberately differ ------------------------------------


@dataclass(frozen=True)
class Mapping:
    checker: str
    theirs: tuple[str, ...]
    ours: tuple[str, ...]  # "pattern/check-id"; a gap when any of them finds one


MAPPINGS: tuple[Mapping, ...] = (
    Mapping("kube-score", ("pod-probes",), ("probes-misconfigured/readiness-probe-missing",)),
    Mapping(
        "kube-score",
        ("pod-probes-identical",),
        ("probes-misconfigured/liveness-same-as-readiness",),
    ),
    Mapping("kube-score", ("container-resources",), ("node-overcommit/memory-limits-missing",)),
    Mapping(
        "kube-score",
        ("deployment-has-host-podantiaffinity", "statefulset-has-host-podantiaffinity"),
        ("replicas-colocated/no-spread-policy",),
    ),
    Mapping(
        "kube-score",
        ("deployment-has-poddisruptionbudget", "statefulset-has-poddisruptionbudget"),
        ("replicas-colocated/pdb-missing",),
    ),
    Mapping(
        "kube-score",
        ("deployment-targeted-by-hpa-does-not-have-replicas-configured",),
        ("autoscaler-misconfigured/replicas-beside-hpa",),
    ),
    Mapping(
        "kube-score",
        ("horizontalpodautoscaler-has-target",),
        ("autoscaler-misconfigured/hpa-target-missing",),
    ),
    Mapping(
        "kube-score",
        ("cronjob-has-deadline",),
        ("runaway-job-retries/cronjob-no-starting-deadline",),
    ),
    Mapping(
        "kube-score",
        ("container-image-tag", "container-image-pull-policy"),
        ("recovery-depends-on-failed-layer/pull-on-restart",),
    ),
    Mapping(
        "kube-score",
        ("service-targets-pod",),
        ("service-without-ready-endpoints/service-ready-endpoints",),
    ),
    Mapping(
        "Polaris",
        ("cpuRequestsMissing",),
        (
            "replicas-colocated/cpu-requests-missing",
            "platform-pods-unprotected/critical-without-requests",
        ),
    ),
    Mapping("Polaris", ("memoryLimitsMissing",), ("node-overcommit/memory-limits-missing",)),
    Mapping(
        "Polaris", ("readinessProbeMissing",), ("probes-misconfigured/readiness-probe-missing",)
    ),
    Mapping("Polaris", ("missingPodDisruptionBudget",), ("replicas-colocated/pdb-missing",)),
    Mapping(
        "Polaris",
        ("pdbDisruptionsIsZero", "pdbMinAvailableGreaterThanHPAMinReplicas"),
        ("disruption-budget-blocks-drain/pdb-spec-blocks-drain",),
    ),
    Mapping("Polaris", ("topologySpreadConstraint",), ("replicas-colocated/no-spread-policy",)),
    Mapping(
        "Polaris",
        ("deploymentMissingReplicas",),
        ("platform-pods-unprotected/single-replica-platform",),
    ),
    Mapping(
        "Polaris",
        ("pullPolicyNotAlways", "tagNotSpecified"),
        ("recovery-depends-on-failed-layer/pull-on-restart",),
    ),
    Mapping(
        "Kubescape",
        ("configured-readiness-probe",),
        ("probes-misconfigured/readiness-probe-missing",),
    ),
    Mapping(
        "Kubescape",
        ("resources-memory-limits", "resources-memory-limit-and-request"),
        ("node-overcommit/memory-limits-missing",),
    ),
    Mapping("Kubescape", ("hpa-has-target",), ("autoscaler-misconfigured/hpa-target-missing",)),
    Mapping(
        "Kubescape",
        ("service-with-no-workload",),
        ("service-without-ready-endpoints/service-ready-endpoints",),
    ),
    Mapping(
        "Kubescape",
        ("resources-cpu-requests",),
        (
            "replicas-colocated/cpu-requests-missing",
            "platform-pods-unprotected/critical-without-requests",
        ),
    ),
)


@dataclass(frozen=True)
class Rule:
    """A deliberate difference: cases whose fixture `applies` are out of scope."""

    checker: str
    theirs: tuple[str, ...]
    recorded_in: str  # "pattern/check-id" whose other_checkers records it
    reason: str
    applies: Callable[[list[Obj]], bool]


def _hpa_minimum(docs: list[Obj], workload: Obj) -> int | None:
    """The minReplicas (default 1) of an HPA in the file that targets this workload."""
    for hpa in subjects(docs, ("HorizontalPodAutoscaler",)):
        target = (hpa.get("spec") or {}).get("scaleTargetRef") or {}
        if target.get("kind") == workload.get("kind") and target.get("name") == name(workload):
            minimum = (hpa.get("spec") or {}).get("minReplicas")
            return minimum if isinstance(minimum, int) else 1
    return None


def name(obj: Obj) -> str:
    return str((obj.get("metadata") or {}).get("name") or "")


def _replicas_unset(docs: list[Obj]) -> bool:
    """kube-score judges a workload without spec.replicas as if it had several."""
    workloads = subjects(docs, ("Deployment", "StatefulSet"))
    return bool(workloads) and all(
        replicas(w) is None and _hpa_minimum(docs, w) is None for w in workloads
    )


def _single_replica(docs: list[Obj]) -> bool:
    """Every workload runs one pod: spec.replicas below 2 or unset, and no HPA raises it."""
    workloads = subjects(docs, ("Deployment", "StatefulSet", "Pod"))
    return bool(workloads) and all(
        max(replicas(w) or 1, _hpa_minimum(docs, w) or 1) < 2 for w in workloads
    )


def _not_platform(docs: list[Obj]) -> bool:
    found = subjects(docs)
    return bool(found) and not any(is_platform(d) for d in found)


def _limit_without_request(docs: list[Obj]) -> bool:
    """A container with limits and no requests: Kubernetes copies the limits into requests."""
    return any(
        resources(c, "limits") and not resources(c, "requests")
        for d in subjects(docs)
        for c in containers(d)
    )


def _memory_limit_without_request(docs: list[Obj]) -> bool:
    """A container with a memory limit and no memory request: Kubernetes sets it to the limit."""
    return any(
        "memory" in resources(c, "limits") and "memory" not in resources(c, "requests")
        for d in subjects(docs)
        for c in containers(d)
    )


def _only_cpu_limit_missing(docs: list[Obj]) -> bool:
    every = [c for d in subjects(docs) for c in containers(d)]
    return bool(every) and all(
        "memory" in resources(c, "limits") and "cpu" not in resources(c, "limits") for c in every
    )


def _no_service(docs: list[Obj]) -> bool:
    return not any(d.get("kind") == "Service" for d in docs)


def _pdb_beyond_hpa_only(docs: list[Obj]) -> bool:
    """Polaris compares an integer minAvailable only with an explicit HPA minReplicas it
    exceeds; true when the file has one of the budgets it passes and we do not: no HPA on the
    workload, an HPA without minReplicas, or minAvailable equal to it."""
    for pdb in subjects(docs, ("PodDisruptionBudget",)):
        wanted = (pdb.get("spec") or {}).get("minAvailable")
        if not isinstance(wanted, int):
            continue
        for workload in subjects(docs, ("Deployment",)):
            hpas = [
                h
                for h in subjects(docs, ("HorizontalPodAutoscaler",))
                if ((h.get("spec") or {}).get("scaleTargetRef") or {}).get("name") == name(workload)
            ]
            if not hpas:
                return True
            minimum = (hpas[0].get("spec") or {}).get("minReplicas")
            if not isinstance(minimum, int) or minimum == wanted:
                return True
    return False


def _probe_on_some_containers(docs: list[Obj]) -> bool:
    """kube-score's pod-probes passes a pod when one of its containers has a readiness probe;
    true when a pod in the file has one container with it and another without."""
    for item in subjects(docs):
        probed = [c.get("readinessProbe") is not None for c in containers(item)]
        if any(probed) and not all(probed):
            return True
    return False


def _always(docs: list[Obj]) -> bool:
    return True


RULES: tuple[Rule, ...] = (
    Rule(
        "Polaris",
        ("readinessProbeMissing",),
        "probes-misconfigured/readiness-probe-missing",
        "a readiness probe is asked for only on pods a Service sends traffic to",
        _no_service,
    ),
    Rule(
        "kube-score",
        ("pod-probes",),
        "probes-misconfigured/readiness-probe-missing",
        "a readiness probe is asked of every container, not of one per pod",
        _probe_on_some_containers,
    ),
    Rule(
        "Polaris",
        ("cpuRequestsMissing",),
        "replicas-colocated/cpu-requests-missing",
        "a missing CPU request is a gap on replicated workloads and platform pods",
        lambda docs: _single_replica(docs) and _not_platform(docs),
    ),
    Rule(
        "kube-score",
        ("deployment-has-poddisruptionbudget", "statefulset-has-poddisruptionbudget"),
        "replicas-colocated/pdb-missing",
        "replicas not set: we count 1, as Kubernetes does; kube-score assumes several",
        _replicas_unset,
    ),
    Rule(
        "kube-score",
        ("deployment-has-host-podantiaffinity", "statefulset-has-host-podantiaffinity"),
        "replicas-colocated/no-spread-policy",
        "replicas not set: we count 1, as Kubernetes does; kube-score assumes several",
        _replicas_unset,
    ),
    Rule(
        "Polaris",
        ("missingPodDisruptionBudget",),
        "replicas-colocated/pdb-missing",
        "a single replica: a PodDisruptionBudget is asked of 2 or more",
        _single_replica,
    ),
    Rule(
        "Polaris",
        ("topologySpreadConstraint",),
        "replicas-colocated/no-spread-policy",
        "a single replica: a spread rule is asked of 2 or more",
        _single_replica,
    ),
    Rule(
        "Polaris",
        ("pdbMinAvailableGreaterThanHPAMinReplicas",),
        "disruption-budget-blocks-drain/pdb-spec-blocks-drain",
        "minAvailable against replicas, a default minReplicas, or equal to it: Polaris passes it",
        _pdb_beyond_hpa_only,
    ),
    Rule(
        "kube-score",
        ("container-resources",),
        "node-overcommit/memory-limits-missing",
        "a request left out beside a limit is not a gap: Kubernetes sets it to the limit",
        _limit_without_request,
    ),
    Rule(
        "kube-score",
        ("container-resources",),
        "node-overcommit/memory-limits-missing",
        "CPU limits are not asked for (they throttle serving pods)",
        _only_cpu_limit_missing,
    ),
    Rule(
        "kube-score",
        ("container-image-pull-policy",),
        "recovery-depends-on-failed-layer/pull-on-restart",
        "imagePullPolicy Always is the gap here, not the recommendation",
        _always,
    ),
    Rule(
        "Polaris",
        ("pullPolicyNotAlways",),
        "recovery-depends-on-failed-layer/pull-on-restart",
        "imagePullPolicy Always is the gap here, not the recommendation",
        _always,
    ),
    Rule(
        "kube-score",
        ("container-image-tag",),
        "recovery-depends-on-failed-layer/pull-on-restart",
        "image tags are judged on platform pods only",
        _not_platform,
    ),
    Rule(
        "Polaris",
        ("tagNotSpecified",),
        "recovery-depends-on-failed-layer/pull-on-restart",
        "image tags are judged on platform pods only",
        _not_platform,
    ),
    Rule(
        "Kubescape",
        ("configured-readiness-probe",),
        "probes-misconfigured/readiness-probe-missing",
        "a readiness probe is asked for only on pods a Service sends traffic to",
        _no_service,
    ),
    Rule(
        "Kubescape",
        ("resources-cpu-requests",),
        "replicas-colocated/cpu-requests-missing",
        "a missing CPU request is a gap on replicated workloads and platform pods",
        lambda docs: _single_replica(docs) and _not_platform(docs),
    ),
    Rule(
        "Kubescape",
        ("resources-memory-limit-and-request",),
        "node-overcommit/memory-limits-missing",
        "a memory request left out beside a limit is not a gap: Kubernetes sets it to the limit",
        _memory_limit_without_request,
    ),
    Rule(
        "Polaris",
        ("deploymentMissingReplicas",),
        "platform-pods-unprotected/single-replica-platform",
        "a single replica is a gap for platform components only",
        _not_platform,
    ),
)


def recorded(patterns: list[Pattern], rule: Rule) -> bool:
    """Whether the pattern's other_checkers records this difference (verdict differs)."""
    slug, check_id = rule.recorded_in.split("/")
    for pattern in patterns:
        found = pattern.check(check_id) if pattern.slug == slug else None
        if found is None:
            continue
        return any(
            entry.checker == rule.checker
            and set(entry.checks) & set(rule.theirs)
            and entry.verdict == "differs"
            for entry in found.other_checkers
        )
    return False


# --- judging ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    case: Case
    ours: tuple[str, ...]
    # "agree" or "disagree" (in scope), "differs" (a recorded deliberate difference) or
    # "not evaluable" (our check could not judge the file): the last two are out of scope.
    verdict: str
    our_gap: bool | None  # None when our check could not judge the file
    note: str

    @property
    def in_scope(self) -> bool:
        return self.verdict in ("agree", "disagree")


class Judge:
    def __init__(self, repos: dict[str, Repo]) -> None:
        data = library_data()
        self.patterns = load_patterns(data)
        self.grounding = load_grounding(data)
        self.repos = repos
        self.reports: dict[tuple[str, str], Report | str] = {}
        self.rules = {rule: recorded(self.patterns, rule) for rule in RULES}

    def report(self, case: Case) -> tuple[Report | str, list[Obj]]:
        text = read_case(self.repos[case.checker], case)
        key = (case.checker, case.file)
        if key not in self.reports:
            try:
                snapshot = load_snapshot(text, case.file)
                self.reports[key] = run_checks(snapshot, self.patterns, self.grounding)
            except SnapshotError as error:
                self.reports[key] = str(error)
        return self.reports[key], documents(text)

    def judge(self, case: Case) -> Outcome | None:
        mapping = next(
            (m for m in MAPPINGS if m.checker == case.checker and case.theirs in m.theirs), None
        )
        if mapping is None:
            return None
        report, docs = self.report(case)
        our_gap, note = self.our_answer(report, mapping)
        for rule, is_recorded in self.rules.items():
            if rule.checker == case.checker and case.theirs in rule.theirs and rule.applies(docs):
                if is_recorded:
                    return Outcome(case, mapping.ours, "differs", our_gap, rule.reason)
        if our_gap is None:
            return Outcome(case, mapping.ours, "not evaluable", None, note)
        verdict = "agree" if our_gap == case.gap else "disagree"
        return Outcome(case, mapping.ours, verdict, our_gap, note)

    @staticmethod
    def our_answer(report: Report | str, mapping: Mapping) -> tuple[bool | None, str]:
        """Whether our mapped checks found a gap (None: none could judge), and why."""
        if isinstance(report, str):
            return None, f"input refused: {report}"
        keys = {tuple(k.split("/")) for k in mapping.ours}
        if not {(e.pattern, e.check) for e in report.evaluated} & keys:
            reasons = {n.reason.en for n in report.not_evaluable if (n.pattern, n.check) in keys}
            return None, "; ".join(sorted(reasons))
        found = [
            f for f in report.findings if (f.pattern, f.check) in keys and f.severity != "info"
        ]
        return bool(found), found[0].why.en if found else ""


# --- output ----------------------------------------------------------------------------------


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def answer(gap: bool | None) -> str:
    return {True: "gap", False: "no gap", None: "-"}[gap]


def summarize(outcomes: list[Outcome], verbose: bool) -> None:
    rows: dict[tuple[str, str], list[Outcome]] = {}
    for outcome in outcomes:
        rows.setdefault((outcome.case.checker, outcome.case.theirs), []).append(outcome)
    print(f"{'checker':<11} {'their check':<62} cases  scope  agree")
    for (checker, theirs), mine in sorted(rows.items()):
        scope = sum(o.in_scope for o in mine)
        agree = sum(o.verdict == "agree" for o in mine)
        print(
            f"{checker:<11} {theirs:<62} {len(mine):>5} {scope:>6} {agree:>6}"
            f"  {percent(agree, scope)}"
        )
    print()
    for checker in [*sorted({o.case.checker for o in outcomes}), "overall"]:
        mine = [o for o in outcomes if checker in ("overall", o.case.checker)]
        agree = sum(o.verdict == "agree" for o in mine)
        scope = sum(o.in_scope for o in mine)
        print(
            f"{checker}: {agree} of {scope} in-scope cases agree ({percent(agree, scope)}); "
            f"out of scope: {sum(o.verdict == 'differs' for o in mine)} deliberate differences, "
            f"{sum(o.verdict == 'not evaluable' for o in mine)} not evaluable"
        )
    judged = [o for o in outcomes if o.our_gap is not None]
    same = sum(o.our_gap == o.case.gap for o in judged)
    print(
        f"every case our checks could judge, deliberate differences included: {same} of "
        f"{len(judged)} agree ({percent(same, len(judged))})"
    )
    print("\nout of scope:")
    for (verdict, note), count in Counter(
        (o.verdict, o.note) for o in outcomes if not o.in_scope
    ).most_common():
        print(f"  {count:>3}  {verdict}: {note}")
    disagreements = [o for o in outcomes if o.verdict == "disagree"]
    print(f"\ndisagreements in scope: {len(disagreements)}")
    for o in disagreements:
        print(
            f"  {o.case.checker} {o.case.theirs} {o.case.file}: they {answer(o.case.gap)}, "
            f"we {answer(o.our_gap)}"
        )
        if o.note:
            print(f"      {o.note}")
    if verbose:
        print("\nevery case (their answer, ours):")
        for o in outcomes:
            print(
                f"  {o.verdict:<13} {o.case.checker} {o.case.theirs} {o.case.file} "
                f"({answer(o.case.gap)}, {answer(o.our_gap)})"
            )
            if not o.in_scope:
                print(f"      {o.note}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kube-score", type=Path, help="checkout or bare clone of kube-score")
    parser.add_argument("--polaris", type=Path, help="checkout or bare clone of Polaris")
    parser.add_argument("--kubescape", type=Path, help="checkout or bare clone of regolibrary")
    parser.add_argument("--verbose", action="store_true", help="list every case")
    args = parser.parse_args(argv)
    repos: dict[str, Repo] = {}
    cases: list[Case] = []
    if args.kube_score:
        repos["kube-score"] = Repo(args.kube_score)
        cases += kube_score_cases(repos["kube-score"])
    if args.polaris:
        repos["Polaris"] = Repo(args.polaris)
        cases += polaris_cases(repos["Polaris"])
    if args.kubescape:
        repos["Kubescape"] = Repo(args.kubescape)
        cases += kubescape_cases(repos["Kubescape"])
    if not repos:
        parser.error("give --kube-score, --polaris and/or --kubescape")
    for name, repo in repos.items():
        print(f"{name}: {repo.path} at {repo.commit()}")
    judge = Judge(repos)
    unrecorded = [rule for rule, ok in judge.rules.items() if not ok]
    for rule in unrecorded:
        print(f"not recorded in {rule.recorded_in} other_checkers, so kept in scope: {rule.reason}")
    outcomes = [o for o in map(judge.judge, cases) if o is not None]
    unmapped = Counter((c.checker, c.theirs) for c in cases) - Counter(
        (o.case.checker, o.case.theirs) for o in outcomes
    )
    print(
        f"{len(cases)} labelled cases, {len(outcomes)} on checks that overlap ours, "
        f"{sum(unmapped.values())} on {len(unmapped)} checks we do not have\n"
    )
    summarize(outcomes, args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
