"""CSV, JSON and Atom writers for a filtered view, and the file names that say what was filtered.

The routes select rows with the one query path (`app.incidents`); everything here only shapes
them, so the API list, the exports and the feed describe an incident the same way.
"""

import csv
import io
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from feedgen.feed import FeedGenerator

from app.api_models import Bilingual, ExportItem, IncidentSummary, Source, TagSlugs
from app.facets import Filter, split_token
from app.i18n import translate
from app.incidents import IncidentCard
from app.schema import DIMENSIONS, parse_date
from app.store import Store
from app.taxonomy import Taxonomy

CHUNK = 500  # ranks read from SQLite per query while streaming an export
CSV_COLUMNS = (
    "id",
    "organization",
    "date",
    "title_en",
    "title_ko",
    *DIMENSIONS,
    "duration_minutes",
    "url",
    "source_urls",
)
MAX_FILENAME = 120
FLUSH_BYTES = 64 * 1024


def absolute(base_url: str, path: str) -> str:
    """`path` (starting with /) under the site's base URL."""
    return base_url.rstrip("/") + path


def incident_path(slug: str) -> str:
    return f"/incidents/{slug}"


# -- rows -> items -------------------------------------------------------------------------
def iter_rows(store: Store, ranks: Sequence[int]) -> Iterator[dict[str, Any]]:
    """Incident rows for `ranks`, in that order, read CHUNK ranks at a time."""
    for start in range(0, len(ranks), CHUNK):
        yield from store.rows_by_rank([int(r) for r in ranks[start : start + CHUNK]])


def _item_fields(store: Store, row: dict[str, Any], base_url: str) -> dict[str, Any]:
    # Tags straight from tags_json (not through `card`, which also parses the long body_json):
    # exports read every row of a result. Unknown slugs are dropped, as `card` does.
    tags: dict[str, list[str]] = json.loads(row["tags_json"])
    return {
        "id": row["slug"],
        "organization": row["organization"],
        "date": str(row["date"]),
        "year": int(row["year"]),
        "title": Bilingual(en=row["title_en"], ko=row["title_ko"]),
        "tags": TagSlugs(
            **{dim: [s for s in tags.get(dim, []) if store.is_known(dim, s)] for dim in DIMENSIONS}
        ),
        "duration": row.get("duration"),
        "url": absolute(base_url, incident_path(row["slug"])),
        "api_url": absolute(base_url, f"/api{incident_path(row['slug'])}"),
    }


def summary_item(store: Store, row: dict[str, Any], base_url: str) -> IncidentSummary:
    """The API's list item for one incident row."""
    return IncidentSummary(**_item_fields(store, row, base_url))


def export_item(store: Store, row: dict[str, Any], base_url: str) -> ExportItem:
    """The list item plus the incident's sources."""
    sources = [Source(**source) for source in json.loads(row["sources_json"])]
    return ExportItem(**_item_fields(store, row, base_url), sources=sources)


# -- what was filtered -----------------------------------------------------------------------
def filters_summary(filters: Filter) -> dict[str, Any]:
    """The filter as plain data, for the JSON export's `filters` member."""
    return {
        "q": filters.q,
        **{kind: list(filters.values(kind)) for kind in (*DIMENSIONS, "org")},
        "from": filters.year_from,
        "to": filters.year_to,
        "sort": filters.effective_sort,
        "query": filters.query_string(with_page=False, with_lang=False),
    }


