"""View helpers every HTML route shares: the canonical redirect, the page's View, the 404 page.

They live here (not in pages.py or graph.py) so that page modules import this one and never
each other.
"""

from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from jinja2_fragments.fastapi import Jinja2Blocks

from app.facets import Filter
from app.i18n import choose_lang
from app.templating import View, is_partial, render


def canonical_redirect(
    request: Request,
    filters: Filter,
    path: str,
    *,
    query: str | None = None,
    ignored: bool = False,
) -> Response | None:
    """A plain GET whose query is not canonical is sent to the canonical URL.

    `query` is the canonical query when a page adds its own parameters after the filters
    (the graph's view); `ignored` says the page dropped some of those. Not when values were
    ignored (the page shows why instead) and not for htmx swaps (`render` pushes the canonical
    URL for those).
    """
    if is_partial(request) or filters.ignored or ignored:
        return None
    canonical = filters.query_string() if query is None else query
    if request.url.query != canonical:
        return RedirectResponse(f"{path}?{canonical}" if canonical else path, status_code=302)
    return None


def make_view(request: Request, filters: Filter, path: str) -> View:
    lang = choose_lang(request, filters.lang)
    other = "en" if lang == "ko" else "ko"
    return View(
        lang=lang,
        path=path,
        canonical=filters.url(path),
        lang_switch_url=filters.with_(lang=other, page=filters.page).url(path),
    )


def not_found(request: Request, templates: Jinja2Blocks, view: View, message: str) -> Response:
    """The 404 page, in the page's language, with what was not found."""
    context = {"status": 404, "message": message}
    return render(request, templates, "error.html", context, view=view, status_code=404)
