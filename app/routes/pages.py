"""HTML pages: the incident list and one incident."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import api_docs, incidents
from app.deps import FilterDep, SettingsDep, StoreDep, TemplatesDep
from app.facets import Filter
from app.routes.common import canonical_redirect, make_view, not_found
from app.routes.graph import graph_preview
from app.schema import DIMENSIONS
from app.templating import render

router = APIRouter()


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
def show_api_docs(request: Request, templates: TemplatesDep, filters: FilterDep) -> Response:
    """The API reference, read from /openapi.json and shown in the site's own frame."""
    view = make_view(request, Filter(lang=filters.lang), "/docs")
    docs = api_docs.build(request.app.openapi())
    return render(
        request,
        templates,
        "docs.html",
        {"docs": docs},
        view=view,
        remember_lang=bool(filters.lang),
    )


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
        page = incidents.list_incidents(
            store, filters, lang=view.lang, page_size=settings.page_size
        )
        return {
            "graph_preview": graph_preview(store, filters, view.lang),
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
