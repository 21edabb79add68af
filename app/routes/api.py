"""The JSON API: the same Filter and the same query path as the pages, as typed JSON."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from app import incidents
from app.api_models import (
    Bilingual,
    BilingualList,
    ErrorBody,
    FacetOut,
    Facets,
    FacetValueOut,
    IncidentList,
    IncidentRecord,
    PageLinks,
    PatternOut,
    PatternRef,
    Review,
    SearchCorrection,
    SearchInfo,
    SearchSynonym,
    Source,
    TagTerms,
    TaxonomyOut,
    TaxonomyTerm,
    TermRef,
)
from app.deps import FilterDep, SettingsDep, StoreDep
from app.explain import explain
from app.exports import absolute, iter_rows, summary_item
from app.facets import KEYS, Filter, FilterError
from app.incidents import FACET_KINDS, Facet
from app.schema import DIMENSIONS
from app.store import Store
from app.taxonomy import TermInfo

router = APIRouter(prefix="/api", tags=["api"])

# "default" also keeps FastAPI from documenting a 422 we never send (app.main turns request
# validation errors into 400s with this same body).
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "An unknown slug or a malformed parameter."},
    "default": {"model": ErrorBody, "description": "Any other error, in the same shape."},
}
NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "No incident with that ID."},
}


ACCEPTED = frozenset((*KEYS, "view", "limit", "min"))


def strict_filter(
    request: Request,
    filters: FilterDep,
    q: Annotated[str | None, Query(description="Search text (English or Korean).")] = None,
    cause: Annotated[list[str] | None, Query(description="Cause slugs (any of them).")] = None,
    component: Annotated[list[str] | None, Query(description="Component slugs.")] = None,
    symptom: Annotated[list[str] | None, Query(description="Symptom slugs.")] = None,
    factor: Annotated[list[str] | None, Query(description="Contributing factor slugs.")] = None,
    org: Annotated[list[str] | None, Query(description="Organisations (any of them).")] = None,
    year_from: Annotated[str | None, Query(alias="from", description="First year.")] = None,
    year_to: Annotated[str | None, Query(alias="to", description="Last year.")] = None,
    sort: Annotated[str | None, Query(description="recent, oldest or relevance.")] = None,
    page: Annotated[str | None, Query(description="Page number, from 1.")] = None,
    lang: Annotated[str | None, Query(description="en or ko.")] = None,
) -> Filter:
    """The request's Filter; anything the page would ignore with a notice is a 400 here.

    The parameters are declared (as plain strings) only so that OpenAPI lists them; the Filter
    alone parses and validates, so a bad value is always our 400 body, never FastAPI's 422.

    :raises FilterError: naming the first ignored parameter and why.
    """
    if filters.ignored:
        first = filters.ignored[0]
        raise FilterError(first.parameter, first.reason.removesuffix(" ignored"))
    reject_empty_values(request)
    return filters


def reject_empty_values(request: Request) -> None:
    """The API names a parameter only to give it a value: `cause=` is a 400, not ignored.

    :raises FilterError: for the first parameter (other than q) sent without a value.
    """
    for key, value in request.query_params.multi_items():
        if key != "q" and key in ACCEPTED and not value.strip():
            raise FilterError(key, "empty value (leave the parameter out instead)")


StrictFilterDep = Annotated[Filter, Depends(strict_filter)]


def base_url(request: Request) -> str:
    return str(request.base_url)


def _bilingual_label(term: TermInfo) -> Bilingual:
    return Bilingual(en=term.label_en, ko=term.label_ko)


# -- /api/incidents -----------------------------------------------------------------------------
@router.get("/incidents", response_model=IncidentList, responses=ERRORS)
def read_incidents(
    request: Request, store: StoreDep, settings: SettingsDep, filters: StrictFilterDep
) -> IncidentList:
    """One page of the incidents a filter selects, with the total and links to other pages.

    Takes exactly the parameters of the /incidents page: several values of one dimension
    match any of them, different dimensions must all match. Pages past the end show the last.
    """
    bits = incidents.result_bits(store, filters)
    total = bits.bit_count()
    size = settings.page_size
    pages = max(1, -(-total // size))
    page = min(filters.page, pages)
    order = incidents.ordered_ranks(store, filters, bits)
    ranks = [int(r) for r in order[(page - 1) * size : page * size]]
    base = base_url(request)
    return IncidentList(
        total=total,
        page=page,
        pages=pages,
        page_size=size,
        links=_page_links(filters, page, pages, base),
        html_url=absolute(base, filters.with_(page=page).url()),
        items=[summary_item(store, row, base) for row in store.rows_by_rank(ranks)],
        search=_search_info(store, filters, base),
    )


def _search_info(store: Store, filters: Filter, base: str) -> SearchInfo | None:
    """The page's search explanation as fields (app/explain.py builds both)."""
    explained = explain(store.search(filters.q), filters) if filters.q else None
    if explained is None:
        return None
    return SearchInfo(
        words=list(explained.words),
        needed=explained.needed,
        relaxed=explained.relaxed,
        with_all=explained.with_all,
        corrections=[
            SearchCorrection(typed=c.typed, searched=c.searched, url=absolute(base, c.url))
            for c in explained.corrections
        ],
        synonyms=[SearchSynonym(word=w, also=list(o)) for w, o in explained.synonyms],
        ignored=list(explained.ignored),
        excluded=list(explained.excluded),
        unmatched=list(explained.unmatched),
        messages=explained.text(),
    )


