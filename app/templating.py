"""One Jinja2 environment; render a whole page or, for htmx, one named block of it."""

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from jinja2_fragments import render_block
from jinja2_fragments.fastapi import Jinja2Blocks
from markupsafe import Markup, escape

from app import observability
from app.facets import Filter, encode_query
from app.i18n import COOKIE, format_duration, translate
from app.pagecache import SharedPages


@dataclass(frozen=True)
class View:
    """What every template needs besides its own data."""

    lang: str
    path: str
    canonical: str
    lang_switch_url: str

    def t(self, key: str, **values: object) -> str:
        return translate(key, self.lang, **values)


@lru_cache(maxsize=4096)
def tag_url(dimension: str, slug: str, lang: str = "") -> str:
    """The list filtered by one tag value (the target of every tag chip)."""
    return Filter(lang=lang if lang == "ko" else "").toggled(dimension, slug).url()


@lru_cache(maxsize=4096)
def incident_url(slug: str, lang: str = "") -> str:
    return Filter(lang=lang if lang == "ko" else "").url(f"/incidents/{slug}")


def export_url(filters: Filter, path: str, **extra: str) -> str:
    """A feed or export of the list's filters (page 1), with its own parameters after them
    (`bom=1` on the CSV for Excel)."""
    pairs = [*filters.with_(page=1).query_pairs(), *extra.items()]
    query = encode_query(pairs)
    return f"{path}?{query}" if query else path


CODE_SPAN = re.compile(r"`([^`]+)`")


def code_spans(text: str) -> Markup:
    """Text with its `backticked` parts as <code>, everything escaped (API descriptions)."""
    escaped = str(escape(text))
    return Markup(CODE_SPAN.sub(r"<code>\1</code>", escaped))


# A root-relative URL in an attribute: href="/incidents?…", src="/static/app.css", hx-get="/…".
# Data printed into attributes is escaped (`"` becomes &#34;), so only our own markup matches.
_ROOT_RELATIVE = re.compile(
    r'(\s(?:xlink:)?(?:href|src|action|hx-get|hx-post|data-url)=")(/(?!/)[^"]*)"'
)


def under_root(html: str, root_path: str) -> str:
    """Root-relative links in rendered HTML, moved under the site's path prefix (--root-path).

    Templates and helpers print URLs relative to the app's root (`Filter.url()`, tag_url, …);
    this is the one place HTML gets the prefix (app.proxy does the same for headers).
    """
    if not root_path:
        return html

    def prefixed(match: re.Match[str]) -> str:
        url = match[2]
        if url == root_path or url.startswith(root_path + "/"):
            return match[0]
        return f'{match[1]}{root_path}{url}"'

    return _ROOT_RELATIVE.sub(prefixed, html)


def make_templates(directory: Path) -> Jinja2Blocks:
    templates = Jinja2Blocks(directory=str(directory))
    templates.env.trim_blocks = True
    templates.env.lstrip_blocks = True
    templates.env.globals["tag_url"] = tag_url
    templates.env.globals["incident_url"] = incident_url
    templates.env.globals["format_duration"] = format_duration
    templates.env.globals["export_url"] = export_url
    templates.env.filters["code_spans"] = code_spans
    return templates


def is_partial(request: Request) -> bool:
    """An htmx swap (not a boosted navigation, not a history restore) gets only the block."""
    headers = request.headers
    return (
        headers.get("hx-request") == "true"
        and "hx-boosted" not in headers
        and "hx-history-restore-request" not in headers
    )


class PageCache:
    """Rendered pages by request URL and language, least recently used dropped first.

    Belongs to one Store (one database file), so a rebuilt library starts with an empty cache.
    Pages are kept encoded: a hit is sent as it is, without re-encoding ~130 KB each time.
    """

    def __init__(self, size: int, shared: SharedPages | None = None) -> None:
        self.size = size
        self.shared = shared if size > 0 else None
        self._pages: OrderedDict[tuple[str, ...], bytes] = OrderedDict()
        self._lock = threading.Lock()
        self._filling: dict[tuple[str, ...], threading.Lock] = {}

    def filling(self, key: tuple[str, ...]) -> threading.Lock:
        """A lock per page being rendered: concurrent misses for one URL render it once."""
        with self._lock:
            return self._filling.setdefault(key, threading.Lock())

    def get(self, key: tuple[str, ...]) -> bytes | None:
        with self._lock:
            body = self._pages.get(key)
            if body is not None:
                self._pages.move_to_end(key)
                return body
        return None

    def get_shared(self, key: tuple[str, ...]) -> bytes | None:
        """The page another worker rendered (then kept here too), or None."""
        body = self.shared.read(key) if self.shared is not None else None
        if body is not None:
            self._keep(key, body)
        return body

    def put(self, key: tuple[str, ...], body: bytes) -> None:
        self._keep(key, body)
        if self.shared is not None:
            self.shared.write(key, body)

    def _keep(self, key: tuple[str, ...], body: bytes) -> None:
        with self._lock:
            self._filling.pop(key, None)
            if self.size <= 0:
                return
            self._pages[key] = body
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)


def render(
    request: Request,
    templates: Jinja2Blocks,
    name: str,
    context: dict[str, Any] | Callable[[], dict[str, Any]],
    *,
    view: View,
    block: str | None = None,
    status_code: int = 200,
    remember_lang: bool = False,
    cache: PageCache | None = None,
) -> Response:
    """Render `name` whole, or only `block` for an htmx request; the same template either way.

    `context` may be a function, so that with a `cache` hit the page's data is never computed.
    """
    partial = block is not None and is_partial(request)

    def build() -> str:
        data = context() if callable(context) else context
        full_context = {"request": request, "view": view, "t": view.t, **data}
        if partial:
            assert block is not None
            return render_block(templates.env, name, block, full_context)
        return templates.get_template(name).render(full_context)

    root_path: str = request.scope.get("root_path", "")
    body: bytes | None
    if cache is None:
        body = under_root(build(), root_path).encode()
    else:
        key = (name, request.url.path, request.url.query, view.lang, str(partial))
        body = cache.get(key)
        result = "hit"
        if body is None:
            with cache.filling(key):
                body = cache.get(key)  # rendered by another request while this one waited
                if body is None:
                    body = cache.get_shared(key)
                    result = "shared"
                if body is None:
                    body = under_root(build(), root_path).encode()
                    cache.put(key, body)
                    result = "miss"
        observability.count_cache("page", result)
    assert body is not None
    response = HTMLResponse(body, status_code=status_code)
    if partial:
        # htmx ignores headers on redirects, so the canonical URL is pushed from here.
        response.headers["HX-Push-Url"] = view.canonical
    if block is not None:
        response.headers["Vary"] = "HX-Request, Cookie, Accept-Language"
    if remember_lang:
        response.set_cookie(COOKIE, view.lang, max_age=365 * 24 * 3600, samesite="lax")
    return response
