"""Run the registered checks over a snapshot and collect findings into a Report."""

from __future__ import annotations

from dataclasses import dataclass

from app.checks.patterns import SEVERITIES, Grounding, Localized, Pattern
from app.checks.registry import CHECKS, Gap, NotEvaluable, ObjectRef, RegisteredCheck, Text
from app.checks.snapshot import ReadWarning, Snapshot

EXIT_CLEAN, EXIT_GAPS, EXIT_BAD_INPUT = 0, 1, 2


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
    scope: str = "objects"
    subject: str = ""


@dataclass(frozen=True)
class Skipped:
    """A snapshot check that could not be judged, and why (never counted as a pass)."""

    pattern: str
    check: str
    title: Localized
    reason: Text


@dataclass(frozen=True)
class Evaluation:
    """A check that was evaluated: how many findings, and which of its kinds it could see."""

    pattern: str
    check: str
    title: Localized
    findings: int
    seen: tuple[str, ...]
    unseen: tuple[str, ...]

    @property
    def coverage(self) -> Text:
        """ "evaluated Deployments; StatefulSets not in the snapshot" """
        seen = ", ".join(plural(kind) for kind in self.seen)
        if not self.unseen:
            return Text(f"evaluated {seen}", f"{', '.join(self.seen)} 를 평가했다")
        unseen = ", ".join(plural(kind) for kind in self.unseen)
        return Text(
            f"evaluated {seen}; {unseen} not in the snapshot",
            f"{', '.join(self.seen)} 를 평가했다. {', '.join(self.unseen)} 는 스냅숏에 없다",
        )


@dataclass(frozen=True)
class Report:
    """Findings, the checks evaluated, those that could not be judged, and read warnings."""

    findings: tuple[Finding, ...]
    not_evaluable: tuple[Skipped, ...]
    evaluated: tuple[Evaluation, ...] = ()
    warnings: tuple[ReadWarning, ...] = ()

    @property
    def has_gaps(self) -> bool:
        """Info findings are inventory, not gaps."""
        return any(finding.severity != "info" for finding in self.findings)

    @property
    def passed(self) -> tuple[tuple[str, str], ...]:
        return tuple((e.pattern, e.check) for e in self.evaluated if not e.findings)

    @property
    def exit_code(self) -> int:
        """1 gaps; 0 only when at least one check was evaluated and none found a gap; else 2."""
        if self.has_gaps:
            return EXIT_GAPS
        return EXIT_CLEAN if self.evaluated else EXIT_BAD_INPUT

    @property
    def verdict(self) -> str:
        return {EXIT_GAPS: "gaps", EXIT_CLEAN: "no-gaps"}.get(self.exit_code, "nothing-checked")


def plural(kind: str) -> str:
    return kind + ("es" if kind.endswith("s") else "s")


def run_checks(snapshot: Snapshot, patterns: list[Pattern], grounding: Grounding) -> Report:
    """Evaluate every snapshot check of every pattern, in patterns.yaml order."""
    findings: list[Finding] = []
    skipped: list[Skipped] = []
    evaluated: list[Evaluation] = []
    for pattern in patterns:
        incidents = grounding.get(pattern.slug, ())
        for spec in pattern.checks:
            if spec.kind != "snapshot":
                continue
            registered = CHECKS.get((pattern.slug, spec.id))
            outcome = _evaluate(snapshot, registered)
            if isinstance(outcome, Text) or registered is None:
                reason = outcome if isinstance(outcome, Text) else _UNREGISTERED
                skipped.append(Skipped(pattern.slug, spec.id, spec.title, reason))
                continue
            seen = [k for k in registered.requires + registered.covers if snapshot.has(k)]
            unseen = [k for k in registered.covers + registered.optional if not snapshot.has(k)]
            evaluated.append(
                Evaluation(
                    pattern.slug, spec.id, spec.title, len(outcome), tuple(seen), tuple(unseen)
                )
            )
            for gap in outcome:
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
                        scope=gap.scope,
                        subject=gap.subject,
                    )
                )
    findings.sort(key=lambda finding: SEVERITIES.index(finding.severity))
    return Report(tuple(findings), tuple(skipped), tuple(evaluated), snapshot.warnings)


_UNREGISTERED = Text("no checker is registered", "등록된 점검 함수가 없다")


def _evaluate(snapshot: Snapshot, registered: RegisteredCheck | None) -> list[Gap] | Text:
    """The gaps found, or the reason the check cannot be judged."""
    if registered is None:
        return _UNREGISTERED
    if reason := _not_evaluable_reason(snapshot, registered):
        return reason
    try:
        return registered.function(snapshot)
    except NotEvaluable as error:
        return error.reason
    except Exception as error:  # one check's bug must not abort the whole report
        return Text(
            f"the check failed on this snapshot ({type(error).__name__}); "
            "this is a bug in the checker, please report it",
            f"이 스냅숏에서 점검이 실패했다 ({type(error).__name__}). 점검기의 버그이니 알려 달라",
        )


def _not_evaluable_reason(snapshot: Snapshot, registered: RegisteredCheck) -> Text | None:
    missing = snapshot.missing(registered.requires)
    if missing:
        kinds = ", ".join(missing)
        return Text(
            f"the snapshot has no {kinds} (not read, or read as an empty mixed List)",
            f"스냅숏에 {kinds} 이(가) 없다 (읽지 않았거나 빈 혼합 List 로 읽었다)",
        )
    if registered.covers and not any(snapshot.has(kind) for kind in registered.covers):
        kinds = " or ".join(registered.covers)
        return Text(
            f"the snapshot has no {kinds} (not read, or read as an empty mixed List)",
            f"스냅숏에 {' 나 '.join(registered.covers)} 이(가) 없다 (읽지 않았거나 빈 혼합 "
            "List 로 읽었다)",
        )
    return None