def _page_links(filters: Filter, page: int, pages: int, base: str) -> PageLinks:
    def link(number: int) -> str:
        return absolute(base, filters.with_(page=number).url("/api/incidents"))

    return PageLinks(
        self=link(page),
        first=link(1),
        last=link(pages),
        next=link(page + 1) if page < pages else None,
        prev=link(page - 1) if page > 1 else None,
    )


@router.get(
    "/incidents/{incident_id}", response_model=IncidentRecord, responses={**ERRORS, **NOT_FOUND}
)
def read_incident(incident_id: str, request: Request, store: StoreDep) -> IncidentRecord:
    """One incident whole: every section in English and Korean, tags with labels, sources,
    patterns and the IDs of related incidents.

    :raises HTTPException: 404 when no incident has this ID.
    """
    detail = incidents.get_incident(store, incident_id, lang="en")
    row = store.row_by_slug(incident_id) if detail else None
    if detail is None or row is None:
        raise HTTPException(404, f"No incident with the ID '{incident_id}'.")
    base = base_url(request)
    body = detail.card.body
    return IncidentRecord(
        id=detail.card.slug,
        organization=detail.card.organization,
        date=str(detail.card.date),
        year=detail.card.year,
        title=Bilingual(en=row["title_en"], ko=row["title_ko"]),
        symptom=Bilingual(**body["symptom"]),
        trigger=Bilingual(**body["trigger"]),
        detection=Bilingual(**body["detection"]) if body.get("detection") else None,
        actions=BilingualList(**body["actions"]),
        follow_ups=BilingualList(**body["follow_ups"]) if body.get("follow_ups") else None,
        lessons=Bilingual(**body["lessons"]),
        tags=TagTerms(
            **{dim: [_term_ref(term, base) for term in detail.card.tags[dim]] for dim in DIMENSIONS}
        ),
        sources=[Source(**source) for source in detail.sources],
        duration=detail.card.duration,
        review=Review(**detail.review) if detail.review else None,
        patterns=[_pattern_ref(store, p.slug, base) for p in detail.patterns],
        related=[card.slug for card in detail.related],
        url=absolute(base, f"/incidents/{detail.card.slug}"),
        api_url=absolute(base, f"/api/incidents/{detail.card.slug}"),
    )


def _term_ref(term: TermInfo, base: str) -> TermRef:
    url = Filter(**{term.dimension: (term.slug,)}).url()  # type: ignore[arg-type]
    return TermRef(slug=term.slug, label=_bilingual_label(term), url=absolute(base, url))


def _pattern_ref(store: Store, slug: str, base: str) -> PatternRef:
    pattern = store.pattern_by_slug[slug]
    title = Bilingual(en=pattern.title_en, ko=pattern.title_ko)
    return PatternRef(slug=slug, title=title, url=absolute(base, f"/patterns/{slug}"))


# -- /api/facets --------------------------------------------------------------------------------
@router.get("/facets", response_model=Facets, responses=ERRORS)
def read_facets(request: Request, store: StoreDep, filters: StrictFilterDep) -> Facets:
    """Facet counts for a filter, per dimension and organisation, exactly as the page shows them.

    An unselected value's count is how many incidents its `url` returns.
    """
    page = incidents.list_incidents(store, filters, lang="en", page_size=1)
    base = base_url(request)
    facets = {kind: _facet_out(store, filters, page.facets[kind], base) for kind in FACET_KINDS}
    return Facets(total=page.total, **facets)


def _facet_out(store: Store, filters: Filter, facet: Facet, base: str) -> FacetOut:
    values = []
    for value in facet.values:
        term = store.taxonomy.get(facet.kind, value.slug) if facet.kind != "org" else None
        label = _bilingual_label(term) if term else Bilingual(en=value.label, ko=value.label)
        toggled = filters.toggled(facet.kind, value.slug)
        values.append(
            FacetValueOut(
                slug=value.slug,
                label=label,
                count=value.count,
                selected=value.selected,
                url=absolute(base, value.toggle_url),
                api_url=absolute(base, toggled.url("/api/incidents")),
            )
        )
    return FacetOut(values=values, truncated=facet.truncated)


# -- /api/taxonomy and /api/patterns ------------------------------------------------------------
@router.get("/taxonomy", response_model=TaxonomyOut)
def read_taxonomy(request: Request, store: StoreDep) -> TaxonomyOut:
    """Every taxonomy term by dimension: labels, descriptions, aliases, parent and count."""
    base = base_url(request)
    terms = {
        dim: [_taxonomy_term(store, term, base) for term in store.taxonomy.terms[dim]]
        for dim in DIMENSIONS
    }
    return TaxonomyOut(**terms)


def _taxonomy_term(store: Store, term: TermInfo, base: str) -> TaxonomyTerm:
    return TaxonomyTerm(
        slug=term.slug,
        label=_bilingual_label(term),
        description=Bilingual(en=term.description_en, ko=term.description_ko),
        aliases=list(term.aliases),
        parent=term.parent,
        count=store.counts.get((term.dimension, term.slug), 0),
        url=_term_ref(term, base).url,
    )


@router.get("/patterns", response_model=list[PatternOut])
def read_patterns(request: Request, store: StoreDep) -> list[PatternOut]:
    """The recurring gaps behind incidents ("check my cluster"), with their incidents' IDs."""
    base = base_url(request)
    out = []
    for pattern in store.patterns:
        ranks = store.ranks(store.term_bits("pattern", pattern.slug))
        ids = [row["slug"] for row in iter_rows(store, [int(r) for r in ranks])]
        out.append(
            PatternOut(
                slug=pattern.slug,
                title=Bilingual(en=pattern.title_en, ko=pattern.title_ko),
                count=len(ids),
                incidents=ids,
                url=absolute(base, f"/patterns/{pattern.slug}"),
            )
        )
    return out
