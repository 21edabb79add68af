"""HTML pages: the incident list and one incident."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2_fragments.fastapi import Jinja2Blocks

from app import incidents
from app.deps import FilterDep, SettingsDep, StoreDep, TemplatesDep
from app.facets import Filter
from app.i18n import choose_lang
from app.schema import DIMENSIONS
from app.templating import View, is_partial, render, under_root

router = APIRouter()


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


# Swagger UI writes inline styles; scripts stay 'self' only.
DOCS_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
def show_api_docs(request: Request, templates: TemplatesDep) -> Response:
    """Interactive API documentation over /openapi.json (Swagger UI from the npm registry)."""
    html = templates.get_template("docs.html").render(request=request)
    response = HTMLResponse(under_root(html, request.scope.get("root_path", "")))
    response.headers["Content-Security-Policy"] = DOCS_CSP
    return response


@router.get("/", include_in_schema=False)
def home(request: Request) -> RedirectResponse:
    """The library lands on the incident list."""
    query = request.url.query
    return RedirectResponse("/incidents" + (f"?{query}" if query else ""), status_code=302)


@router.get("/incidents", response_class=HTMLResponse, include_in_schema=False)
def list_incidents_page(
    request: Request,
    store: StoreDep,
    settings: SettingsDep,
    templates: TemplatesDep,
    filters: FilterDep,
) -> Response:
    """Faceted incident list; htmx requests get only the results block."""
    if response := canonical_redirect(request, filters, "/incidents"):
        return response
    view = make_view(request, filters, "/incidents")

    def context() -> dict[str, object]:
        from app.routes.graph import graph_tabs  # the graph module builds on this one

        page = incidents.list_incidents(
            store, filters, lang=view.lang, page_size=settings.page_size
        )
        return {
            "graph_tabs": graph_tabs(filters, view.lang),
            "page": page,
            "filters": filters,
            "dimensions": DIMENSIONS,
            "page_numbers": incidents.page_numbers(page.page, page.pages),
            "orgs": store.orgs,
        }

    response = render(
        request,
        templates,
        "incidents/list.html",
        context,
        view=view,
        block="results",
        remember_lang=bool(filters.lang),
        cache=store.pages,
    )
    response.headers["Link"] = (
        f'<{filters.url("/api/incidents")}>; rel="alternate"; type="application/json"'
    )
    return response


@router.get("/incidents/{slug}", response_class=HTMLResponse, include_in_schema=False)
def show_incident(
    request: Request, slug: str, store: StoreDep, templates: TemplatesDep, filters: FilterDep
) -> Response:
    """One incident: every section, tags, sources, patterns and related incidents."""
    view = make_view(request, Filter(lang=filters.lang), f"/incidents/{slug}")
    detail = incidents.get_incident(store, slug, lang=view.lang)
    if detail is None:
        return not_found(request, templates, view, f"No incident with the ID '{slug}'.")
    return render(
        request,
        templates,
        "incidents/detail.html",
        {"detail": detail, "dimensions": DIMENSIONS, "list_filter": Filter(lang=filters.lang)},
        view=view,
        remember_lang=bool(filters.lang),
    )
