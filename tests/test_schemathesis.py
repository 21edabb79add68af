"""Property-based run over /openapi.json: no input gives a 5xx or a body breaking its schema.

schemathesis' own pytest loader (`from_fixture`) breaks on pytest 9, so each operation's
strategy is driven by Hypothesis directly, inside a test that can use the session `app`.
"""

import traceback
from typing import Any

from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from schemathesis import Case
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.result import Err
from schemathesis.openapi import from_asgi
from schemathesis.schemas import APIOperation

CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]
EXAMPLES = 25  # per operation; the whole run stays well under a minute


def run_operation(operation: APIOperation[Any, Any, Any, Any]) -> None:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        deadline=5000,  # ms; generous, as CI machines are busy (the run is bounded anyway)
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def check(case: Case[Any]) -> None:
        case.call_and_validate(checks=CHECKS)

    check()


def test_every_operation_conforms_to_its_schema(app: FastAPI) -> None:
    schema = from_asgi("/openapi.json", app)
    failures: list[str] = []
    labels = []
    for result in schema.get_all_operations():
        if isinstance(result, Err):
            failures.append(f"invalid schema: {result.err()}")
            continue
        operation = result.ok()
        labels.append(operation.label)
        try:
            run_operation(operation)
        except Exception as error:  # collect every operation's failure, not only the first
            detail = "".join(traceback.format_exception(error))
            failures.append(f"{operation.label}: {detail}")
    assert "GET /api/incidents" in labels and "GET /incidents.atom" in labels
    assert not failures, "\n\n".join(failures)
