"""What an operator sees of a running library: request ids, access logs, Prometheus metrics.

Metrics go through the official prometheus-client. `incident-library serve` always runs it in
multiprocess mode (PROMETHEUS_MULTIPROC_DIR, created and cleaned by the command), so /metrics
adds up every worker process whichever one answers the scrape. That variable must be set before
prometheus_client is first imported: this module is imported by the app, never by `serve` itself.
"""

import logging
import os
import re
import time
import uuid

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.logs import ACCESS_LOGGER, request_id

ACCESS = logging.getLogger(ACCESS_LOGGER)
LOG = logging.getLogger("incident_library")
PROBES = frozenset({"/healthz", "/readyz", "/metrics"})
REQUEST_ID_HEADER = b"x-request-id"
# An incoming id is kept when it looks like one (a UUID, a trace id, a proxy's $request_id);
# anything else is replaced, so a log line can never carry a client's arbitrary text.
SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{8,128}$")

REQUESTS = Counter(
    "il_http_requests",
    "HTTP responses by method, route template (not raw URL) and status code.",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "il_http_request_duration_seconds",
    "Time from request to the last byte of the response, by method and route template.",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
CACHE = Counter(
    "il_cache_lookups",
    "Page and search cache lookups, by cache and result (hit, shared: from another worker, miss).",
    ["cache", "result"],
)
# One sample per live worker process ("liveall" adds a pid label in multiprocess mode), so a
# roll-out in progress shows which processes have the new database and which the old.
INCIDENTS = Gauge(
    "il_incidents_loaded", "Incidents in the database this process serves.",
    multiprocess_mode="liveall",
)  # fmt: skip
BUILT = Gauge(
    "il_database_built_timestamp_seconds", "When the served database was built (Unix time).",
    multiprocess_mode="liveall",
)  # fmt: skip
BUILD_DURATION = Gauge(
    "il_database_build_duration_seconds", "How long `incident-library build` took for it.",
    multiprocess_mode="liveall",
)  # fmt: skip
DATABASE = Gauge(
    "il_database_info", "The served database's build id (1 while it is served, 0 after).",
    ["build_id"], multiprocess_mode="liveall",
)  # fmt: skip


def count_cache(cache: str, result: str) -> None:
    """`result`: hit (this worker's memory), shared (another worker's page), miss (computed)."""
    CACHE.labels(cache, result).inc()


_current_build: str | None = None


def database_loaded(meta: dict[str, str], incidents: int) -> None:
    """Called whenever this process (re)opens the database."""
    global _current_build
    build_id = meta.get("build_id", "unknown")
    if _current_build is not None and _current_build != build_id:
        DATABASE.labels(_current_build).set(0)
    _current_build = build_id
    DATABASE.labels(build_id).set(1)
    INCIDENTS.set(incidents)
    BUILT.set(float(meta.get("built_at", 0) or 0))
    BUILD_DURATION.set(float(meta.get("build_seconds", 0) or 0))


def metrics_text() -> tuple[bytes, str]:
    """The Prometheus exposition of every worker (multiprocess) or of this process."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return generate_latest(registry), CONTENT_TYPE_LATEST


def process_exited() -> None:
    """Drop this worker's live gauges from the shared metrics directory."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def _route(scope: Scope) -> str:
    """The matched route's template (`/incidents/{slug}`); raw paths never become labels."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if path is None:
        return "(unmatched)"
    if isinstance(route, Mount):  # /static
        return f"{path}/{{path}}"
    return str(path)


class Observe:
    """Request id, access log line and metrics for every HTTP request (plain ASGI, cheap)."""

    def __init__(self, app: ASGIApp, *, access_log: bool = True, log_probes: bool = False) -> None:
        self.app = app
        self.access_log = access_log
        self.log_probes = log_probes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = _incoming_id(scope) or uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = rid
        token = request_id.set(rid)
        status = 500
        sent = 0

        async def send_observed(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = message.get("headers", [])
                message["headers"] = [*headers, (REQUEST_ID_HEADER, rid.encode())]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, send_observed)
        finally:
            seconds = time.perf_counter() - started
            route = _route(scope)
            method = scope["method"]
            REQUESTS.labels(method, route, str(status)).inc()
            LATENCY.labels(method, route).observe(seconds)
            if self.access_log and (self.log_probes or route not in PROBES):
                _log_access(scope, rid, method, route, status, sent, seconds)
            request_id.reset(token)


def _incoming_id(scope: Scope) -> str | None:
    for name, value in scope["headers"]:
        if name == REQUEST_ID_HEADER:
            text = value.decode("latin-1")
            return text if SANE_ID.match(text) else None
    return None


def _log_access(
    scope: Scope, rid: str, method: str, route: str, status: int, sent: int, seconds: float
) -> None:
    client = scope.get("client")
    query = scope.get("query_string", b"").decode("latin-1")
    target = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
    ACCESS.info(
        '%s "%s %s" %d',
        client[0] if client else "-",
        method,
        target + (f"?{query}" if query else ""),
        status,
        extra={
            "request_id": rid,
            "client": client[0] if client else None,
            "method": method,
            "path": target,
            "query": query,
            "route": route,
            "status": status,
            "bytes": sent,
            "duration_ms": round(seconds * 1000, 2),
        },
    )
