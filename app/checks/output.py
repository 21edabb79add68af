"""Render a Report as readable text (English or Korean) or as JSON."""

from __future__ import annotations

import json
from collections import Counter
from itertools import groupby
from typing import Any

from app.checks.patterns import SEVERITIES
from app.checks.report import Evaluation, Finding, Report
from app.checks.snapshot import SNAPSHOT_COMMAND
from app.checks.text import Text

_WORDS = {
    "en": {
        "heading": "Check my cluster",
        "summary": "Summary: {gaps} gaps in {checks} checks ({by_severity}); {info} info; "
        "{evaluated} checks evaluated, {passed} of them without findings; "
        "{skipped} not evaluable; {warnings} objects skipped or read with a caveat.",
        "fix": "Fix",
        "seen": "Seen in",
        "skipped": "Not evaluable (not a pass)",
        "partial": "Evaluated on part of the cluster (kinds missing from the snapshot)",
        "warnings": "Objects skipped or read with a caveat",
        "cluster": "the whole cluster",
        "node-pool": "node pool",
        "storage": "storage",
    },
    "ko": {
        "heading": "내 클러스터에도 있는지 확인하기",
        "summary": "요약: 점검 {checks}개에서 틈 {gaps}건 ({by_severity}), 참고 {info}건, "
        "평가한 점검 {evaluated}개 중 발견 없음 {passed}개, 판단 불가 {skipped}개, "
        "건너뛰었거나 주의해서 읽은 오브젝트 {warnings}개.",
        "fix": "조치",
        "seen": "근거 사례",
        "skipped": "판단 불가 (통과가 아님)",
        "partial": "클러스터 일부만 평가함 (스냅숏에 없는 종류가 있음)",
        "warnings": "건너뛰었거나 주의해서 읽은 오브젝트",
        "cluster": "클러스터 전체",
        "node-pool": "노드 풀",
        "storage": "스토리지",
    },
}


def verdict_text(report: Report) -> Text:
    """What the exit code means, in words (the CLI prints it, the web page shows it)."""
    evaluated = len(report.evaluated)
    if report.verdict == "gaps":
        return Text(
            f"Result: gaps found (exit code 1), in {evaluated} checks evaluated.",
            f"결과: 틈을 찾았다 (종료 코드 1). 평가한 점검 {evaluated}개.",
        )
    if report.verdict == "no-gaps":
        return Text(
            f"Result: no gap found in the {evaluated} checks that could be evaluated (exit code "
            "0); checks listed as not evaluable are not passes.",
            f"결과: 평가할 수 있었던 점검 {evaluated}개에서 틈을 찾지 못했다 (종료 코드 0). "
            "판단 불가인 점검은 통과가 아니다.",
        )
    return Text(
        "Result: nothing in this snapshot could be checked (exit code 2) — collect it with: "
        + SNAPSHOT_COMMAND,
        "결과: 이 스냅숏으로는 아무것도 점검할 수 없었다 (종료 코드 2). 다음 명령으로 모은다: "
        + SNAPSHOT_COMMAND,
    )


def nothing_checked_message() -> str:
    """The one stderr line for exit 2 on a snapshot with nothing to check."""
    return "nothing in this snapshot could be checked — collect it with: " + SNAPSHOT_COMMAND


def format_text(report: Report, lang: str = "en") -> str:
    """A readable report: summary and verdict, each failing check with its objects and fix."""
    words = _WORDS["ko" if lang == "ko" else "en"]
    lines = [words["heading"], "", _summary(report, words), verdict_text(report).get(lang)]
    coverage = {(e.pattern, e.check): e for e in report.evaluated}
    for (pattern, check_id), group in groupby(report.findings, key=lambda f: (f.pattern, f.check)):
        lines += ["", *_check_block(list(group), coverage.get((pattern, check_id)), lang, words)]
    partial = [e for e in report.evaluated if e.unseen and not e.findings]
    if partial:
        lines += ["", words["partial"] + ":"]
        lines += [f"  {e.pattern}/{e.check}  {e.coverage.get(lang)}" for e in partial]
    if report.not_evaluable:
        lines += ["", words["skipped"] + ":"]
        for item in report.not_evaluable:
            lines.append(
                f"  {item.pattern}/{item.check}  {item.title.get(lang)}: {item.reason.get(lang)}"
            )
    if report.warnings:
        lines += ["", words["warnings"] + ":"]
        lines += [f"  {w.where}: {w.problem.get(lang)}" for w in report.warnings]
    return "\n".join(lines) + "\n"


