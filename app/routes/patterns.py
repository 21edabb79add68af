"""Check-my-cluster pages: the patterns, one pattern with its checks and grounding incidents."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.checks.patterns import OTHER_CHECKERS_WORDS
from app.checks.snapshot import SNAPSHOT_COMMAND
from app.deps import FilterDep, StoreDep, TemplatesDep
from app.facets import Filter
from app.incidents import card
from app.routes.common import make_view, not_found
from app.templating import render

router = APIRouter()


@router.get("/patterns", response_class=HTMLResponse, include_in_schema=False)
def list_patterns(
    request: Request, store: StoreDep, templates: TemplatesDep, filters: FilterDep
) -> Response:
    """Every pattern with the number of incidents behind it."""
    view = make_view(request, Filter(lang=filters.lang), "/patterns")
    counts = {p.slug: store.counts.get(("pattern", p.slug), 0) for p in store.patterns}
    return render(
        request,
        templates,
        "patterns/list.html",
        {"patterns": store.patterns, "counts": counts, "snapshot_command": SNAPSHOT_COMMAND},
        view=view,
        remember_lang=bool(filters.lang),
    )


@router.get("/patterns/{slug}", response_class=HTMLResponse, include_in_schema=False)
def show_pattern(
    request: Request, slug: str, store: StoreDep, templates: TemplatesDep, filters: FilterDep
) -> Response:
    """One pattern: why it matters, its read-only checks, the fix and its incidents."""
    view = make_view(request, Filter(lang=filters.lang), f"/patterns/{slug}")
    pattern = store.pattern_by_slug.get(slug)
    if pattern is None:
        return not_found(request, templates, view, f"No pattern called '{slug}'.")
    ranks = [int(r) for r in store.ranks(store.term_bits("pattern", slug))]
    incidents = [card(store, row, view.lang, "") for row in store.rows_by_rank(ranks)]
    return render(
        request,
        templates,
        "patterns/detail.html",
        {
            "pattern": pattern,
            "incidents": incidents,
            "snapshot_command": SNAPSHOT_COMMAND,
            "taxonomy": store.taxonomy,
            "others": OTHER_CHECKERS_WORDS,
        },
        view=view,
        remember_lang=bool(filters.lang),
    )
