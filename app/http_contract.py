"""What every response promises over HTTP, in plain ASGI middleware (no per-request tasks):

- `HeadAsGet`: HEAD answers wherever GET does, with GET's headers and no body.
- `Validators`: a strong ETag and Last-Modified on every GET that a rebuild alone can change,
  and 304 with no body for If-None-Match / If-Modified-Since; Cache-Control lets a shared cache
  keep a response briefly and then revalidate; Vary names the request headers pages depend on.
- `ApiCors`: opt-in CORS (`--cors`, IL_CORS) for the read-only API, feeds and exports only.

The ETag is a hash of the built data's identity (the same data gives the same id on every
replica), this code's version, the URL as requested, the language the page would be in and
whether it is an htmx swap: everything a response body depends on. So a 304 can be answered
before any work is done, and the answer is the same on every replica.
"""

import hashlib
from collections.abc import Iterable
from email.utils import format_datetime, parsedate_to_datetime

from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.i18n import choose_lang
from app.store import StoreHolder
from app.templating import is_partial

UNCACHED_PREFIXES = ("/static/", "/metrics", "/healthz", "/readyz", "/check")
# Responses that are the same whatever the reader's language, cookie or htmx.
LANGUAGE_FREE_PREFIXES = ("/api/", "/openapi.json")
LANGUAGE_FREE_SUFFIXES = (".json", ".csv")
PAGE_VARY = "Accept-Language, Cookie, HX-Request"
CACHE_CONTROL = "public, max-age=0, s-maxage=60, must-revalidate"
PRIVATE_CACHE_CONTROL = "private, no-cache"  # a response that sets a cookie
API_PREFIXES = ("/api/", "/openapi.json")
API_SUFFIXES = (".json", ".csv", ".atom")


class HeadAsGet:
    """HEAD runs the GET route and sends its status and headers without the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if not message.get("more_body", False):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)


METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> str:
    """The Allow header for a 405: every method some route of this path answers (HEAD with
    GET, as HeadAsGet answers it)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        if isinstance(route, Mount):  # the static files answer GET and HEAD only
            if route.matches(request.scope)[0] is not Match.NONE:
                methods.add("GET")
            continue
        for method in METHODS:
            if route.matches({**request.scope, "method": method})[0] is Match.FULL:
                methods.add(method)
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods)) or "GET, HEAD"


class Validators:
    """ETag / Last-Modified on GET 200s; 304 when the client's copy is current."""

    def __init__(self, app: ASGIApp, stores: StoreHolder, version: str) -> None:
        self.app = app
        self.stores = stores
        self.version = version

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or path.startswith(UNCACHED_PREFIXES)
            or not self.stores.path.exists()
        ):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        store = self.stores.get()
        language_free = path.startswith(LANGUAGE_FREE_PREFIXES) or path.endswith(
            LANGUAGE_FREE_SUFFIXES
        )
        etag = self.etag(store.content_id, request, language_free)
        last_modified = format_datetime(store.built_at, usegmt=True)
        headers = [
            (b"etag", etag.encode()),
            (b"last-modified", last_modified.encode()),
            (b"cache-control", CACHE_CONTROL.encode()),
        ]
        if not language_free:
            headers.append((b"vary", PAGE_VARY.encode()))
        if _not_modified(request, etag, store.built_at.timestamp()):
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return

        async def send_with_validators(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in headers if k not in present]
                if b"set-cookie" in present:
                    extra = [
                        (k, PRIVATE_CACHE_CONTROL.encode() if k == b"cache-control" else v)
                        for k, v in extra
                    ]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_validators)

    def etag(self, content_id: str, request: Request, language_free: bool) -> str:
        parts = [content_id, self.version, request.url.path, request.url.query]
        if not language_free:
            explicit = request.query_params.get("lang", "")
            parts += [choose_lang(request, explicit), "partial" if is_partial(request) else ""]
        digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]
        return f'"{digest}"'


def _not_modified(request: Request, etag: str, built: float) -> bool:
    """RFC 9110 §13.2.2: If-None-Match wins; If-Modified-Since only without it."""
    if_none_match = request.headers.get("if-none-match")
    if if_none_match is not None:
        return any(tag == "*" or tag == etag for tag in _entity_tags(if_none_match))
    since = request.headers.get("if-modified-since")
    if since is None:
        return False
    try:
        when = parsedate_to_datetime(since)
    except (TypeError, ValueError, IndexError):
        return False  # an unreadable date is ignored, as the RFC says
    if when.tzinfo is None:
        return False
    return int(built) <= when.timestamp()


def _entity_tags(header: str) -> Iterable[str]:
    for raw in header.split(","):
        tag = raw.strip()
        yield tag[2:] if tag.startswith("W/") else tag  # weak comparison, as for GET


class ApiCors:
    """CORS for the read-only API, feeds and exports, when the operator turns it on."""

    def __init__(self, app: ASGIApp, origins: list[str]) -> None:
        self.app = app
        self.cors = CORSMiddleware(
            app,
            allow_origins=origins,
            allow_methods=["GET", "HEAD"],
            allow_headers=["If-None-Match", "If-Modified-Since", "Accept", "Accept-Language"],
            expose_headers=["ETag", "Last-Modified", "Link"],
            max_age=600,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path.startswith(API_PREFIXES) or path.endswith(API_SUFFIXES):
            await self.cors(scope, receive, send)
        else:
            await self.app(scope, receive, send)
