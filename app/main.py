"""create_app(settings) -> FastAPI. Serve with: uvicorn --factory app.main:create_app"""

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import observability, openapi
from app.config import Settings
from app.facets import FilterError
from app.http_contract import ApiCors, HeadAsGet, Validators, allowed_methods
from app.i18n import choose_lang
from app.proxy import ForwardedHeaders, RootPath, app_path
from app.routes import api, checks, feeds, graph, ops, pages, patterns
from app.store import Store, StoreHolder
from app.templating import View, make_templates, under_root

LOG = logging.getLogger("incident_library")

__version__ = version("incident-library")

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
}


class SecurityHeaders:
    """Adds the security headers to every response (plain ASGI: no per-request task overhead)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.raw = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.raw if k not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    stores = StoreHolder(
        settings.database_path,
        search_cache_size=settings.search_cache_size,
        page_cache_size=settings.page_cache_size,
        page_cache_dir=settings.page_cache_dir,
        on_load=_loaded,
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Load the facet bitsets before the first request needs them, on a thread of its own:
        # /healthz answers at once and /readyz says 503 until the database is loaded.
        if settings.database_path.exists():
            stores.load_in_background()
        yield
        observability.process_exited()

    app = FastAPI(
        lifespan=lifespan,
        docs_url=None,  # app.routes.pages renders /docs from the schema in the site frame
        redoc_url=None,
        title="Incident Library",
        description=(
            "Public infrastructure incident reports, tagged by cause, component, symptom and "
            "contributing factor, in English and Korean. Every list endpoint takes the same "
            "filters as the /incidents page."
        ),
        version=__version__,
    )
    app.state.settings = settings
    app.state.stores = stores
    app.state.templates = make_templates(settings.templates_dir)
    # Outermost last: trusted forwarded headers, then the path prefix, then ids/logs/metrics.
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Validators, stores=stores, version=__version__)
    if settings.cors_origins:
        app.add_middleware(ApiCors, origins=settings.cors_origins)
    app.add_middleware(HeadAsGet)
    app.add_middleware(
        observability.Observe,
        access_log=settings.access_log,
        log_probes=settings.access_log_probes,
    )
    if settings.root_path:
        app.add_middleware(RootPath, root_path=settings.root_path)
    if settings.forwarded_allow_ips.strip():
        app.add_middleware(ForwardedHeaders, trusted=settings.forwarded_allow_ips)
    app.mount("/static", StaticFiles(directory=settings.static_dir), name="static")
    for module in (ops, pages, api, feeds, graph, patterns, checks):
        app.include_router(module.router)
    _install_error_pages(app)
    openapi.install(app, stores)
    return app


def _loaded(store: Store) -> None:
    # What is loaded now lives as long as the process: move it out of the cyclic collector's
    # reach. Without this a full collection walks it all, a pause of up to ~90 ms measured at
    # 100,000 incidents (gc.callbacks), which was a share of the p99. Unfreeze first so the
    # previous store, after a roll-out, can still be collected.
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    observability.database_loaded(store.meta, store.total)
    LOG.info(
        "database %s loaded: %d incidents (build %s)",
        store.path,
        store.total,
        store.meta.get("build_id", "unknown"),
    )


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path.endswith(".json")


def _error(request: Request, status: int, message: str, parameter: str | None = None) -> Response:
    if _wants_json(request):
        body: dict[str, object] = {"error": message, "status": status}
        if parameter:
            body["parameter"] = parameter
        return JSONResponse(body, status_code=status)
    lang = choose_lang(request, request.query_params.get("lang", ""))
    path = app_path(request.scope)  # relative to the root, like every URL the app prints
    view = View(lang=lang, path=path, canonical=path, lang_switch_url="/")
    templates = request.app.state.templates
    html = templates.get_template("error.html").render(
        request=request, view=view, t=view.t, status=status, message=message
    )
    return HTMLResponse(under_root(html, request.scope.get("root_path", "")), status_code=status)


def _install_error_pages(app: FastAPI) -> None:
    @app.exception_handler(FilterError)
    async def _filter_error(request: Request, exc: FilterError) -> Response:
        return _error(request, 400, f"{exc.parameter}: {exc.reason}", exc.parameter)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        loc = [str(p) for p in first.get("loc", ()) if p not in ("query", "path", "body")]
        parameter = ".".join(loc) or None
        return _error(
            request, 400, f"{parameter or 'request'}: {first.get('msg', 'invalid')}", parameter
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        message = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404 and message == "Not Found":
            message = f"Nothing here: {request.url.path}"
        if exc.status_code == 405:
            message = f"{request.method} is not allowed here"
        response = _error(request, exc.status_code, message)
        response.headers.update(exc.headers or {})
        if exc.status_code == 405:  # RFC 9110: name every method the path answers
            response.headers["Allow"] = allowed_methods(request)
        return response

    @app.exception_handler(Exception)
    async def _server_error(request: Request, exc: Exception) -> Response:  # pragma: no cover
        rid = request.scope.get("state", {}).get("request_id", "-")
        where = f"{request.method} {request.url.path}"
        LOG.error("%s failed", where, exc_info=exc, extra={"request_id": rid})
        response = _error(request, 500, "Something went wrong on our side. Please try again.")
        response.headers["X-Request-ID"] = rid
        return response
