"""One Jinja2 environment; render a whole page or, for htmx, one named block of it."""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from jinja2_fragments.fastapi import Jinja2Blocks

from app.facets import Filter
from app.i18n import COOKIE, translate


@dataclass(frozen=True)
class View:
    """What every template needs besides its own data."""

    lang: str
    path: str
    canonical: str
    lang_switch_url: str

    def t(self, key: str, **values: object) -> str:
        return translate(key, self.lang, **values)


def tag_url(dimension: str, slug: str, lang: str = "") -> str:
    """The list filtered by one tag value (the target of every tag chip)."""
    return Filter(lang=lang if lang == "ko" else "").toggled(dimension, slug).url()


def incident_url(slug: str, lang: str = "") -> str:
    return Filter(lang=lang if lang == "ko" else "").url(f"/incidents/{slug}")


def make_templates(directory: Path) -> Jinja2Blocks:
    templates = Jinja2Blocks(directory=str(directory))
    templates.env.trim_blocks = True
    templates.env.lstrip_blocks = True
    templates.env.globals["tag_url"] = tag_url
    templates.env.globals["incident_url"] = incident_url
    return templates


def is_partial(request: Request) -> bool:
    """An htmx swap (not a boosted navigation, not a history restore) gets only the block."""
    headers = request.headers
    return (
        headers.get("hx-request") == "true"
        and "hx-boosted" not in headers
        and "hx-history-restore-request" not in headers
    )


def render(
    request: Request,
    templates: Jinja2Blocks,
    name: str,
    context: dict[str, Any],
    *,
    view: View,
    block: str | None = None,
    status_code: int = 200,
    remember_lang: bool = False,
) -> Response:
    """Render `name` whole, or only `block` for an htmx request; the same template either way."""
    partial = block is not None and is_partial(request)
    full_context = {"request": request, "view": view, "t": view.t, **context}
    response: Response
    if partial:
        response = templates.TemplateResponse(
            request, name, full_context, block_name=block, status_code=status_code
        )
        # htmx ignores headers on redirects, so the canonical URL is pushed from here.
        response.headers["HX-Push-Url"] = view.canonical
    else:
        response = templates.TemplateResponse(request, name, full_context, status_code=status_code)
    if block is not None:
        response.headers["Vary"] = "HX-Request, Cookie, Accept-Language"
    if remember_lang:
        response.set_cookie(COOKIE, view.lang, max_age=365 * 24 * 3600, samesite="lax")
    return response