def _summary(report: Report, words: dict[str, str]) -> str:
    gaps = [finding for finding in report.findings if finding.severity != "info"]
    counts = Counter(finding.severity for finding in gaps)
    by_severity = ", ".join(f"{s} {counts[s]}" for s in SEVERITIES if counts[s]) or "-"
    return words["summary"].format(
        gaps=len(gaps),
        checks=len({(f.pattern, f.check) for f in gaps}),
        by_severity=by_severity,
        info=len(report.findings) - len(gaps),
        evaluated=len(report.evaluated),
        passed=len(report.passed),
        skipped=len(report.not_evaluable),
        warnings=len(report.warnings),
    )


def subject_text(finding: Finding, lang: str) -> str:
    """The objects of a finding, or what it is about when that is not objects."""
    words = _WORDS["ko" if lang == "ko" else "en"]
    if finding.scope == "objects":
        return ", ".join(str(item) for item in finding.objects)
    named = f" {finding.subject}" if finding.subject else ""
    extra = "".join(f", {item}" for item in finding.objects)
    return f"{words.get(finding.scope, finding.scope)}{named}{extra}"


def _check_block(
    findings: list[Finding], evaluation: Evaluation | None, lang: str, words: dict[str, str]
) -> list[str]:
    first = findings[0]
    lines = [f"{first.severity.upper():<7}{first.pattern}/{first.check}  {first.title.get(lang)}"]
    if evaluation is not None and evaluation.unseen:
        lines.append(f"       ({evaluation.coverage.get(lang)})")
    for finding in findings:
        severity = "" if finding.severity == first.severity else f"[{finding.severity}] "
        lines.append(f"       - {severity}{subject_text(finding, lang)}: {finding.why.get(lang)}")
    lines.append(f"       {words['fix']}: {first.fix.get(lang).strip()}")
    if first.incidents:
        lines.append(f"       {words['seen']}: {', '.join(first.incidents)}")
    return lines


def format_json(report: Report) -> str:
    """The whole report as JSON, both languages included."""
    return json.dumps(report_dict(report), ensure_ascii=False, indent=2) + "\n"


def _both(text: Text) -> dict[str, str]:
    return {"en": text.en, "ko": text.ko}


def report_dict(report: Report) -> dict[str, Any]:
    """The report as plain data (for the API and the web page)."""
    gaps = [finding for finding in report.findings if finding.severity != "info"]
    return {
        "verdict": report.verdict,
        "exit_code": report.exit_code,
        "verdict_text": _both(verdict_text(report)),
        "summary": {
            "gaps": len(gaps),
            "checks_with_gaps": len({(f.pattern, f.check) for f in gaps}),
            "info": len(report.findings) - len(gaps),
            "evaluated": len(report.evaluated),
            "passed": len(report.passed),
            "not_evaluable": len(report.not_evaluable),
            "skipped_objects": len(report.warnings),
        },
        "findings": [_finding_dict(finding) for finding in report.findings],
        "evaluated": [
            {
                "pattern": e.pattern,
                "check": e.check,
                "findings": e.findings,
                "seen": list(e.seen),
                "unseen": list(e.unseen),
                "coverage": _both(e.coverage),
            }
            for e in report.evaluated
        ],
        "not_evaluable": [
            {
                "pattern": item.pattern,
                "check": item.check,
                "title": item.title.model_dump(),
                "reason": _both(item.reason),
            }
            for item in report.not_evaluable
        ],
        "passed": [{"pattern": pattern, "check": check} for pattern, check in report.passed],
        "warnings": [{"where": w.where, "problem": _both(w.problem)} for w in report.warnings],
    }


def _finding_dict(finding: Finding) -> dict[str, Any]:
    return {
        "pattern": finding.pattern,
        "check": finding.check,
        "severity": finding.severity,
        "title": finding.title.model_dump(),
        "scope": finding.scope,
        "subject": finding.subject,
        "objects": [
            {"kind": item.kind, "namespace": item.namespace, "name": item.name}
            for item in finding.objects
        ],
        "why": _both(finding.why),
        "fix": finding.fix.model_dump(),
        "incidents": list(finding.incidents),
    }
