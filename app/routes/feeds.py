"""Every filtered view as an Atom feed (newest first) and as CSV or JSON exports (all of it)."""

import itertools
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse

from app import exports, incidents
from app.api_models import ExportItem
from app.deps import StoreDep
from app.facets import Filter
from app.i18n import choose_lang
from app.routes.api import ERRORS, StrictFilterDep
from app.store import Store
from app.taxonomy import Taxonomy

router = APIRouter()

FEED_SIZE = 50
ATOM = "application/atom+xml"
HTML_ERROR = {"content": {"text/html": {"schema": {"type": "string"}}}}
# The feed and the CSV answer errors with the site's HTML error page (app.main), the JSON
# export with the API's error body.
HTML_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "An unknown slug or a malformed parameter.", **HTML_ERROR},
    "default": {"description": "Any other error, as an HTML page.", **HTML_ERROR},
}


@router.get(
    "/incidents.atom",
    response_class=Response,
    responses={200: {"content": {ATOM: {}}, "description": "An Atom 1.0 feed."}, **HTML_ERRORS},
    tags=["feeds"],
)
def read_feed(request: Request, store: StoreDep, filters: StrictFilterDep) -> Response:
    """The newest 50 incidents of a filtered view as Atom, whatever the view's sort."""
    lang = choose_lang(request, filters.lang)
    newest = filters.with_(sort="recent")
    bits = incidents.result_bits(store, newest)
    ranks = [int(r) for r in incidents.ordered_ranks(store, newest, bits)[:FEED_SIZE]]
    cards = [incidents.card(store, row, lang, "") for row in store.rows_by_rank(ranks)]
    base = str(request.base_url)
    view = filters.with_(sort="")
    info = exports.FeedInfo(
        feed_id=exports.absolute(base, view.url("/incidents.atom")),
        title=feed_title(filters, store.taxonomy, lang),
        self_url=exports.absolute(base, view.url("/incidents.atom")),
        html_url=exports.absolute(base, view.url()),
        lang=lang,
    )
    return Response(exports.atom_feed(info, cards, base), media_type=ATOM)


def feed_title(filters: Filter, taxonomy: Taxonomy, lang: str) -> str:
    what = exports.describe(filters, taxonomy, lang)
    name = "Incident Library"
    if not what:
        return f"{name}: {'모든 사례' if lang == 'ko' else 'all incidents'}"
    return f"{name}: {what}"


def _export_items(store: Store, filters: Filter, base: str) -> tuple[int, Iterator[ExportItem]]:
    """The whole result in the view's sort order, read from SQLite in chunks as it streams."""
    bits = incidents.result_bits(store, filters)
    order = incidents.ordered_ranks(store, filters, bits)
    rows = exports.iter_rows(store, [int(r) for r in order])
    return bits.bit_count(), (exports.export_item(store, row, base) for row in rows)


def _attachment(filters: Filter, extension: str) -> dict[str, str]:
    name = exports.export_filename(filters, extension)
    return {"Content-Disposition": f'attachment; filename="{name}"'}


@router.get(
    "/incidents.csv",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/csv": {}}, "description": "CSV, header first."},
        **HTML_ERRORS,
    },
    tags=["feeds"],
)
def export_csv(
    request: Request,
    store: StoreDep,
    filters: StrictFilterDep,
    bom: Annotated[
        bool,
        Query(
            description="Start the file with a UTF-8 byte order mark, so that Excel opens "
            "Korean text correctly (bom=1)."
        ),
    ] = False,
) -> StreamingResponse:
    """Every incident of a filtered view (all pages) as CSV; tags are slugs joined by ';'."""
    total, items = _export_items(store, filters, str(request.base_url))
    chunks = exports.csv_chunks(items)
    return StreamingResponse(
        itertools.chain(["\ufeff"], chunks) if bom else chunks,
        media_type="text/csv; charset=utf-8",
        headers=_attachment(filters, "csv"),
    )


@router.get(
    "/incidents.json",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"application/json": {}},
            "description": '{"filters": {...}, "total": N, "items": [...]}',
        },
        **ERRORS,
    },
    tags=["feeds"],
)
def export_json(request: Request, store: StoreDep, filters: StrictFilterDep) -> StreamingResponse:
    """Every incident of a filtered view (all pages) as one JSON document, with its sources."""
    total, items = _export_items(store, filters, str(request.base_url))
    return StreamingResponse(
        exports.json_chunks(filters, total, items),
        media_type="application/json",
        headers=_attachment(filters, "json"),
    )
