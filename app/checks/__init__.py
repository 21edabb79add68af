"""Check my cluster: read-only checks for the gaps behind public incidents.

CHECKS maps (pattern slug, check id) to the function that evaluates it from a snapshot; the
functions live in app.checks.rules, one module per pattern, and register with @check.
"""

from app.checks import rules as _rules  # noqa: F401  (importing registers every check)
from app.checks.output import format_json, format_text, report_dict
from app.checks.registry import CHECKS, Gap, NotEvaluable, ObjectRef, Text, check
from app.checks.report import Finding, Report, Skipped, run_checks

__all__ = [
    "CHECKS",
    "Finding",
    "Gap",
    "NotEvaluable",
    "ObjectRef",
    "Report",
    "Skipped",
    "Text",
    "check",
    "format_json",
    "format_text",
    "report_dict",
    "run_checks",
]
