"""Render a Report as readable text (English or Korean) or as JSON."""

from __future__ import annotations

import json
from collections import Counter
from itertools import groupby
from typing import Any

from app.checks.patterns import SEVERITIES
from app.checks.report import Finding, Report

_WORDS = {
    "en": {
        "heading": "Check my cluster",
        "summary": "{gaps} gaps in {checks} checks ({by_severity}), {info} info, "
        "{skipped} not evaluable, {passed} passed.",
        "none": "No gap found in the checks that could be evaluated.",
        "fix": "Fix",
        "seen": "Seen in",
        "skipped": "Not evaluable (not a pass)",
    },
    "ko": {
        "heading": "내 클러스터에도 있는지 확인하기",
        "summary": "점검 {checks}개에서 틈 {gaps}건 ({by_severity}), 참고 {info}건, "
        "판단 불가 {skipped}개, 통과 {passed}개.",
        "none": "판단할 수 있었던 점검에서는 틈을 찾지 못했다.",
        "fix": "조치",
        "seen": "근거 사례",
        "skipped": "판단 불가 (통과가 아님)",
    },
}


def format_text(report: Report, lang: str = "en") -> str:
    """A readable report: a summary line, then each failing check with its objects and fix."""
    words = _WORDS["ko" if lang == "ko" else "en"]
    lines = [words["heading"], "", _summary(report, words)]
    if not report.has_gaps:
        lines += ["", words["none"]]
    for (_, _), group in groupby(report.findings, key=lambda f: (f.pattern, f.check)):
        lines += ["", *_check_block(list(group), lang, words)]
    if report.not_evaluable:
        lines += ["", words["skipped"] + ":"]
        for item in report.not_evaluable:
            lines.append(
                f"  {item.pattern}/{item.check}  {item.title.get(lang)}: {item.reason.get(lang)}"
            )
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
        skipped=len(report.not_evaluable),
        passed=len(report.passed),
    )


def _check_block(findings: list[Finding], lang: str, words: dict[str, str]) -> list[str]:
    first = findings[0]
    lines = [f"{first.severity.upper():<7}{first.pattern}/{first.check}  {first.title.get(lang)}"]
    for finding in findings:
        objects = ", ".join(str(item) for item in finding.objects)
        severity = "" if finding.severity == first.severity else f"[{finding.severity}] "
        lines.append(f"       - {severity}{objects}: {finding.why.get(lang)}")
    lines.append(f"       {words['fix']}: {first.fix.get(lang).strip()}")
    if first.incidents:
        lines.append(f"       {words['seen']}: {', '.join(first.incidents)}")
    return lines


def format_json(report: Report) -> str:
    """The whole report as JSON, both languages included."""
    return json.dumps(report_dict(report), ensure_ascii=False, indent=2) + "\n"


def report_dict(report: Report) -> dict[str, Any]:
    """The report as plain data (for the API and the web page)."""
    gaps = [finding for finding in report.findings if finding.severity != "info"]
    return {
        "summary": {
            "gaps": len(gaps),
            "info": len(report.findings) - len(gaps),
            "not_evaluable": len(report.not_evaluable),
            "passed": len(report.passed),
        },
        "findings": [_finding_dict(finding) for finding in report.findings],
        "not_evaluable": [
            {
                "pattern": item.pattern,
                "check": item.check,
                "title": item.title.model_dump(),
                "reason": {"en": item.reason.en, "ko": item.reason.ko},
            }
            for item in report.not_evaluable
        ],
        "passed": [{"pattern": pattern, "check": check} for pattern, check in report.passed],
    }


def _finding_dict(finding: Finding) -> dict[str, Any]:
    return {
        "pattern": finding.pattern,
        "check": finding.check,
        "severity": finding.severity,
        "title": finding.title.model_dump(),
        "objects": [
            {"kind": item.kind, "namespace": item.namespace, "name": item.name}
            for item in finding.objects
        ],
        "why": {"en": finding.why.en, "ko": finding.why.ko},
        "fix": finding.fix.model_dump(),
        "incidents": list(finding.incidents),
    }
