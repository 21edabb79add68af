"""Run the registered checks over a snapshot and collect findings into a Report."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.checks.patterns import SEVERITIES, Grounding, Localized, Pattern
from app.checks.registry import CHECKS, Gap, NotEvaluable, ObjectRef, RegisteredCheck, Text
from app.checks.snapshot import Snapshot


@dataclass(frozen=True)
class Finding:
    """One place in the cluster where a pattern's gap is present."""

    pattern: str
    check: str
    severity: str
    title: Localized
    objects: tuple[ObjectRef, ...]
    why: Text
    fix: Localized
    incidents: tuple[str, ...]


@dataclass(frozen=True)
class Skipped:
    """A snapshot check that could not be judged, and why (never counted as a pass)."""

    pattern: str
    check: str
    title: Localized
    reason: Text


@dataclass(frozen=True)
class Report:
    """Findings, checks that could not be judged, and checks that passed."""

    findings: tuple[Finding, ...]
    not_evaluable: tuple[Skipped, ...]
    passed: tuple[tuple[str, str], ...] = field(default=())

    @property
    def has_gaps(self) -> bool:
        """Info findings are inventory, not gaps."""
        return any(finding.severity != "info" for finding in self.findings)


def run_checks(snapshot: Snapshot, patterns: list[Pattern], grounding: Grounding) -> Report:
    """Evaluate every snapshot check of every pattern, in patterns.yaml order."""
    findings: list[Finding] = []
    skipped: list[Skipped] = []
    passed: list[tuple[str, str]] = []
    for pattern in patterns:
        incidents = grounding.get(pattern.slug, ())
        for spec in pattern.checks:
            if spec.kind != "snapshot":
                continue
            outcome = _evaluate(snapshot, CHECKS.get((pattern.slug, spec.id)))
            if isinstance(outcome, Text):
                skipped.append(Skipped(pattern.slug, spec.id, spec.title, outcome))
                continue
            gaps = outcome
            if not gaps:
                passed.append((pattern.slug, spec.id))
            for gap in gaps:
                findings.append(
                    Finding(
                        pattern=pattern.slug,
                        check=spec.id,
                        severity=gap.severity or spec.severity,
                        title=spec.title,
                        objects=gap.objects,
                        why=gap.why,
                        fix=spec.fix,
                        incidents=incidents,
                    )
                )
    findings.sort(key=lambda finding: SEVERITIES.index(finding.severity))
    return Report(tuple(findings), tuple(skipped), tuple(passed))


def _evaluate(snapshot: Snapshot, registered: RegisteredCheck | None) -> list[Gap] | Text:
    """The gaps found, or the reason the check cannot be judged."""
    if registered is None:
        return Text("no checker is registered", "등록된 점검 함수가 없다")
    if reason := _not_evaluable_reason(snapshot, registered):
        return reason
    try:
        return registered.function(snapshot)
    except NotEvaluable as error:
        return error.reason


def _not_evaluable_reason(snapshot: Snapshot, registered: RegisteredCheck) -> Text | None:
    missing = snapshot.missing(registered.requires)
    if not missing:
        return None
    kinds = ", ".join(missing)
    return Text(
        f"the snapshot has no {kinds} (not read, or read as an empty mixed List)",
        f"스냅샷에 {kinds} 이(가) 없다 (읽지 않았거나 빈 혼합 List 로 읽었다)",
    )
