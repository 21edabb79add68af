"""For the operator, not the reader: liveness, readiness and Prometheus metrics."""

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from app import observability
from app.store import StoreHolder

router = APIRouter(include_in_schema=False)
LOG = logging.getLogger("incident_library")


@router.get("/healthz")
async def show_health() -> Response:
    """The process is up and answering (nothing else is checked)."""
    return PlainTextResponse("ok\n")


@router.get("/readyz")
def show_readiness(request: Request) -> Response:
    """200 once the database is opened and loaded (which one, how many incidents); 503 before."""
    stores: StoreHolder = request.app.state.stores
    if not stores.path.exists():
        return _not_ready(f"no database at {stores.path}")
    if not stores.loaded():
        error = stores.load_error()
        if error is not None:
            return _not_ready(f"the database at {stores.path} cannot be opened")
        stores.load_in_background()  # at start-up, or a file that appeared after it
        return _not_ready("loading the database")
    try:
        store = stores.get()  # cheap (one stat) unless a new file was swapped in
    except Exception as error:  # a new file that is not a library database, or a damaged one
        LOG.error("the database at %s cannot be opened: %s", stores.path, error)
        return _not_ready(f"the database at {stores.path} cannot be opened")
    return JSONResponse(
        {
            "status": "ready",
            "incidents": store.total,
            "build_id": store.meta.get("build_id", ""),
            "built_at": store.meta.get("built_at", ""),
        }
    )


def _not_ready(reason: str) -> Response:
    return JSONResponse({"status": "not ready", "reason": reason}, status_code=503)


@router.get("/metrics")
def read_metrics() -> Response:
    """Prometheus text format, summed over every worker process of this server."""
    body, content_type = observability.metrics_text()
    return Response(body, media_type=content_type)
