"""Behind a reverse proxy: believe X-Forwarded-* only from trusted proxies; serve under a prefix.

The app builds every URL relative to its own root (`/incidents?…`, `Filter.url()`). With a
path prefix (`--root-path /library`) the prefix is added on the way out, in two places only:
URL-bearing response headers here (`Location`, `HX-Push-Url`, `Link`), and root-relative links
in rendered HTML (`app.templating.under_root`). Absolute URLs (API `links`, feeds, exports) are
built on `request.base_url`, which carries the prefix, the scheme and the host already.
"""

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

HOST = re.compile(r"^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$")
# Response headers whose value is one URL; a root-relative one gets the prefix.
PREFIXED_HEADERS = {b"location", b"content-location", b"hx-location", b"hx-push-url"}
LINK_TARGET = re.compile(rb"<(/[^>]*)>")


class ForwardedHeaders(ProxyHeadersMiddleware):
    """X-Forwarded-For/-Proto (uvicorn's rules) and X-Forwarded-Host, from trusted peers only.

    `trusted` is a comma-separated list of addresses and networks, or `*`; a request from any
    other peer keeps its own client address, scheme and Host, whatever headers it sends.
    """

    def __init__(self, app: ASGIApp, trusted: str) -> None:
        super().__init__(app, trusted_hosts=trusted)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:  # type: ignore[override]
        if scope["type"] == "http":
            client = scope.get("client")
            if client and client[0] in self.trusted_hosts:
                _forwarded_host(scope)
        await super().__call__(scope, receive, send)  # type: ignore[arg-type]


def _forwarded_host(scope: Scope) -> None:
    forwarded = next((v for k, v in scope["headers"] if k == b"x-forwarded-host"), None)
    if forwarded is None:
        return
    # The first value is the host the client asked for; later ones were added by inner proxies.
    host = forwarded.decode("latin-1").split(",")[0].strip()
    if not HOST.match(host):
        return
    headers = [(k, v) for k, v in scope["headers"] if k != b"host"]
    scope["headers"] = [(b"host", host.encode("latin-1")), *headers]


class RootPath:
    """Serves the app under `root_path`, whether the proxy strips the prefix or passes it on."""

    def __init__(self, app: ASGIApp, root_path: str) -> None:
        self.app = app
        self.root = root_path
        self.raw_root = root_path.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope["root_path"] = self.root
        path: str = scope["path"]
        if path != self.root and not path.startswith(self.root + "/"):
            scope["path"] = self.root + path
            scope["raw_path"] = self.raw_root + scope.get("raw_path", path.encode())

        async def send_prefixed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    (name, self._prefixed(name, value)) for name, value in message["headers"]
                ]
            await send(message)

        await self.app(scope, receive, send_prefixed)

    def _prefixed(self, name: bytes, value: bytes) -> bytes:
        if name in PREFIXED_HEADERS:
            return self._under_root(value)
        if name == b"link":
            return LINK_TARGET.sub(lambda m: b"<" + self._under_root(m[1]) + b">", value)
        return value

    def _under_root(self, value: bytes) -> bytes:
        if (
            value.startswith(b"/")
            and not value.startswith(b"//")
            and not (value == self.raw_root or value.startswith(self.raw_root + b"/"))
        ):
            return self.raw_root + value
        return value


def app_path(scope: Scope) -> str:
    """The request's path without the prefix: the form every URL in the app is built in."""
    root: str = scope.get("root_path", "")
    path: str = scope["path"]
    if root and (path == root or path.startswith(root + "/")):
        path = path[len(root) :]
    return path or "/"
