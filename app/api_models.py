"""Response shapes of the JSON API (/api/*) and the JSON export; FastAPI documents them."""

from typing import Literal

from pydantic import BaseModel, Field


class Bilingual(BaseModel):
    """One text in both languages."""

    en: str
    ko: str


class BilingualList(BaseModel):
    """A list of texts (actions, follow-ups) in both languages."""

    en: list[str]
    ko: list[str]


class ErrorBody(BaseModel):
    """Every 4xx/5xx answer of the API: what went wrong and, for 400s, which parameter."""

    error: str = Field(description="What went wrong, in English.")
    status: int = Field(description="The HTTP status code, repeated.")
    parameter: str | None = Field(
        default=None, description="The query parameter at fault (400s only)."
    )


class TagSlugs(BaseModel):
    """An incident's tags as taxonomy slugs, per dimension."""

    cause: list[str]
    component: list[str]
    symptom: list[str]
    factor: list[str]


class IncidentSummary(BaseModel):
    """One incident in a list: enough to show a card and to follow to the whole record."""

    id: str = Field(examples=["IL-0129"])
    organization: str
    date: str = Field(description="YYYY, YYYY-MM or YYYY-MM-DD: as precise as the report is.")
    year: int
    title: Bilingual
    tags: TagSlugs
    duration: int | None = Field(
        default=None,
        description="Minutes of impact, only where the report gives when it started and ended.",
    )
    url: str = Field(description="The incident's HTML page.")
    api_url: str = Field(description="The incident's whole record in this API.")


class Source(BaseModel):
    """A report the incident is told from: the original first, then any copies."""

    url: str
    title: str
    publisher: str
    kind: Literal["original", "copy"] = Field(
        default="original", description="`copy`: a mirror or archive of the original report."
    )
    note: str | None = Field(default=None, description="e.g. that the original is gone.")


class Review(BaseModel):
    """When the summary was last compared with its report, and how much of it was read."""

    checked: str = Field(description="YYYY-MM-DD", examples=["2026-12-01"])
    read: Literal["full", "partial", "none"] = Field(
        description="full: the whole report was read; partial: only `part` of it; none: it "
        "could not be read for this check (`part` says why) and the text is unverified."
    )
    part: Bilingual | None = Field(
        default=None, description="Which part of the report could be read, or why none."
    )


class ExportItem(IncidentSummary):
    """One incident in the JSON export: the API's list item plus its sources."""

    sources: list[Source]


class PageLinks(BaseModel):
    """API URLs of this page and its neighbours (null where there is none)."""

    self: str
    first: str
    last: str
    next: str | None
    prev: str | None


class SearchCorrection(BaseModel):
    """A word no incident has, searched as the nearest word of the library instead."""

    typed: str
    searched: str
    url: str = Field(description="The same search keeping the typed spelling (quoted).")


class SearchSynonym(BaseModel):
    """A deciding word and the synonyms searched with it."""

    word: str
    also: list[str] = Field(description="Synonyms searched with it (data/synonyms.yaml).")


class SearchInfo(BaseModel):
    """How the search text `q` was read: the rule of graceful matching, applied."""

    words: list[str] = Field(description="The words that decide the match, as searched.")
    needed: int = Field(description="Every result has at least this many of `words`.")
    relaxed: bool = Field(description="True when results need not have all of `words`.")
    with_all: int = Field(description="Incidents in the library with all of `words`.")
    corrections: list[SearchCorrection]
    synonyms: list[SearchSynonym]
    ignored: list[str] = Field(description="Words too common to decide the match.")
    excluded: list[str] = Field(description="Words whose incidents are left out (-word).")
    unmatched: list[str] = Field(description="Words no incident has.")
    messages: list[str] = Field(description="The same, as the sentences the page shows.")


class IncidentList(BaseModel):
    """One page of the incidents a filter selects, in the filter's sort order."""

    total: int = Field(description="How many incidents the filter selects (all pages).")
    page: int
    pages: int
    page_size: int
    links: PageLinks
    html_url: str = Field(description="The same view as an HTML page.")
    items: list[IncidentSummary]
    search: SearchInfo | None = Field(
        default=None, description="How the search text was read (null without `q`)."
    )


class TermRef(BaseModel):
    """A taxonomy term as a tag: slug, labels, and the list filtered by it."""

    slug: str
    label: Bilingual
    url: str


class TagTerms(BaseModel):
    cause: list[TermRef]
    component: list[TermRef]
    symptom: list[TermRef]
    factor: list[TermRef]


class PatternRef(BaseModel):
    slug: str
    title: Bilingual
    url: str


class IncidentRecord(BaseModel):
    """One incident whole: every section in both languages, tags, sources, patterns, related."""

    id: str
    organization: str
    date: str
    year: int
    title: Bilingual
    symptom: Bilingual
    trigger: Bilingual
    detection: Bilingual | None
    actions: BilingualList
    follow_ups: BilingualList | None
    lessons: Bilingual
    tags: TagTerms
    sources: list[Source]
    duration: int | None = Field(
        default=None,
        description="Minutes of impact, only where the report gives when it started and ended.",
    )
    review: Review | None = Field(
        default=None, description="How the summary was checked against the report."
    )
    patterns: list[PatternRef]
    related: list[str] = Field(description="IDs of the incidents sharing the most tags.")
    url: str
    api_url: str


class FacetValueOut(BaseModel):
    """A facet value: its count given the other filters is what following `url` returns."""

    slug: str
    label: Bilingual
    count: int
    selected: bool
    url: str = Field(description="The HTML list with this value toggled.")
    api_url: str = Field(description="The API list with this value toggled.")


class FacetOut(BaseModel):
    values: list[FacetValueOut]
    truncated: bool = Field(description="True when only the biggest values are listed (org).")


class Facets(BaseModel):
    """Facet counts for a filter, exactly as the /incidents page shows them."""

    total: int
    cause: FacetOut
    component: FacetOut
    symptom: FacetOut
    factor: FacetOut
    org: FacetOut


class TaxonomyTerm(BaseModel):
    slug: str
    label: Bilingual
    description: Bilingual
    aliases: list[str]
    parent: str | None
    count: int = Field(description="Incidents in the library with this tag.")
    url: str


class TaxonomyOut(BaseModel):
    """Every term of the four dimensions, in display order."""

    cause: list[TaxonomyTerm]
    component: list[TaxonomyTerm]
    symptom: list[TaxonomyTerm]
    factor: list[TaxonomyTerm]


class PatternOut(BaseModel):
    """A recurring gap behind incidents, with the incidents that show it (newest first)."""

    slug: str
    title: Bilingual
    count: int
    incidents: list[str]
    url: str