def _ascii_slug(value: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")


def _years_part(filters: Filter) -> str:
    low, high = filters.year_from, filters.year_to
    if low is not None and high is not None:
        return str(low) if low == high else f"{low}-{high}"
    if low is not None:
        return f"from-{low}"
    if high is not None:
        return f"to-{high}"
    return ""


def export_filename(filters: Filter, extension: str) -> str:
    """An ASCII file name saying what was filtered: incidents-cause-dns-2019-2023.csv."""
    parts = ["incidents"]
    if filters.q:
        parts.append("search-" + (_ascii_slug(filters.q) or "text"))
    for kind in (*DIMENSIONS, "org"):
        values = [
            {"": "", "+": "and-", "-": "not-"}[mode] + (_ascii_slug(slug) or "x")
            for mode, slug in map(split_token, filters.values(kind))
        ]
        if values:
            parts.append("-".join((kind, *values)))
    if years := _years_part(filters):
        parts.append(years)
    stem = "-".join(parts)
    if len(stem) > MAX_FILENAME:
        stem = stem[:MAX_FILENAME].rstrip("-")
    return f"{stem}.{extension}"


def describe(filters: Filter, taxonomy: Taxonomy, lang: str) -> str:
    """What a filter selects, in words (the feed's title): 'Cause: DNS failure · 2019–2023'."""
    parts = []
    if filters.q:
        parts.append(f"“{filters.q}”")
    for kind in (*DIMENSIONS, "org"):
        values = filters.values(kind)
        if values:
            labels = ", ".join(
                translate(
                    f"chip.mode.{mode or 'any'}", lang, label=_label(taxonomy, kind, slug, lang)
                )
                for mode, slug in map(split_token, values)
            )
            parts.append(f"{translate(f'dim.{kind}', lang)}: {labels}")
    low, high = filters.year_from, filters.year_to
    if low is not None and high is not None:
        parts.append(str(low) if low == high else f"{low}–{high}")
    elif low is not None:
        parts.append(f"{translate('dim.from', lang)}: {low}")
    elif high is not None:
        parts.append(f"{translate('dim.to', lang)}: {high}")
    return " · ".join(parts)


def _label(taxonomy: Taxonomy, kind: str, slug: str, lang: str) -> str:
    term = taxonomy.get(kind, slug) if kind != "org" else None
    return term.label(lang) if term else slug


# -- CSV and JSON ---------------------------------------------------------------------------
def csv_row(item: ExportItem) -> list[str]:
    tags = item.tags.model_dump()
    return [
        item.id,
        item.organization,
        item.date,
        item.title.en,
        item.title.ko,
        *(";".join(tags[dim]) for dim in DIMENSIONS),
        "" if item.duration is None else str(item.duration),
        item.url,
        " ".join(source.url for source in item.sources),
    ]


def csv_chunks(items: Iterable[ExportItem]) -> Iterator[str]:
    """The CSV file (header first) in pieces of about FLUSH_BYTES."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for item in items:
        writer.writerow(csv_row(item))
        if buffer.tell() >= FLUSH_BYTES:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def json_chunks(filters: Filter, total: int, items: Iterable[ExportItem]) -> Iterator[str]:
    """`{"filters": {...}, "total": N, "items": [...]}` in pieces."""
    head = json.dumps({"filters": filters_summary(filters), "total": total}, ensure_ascii=False)
    pieces = [head[:-1] + ', "items": [']
    size = 0
    for index, item in enumerate(items):
        text = ("," if index else "") + item.model_dump_json()
        pieces.append(text)
        size += len(text)
        if size >= FLUSH_BYTES:
            yield "".join(pieces)
            pieces, size = [], 0
    pieces.append("]}\n")
    yield "".join(pieces)


# -- Atom -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FeedInfo:
    """The feed's own metadata: stable id, title, links, language."""

    feed_id: str
    title: str
    self_url: str
    html_url: str
    lang: str


def incident_datetime(date: str) -> datetime:
    """Midnight UTC of the incident's date; a missing month or day counts as the first."""
    year, month, day = parse_date(date)
    return datetime(year, month or 1, day or 1, tzinfo=UTC)


def _summary_text(this: IncidentCard, lang: str) -> str:
    section = this.body.get("symptom") or this.body.get("lessons") or {}
    value = section.get(lang) or section.get("en") or ""
    return " ".join(value) if isinstance(value, list) else str(value)


def atom_feed(info: FeedInfo, cards: Sequence[IncidentCard], base_url: str) -> bytes:
    """An Atom document with one entry per card, in the order given (newest first)."""
    feed = FeedGenerator()
    feed.id(info.feed_id)
    feed.title(info.title)
    feed.author({"name": "Incident Library"})
    feed.link(href=info.html_url, rel="alternate", type="text/html")
    feed.link(href=info.self_url, rel="self", type="application/atom+xml")
    feed.language(info.lang)
    dates = [incident_datetime(c.date) for c in cards]
    feed.updated(max(dates) if dates else datetime(1970, 1, 1, tzinfo=UTC))
    # feedgen prepends entries, so add the oldest first to keep newest-first output.
    for this, updated in reversed(list(zip(cards, dates, strict=True))):
        entry = feed.add_entry()
        page = absolute(base_url, incident_path(this.slug))
        entry.id(page)
        entry.title(f"{this.slug} · {this.organization}: {this.title}")
        entry.link(href=page + ("?lang=ko" if info.lang == "ko" else ""), rel="alternate")
        entry.updated(updated)
        entry.published(updated)
        entry.summary(_summary_text(this, info.lang))
        for dim in DIMENSIONS:
            for term in this.tags[dim]:
                scheme = absolute(base_url, f"/incidents?{dim}=")
                entry.category(term=term.slug, scheme=scheme, label=term.label(info.lang))
    xml: bytes = feed.atom_str(pretty=True)
    return xml
