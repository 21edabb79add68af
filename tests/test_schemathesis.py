"""schemathesis over the whole /openapi.json with every check it has, through its pytest
integration: no request the schema allows is refused, none it forbids is accepted, no 5xx, no
response outside its documented status, type, headers or body, 405s carry Allow.
"""

from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS

ALL_CHECKS = CHECKS.get_by_names(CHECKS.get_all_names())


@pytest.fixture()
def api_schema(app: FastAPI) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=30,  # per operation and phase; the whole run stays within about a minute
    deadline=None,  # CI machines are busy; the run is bounded by the example count
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_keeps_its_published_contract(case: Any) -> None:
    case.call_and_validate(checks=ALL_CHECKS)
