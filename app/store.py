"""The built database opened for serving: read-only, with facet bitsets held in memory.

Every facet value's incidents are a bitset over `sort_rank` (bit 0 = newest), computed by
`build` and loaded once per process, so filtering and every facet count are a few big-integer
ANDs and popcounts whatever the library's size. Rows are read from SQLite only for the page shown.
"""

import dataclasses
import datetime as dt
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
from sqlalchemy import Engine, text

from app import observability
from app.db import make_engine
from app.matching import COMMON, RERANK, TermHits, rerank, select
from app.pagecache import SharedPages
from app.search import Clause, Query, Synonyms, Word, clause_expression, parse_query, word_keys
from app.spelling import Speller
from app.taxonomy import Taxonomy
from app.templating import PageCache


@dataclass(frozen=True)
class PatternInfo:
    slug: str
    title_en: str
    title_ko: str
    data: dict[str, Any]

    def title(self, lang: str) -> str:
        return self.title_ko if lang == "ko" else self.title_en


@dataclass(frozen=True)
class Searched:
    """How one clause of the query was searched: as typed, or corrected, with its synonyms."""

    clause: Clause
    keys: tuple[tuple[str, ...], ...]  # per word of the clause: its key, then its synonyms'
    corrected: tuple[tuple[str, str], ...] = ()  # (as typed, as searched)
    count: int = 0  # incidents it matches on its own
    deciding: bool = True


@dataclass(frozen=True)
class SearchHits:
    """Incidents matching one search text: a bitset, the ranks in relevance order, and how
    the text was read (for the page's explanation and each card's why-matched line)."""

    bits: int
    by_relevance: np.ndarray
    query: Query = Query()
    searched: tuple[Searched, ...] = ()
    excluded: tuple[Searched, ...] = ()
    needed: int = 0  # m: deciding words every result has at least
    deciding: int = 0  # n
    with_all: int = 0  # incidents with every deciding word

    @property
    def relaxed(self) -> bool:
        return self.needed < self.deciding


class Store:
    """One opened database file and everything derived from it at load time."""

    def __init__(
        self,
        path: Path,
        *,
        search_cache_size: int = 256,
        page_cache_size: int = 256,
        page_cache_dir: Path | None = None,
    ) -> None:
        self.path = path
        self.identity = _identity(path)
        self.engine: Engine = make_engine(path, read_only=True)
        with self.engine.connect() as conn:
            self.taxonomy = Taxonomy.load(conn)
            self.total = int(conn.execute(text("SELECT COUNT(*) FROM incident")).scalar_one())
            self.meta: dict[str, str] = {
                str(k): str(v) for k, v in conn.execute(text("SELECT key, value FROM meta"))
            }
            self.bits: dict[tuple[str, str], int] = {}
            self.counts: dict[tuple[str, str], int] = {}
            for kind, key, count, blob in conn.execute(
                text("SELECT kind, key, count, bits FROM bitset")
            ):
                self.bits[(kind, key)] = int.from_bytes(blob, "little")
                self.counts[(kind, key)] = count
            self.patterns = [
                PatternInfo(slug, t_en, t_ko, json.loads(data))
                for slug, t_en, t_ko, data in conn.execute(
                    text(
                        "SELECT slug, title_en, title_ko, data_json FROM pattern ORDER BY position"
                    )
                )
            ]
        self.all_bits = (1 << self.total) - 1
        self.nbytes = (self.total + 7) // 8
        self.orgs = sorted(
            (key for kind, key in self.bits if kind == "org"),
            key=lambda org: (-self.counts[("org", org)], org.lower()),
        )
        self.org_lookup = {org.casefold(): org for org in self.orgs}
        self.years = sorted(int(key) for kind, key in self.bits if kind == "year")
        # Organisation and year are single-valued: one array each (rank -> index) lets a facet
        # count every value at once with numpy.bincount instead of one AND per value.
        org_index = {org: i for i, org in enumerate(self.orgs)}
        self.org_of_rank = np.zeros(self.total, dtype=np.int32)
        self.year_of_rank = np.zeros(self.total, dtype=np.int32)
        with self.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT id, sort_rank, organization, year, duration FROM incident")
            ).all()
        # FTS5 answers with rowids; this maps them to sort ranks without a join per hit.
        self.rank_of_id = np.zeros(max((r[0] for r in rows), default=0) + 1, dtype=np.int64)
        duration = np.full(self.total, -1, dtype=np.int64)
        for rowid, rank, org, year, minutes in rows:
            self.rank_of_id[rowid] = rank
            self.org_of_rank[rank] = org_index[org]
            self.year_of_rank[rank] = year
            if minutes is not None:
                duration[rank] = minutes
        # sort=longest: longest impact first, newest first among equals, unknown durations last.
        self.longest_order = np.lexsort((np.arange(self.total), -duration)).astype(np.int64)
        self.pattern_by_slug = {p.slug: p for p in self.patterns}
        build = self.meta.get("build_id") or "{}-{}".format(*self.identity)
        shared = SharedPages(page_cache_dir, build, page_cache_size) if page_cache_dir else None
        self.pages = PageCache(page_cache_size, shared)
        self._search_cache: OrderedDict[str, SearchHits] = OrderedDict()
        self._search_cache_size = search_cache_size
        self._term_cache: OrderedDict[str, TermHits] = OrderedDict()
        self._term_cache_size = 4 * search_cache_size
        self._term_cache_hits = 0  # incidents held by the cached terms, all together
        self._lock = threading.Lock()
        with self.engine.connect() as conn:
            groups: dict[int, list[str]] = {}
            for group, entry in conn.execute(
                text("SELECT group_id, entry FROM searchsynonym ORDER BY group_id, position")
            ):
                groups.setdefault(group, []).append(entry)
            self.synonyms = Synonyms.of(groups.values())
            words = conn.execute(text("SELECT word, docs FROM searchword"))
            docs = {str(word): int(docs) for word, docs in words}
            # Synonym entries are words people type even where no incident writes them
            # (쿠버네티스 when the text says Kubernetes): a typo of one is corrected to it.
            for key in self.synonyms.groups:
                if " " not in key:
                    docs.setdefault(key, 1)
            self.speller = Speller(docs)

    # -- facts -----------------------------------------------------------------------------
    @property
    def content_id(self) -> str:
        """The built data's identity (same data, same id, on every replica)."""
        return str(self.meta.get("content_id") or f"{self.identity[0]}-{self.identity[1]}")

    @property
    def built_at(self) -> dt.datetime:
        """When the database was built (UTC); the file's time for databases built before."""
        if stamp := self.meta.get("built_at"):  # seconds since the epoch, as the build writes it
            return dt.datetime.fromtimestamp(int(float(stamp)), dt.UTC)
        return dt.datetime.fromtimestamp(self.identity[1] // 10**9, dt.UTC)

    def is_known(self, dimension: str, value: str) -> bool:
        if dimension == "org":
            return ("org", value) in self.counts
        return self.taxonomy.get(dimension, value) is not None

    def canonical_org(self, value: str) -> str | None:
        """The organisation's spelling in the data for a case-insensitive match."""
        return self.org_lookup.get(value.casefold())

    def term_bits(self, kind: str, key: str) -> int:
        return self.bits.get((kind, key), 0)

    # -- bit helpers -----------------------------------------------------------------------
    def ranks(self, bits: int) -> np.ndarray:
        """Sort ranks of the set bits, ascending (newest first)."""
        if not bits:
            return np.empty(0, dtype=np.int64)
        raw = np.frombuffer(bits.to_bytes(self.nbytes, "little"), dtype=np.uint8)
        return np.flatnonzero(np.unpackbits(raw, bitorder="little"))

    def first_ranks(self, bits: int, count: int) -> list[int]:
        """The `count` lowest set bits (the newest incidents), without unpacking the bitset."""
        out: list[int] = []
        while bits and len(out) < count:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out

    def bincount(self, bits: int, values: np.ndarray, size: int) -> np.ndarray:
        """How many selected incidents have each value of a single-valued column."""
        if not bits:
            return np.zeros(size, dtype=np.int64)
        return np.bincount(values[self.mask(bits)], minlength=size)

    def mask(self, bits: int) -> np.ndarray:
        raw = np.frombuffer(bits.to_bytes(self.nbytes, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[: self.total].astype(bool)

    # -- search ----------------------------------------------------------------------------
    def search(self, q: str) -> SearchHits:
        """Incidents matching q by the rule of app/matching.py (cached by text, bounded LRU)."""
        with self._lock:
            hit = self._search_cache.get(q)
            if hit is not None:
                self._search_cache.move_to_end(q)
        observability.count_cache("search", "miss" if hit is None else "hit")
        if hit is not None:
            return hit
        hits = self._search_uncached(q)
        with self._lock:
            self._search_cache[q] = hits
            while len(self._search_cache) > self._search_cache_size:
                self._search_cache.popitem(last=False)
        return hits

    def _search_uncached(self, q: str) -> SearchHits:
        query = parse_query(q, self.synonyms)
        if query.empty:
            return SearchHits(0, np.empty(0, dtype=np.int64), query)
        searched = [self._searched(clause, correct=True) for clause in query.clauses]
        excluded = [self._searched(clause, correct=False) for clause in query.excluded]
        selection = select(
            self.total,
            [hits for _, hits in searched],
            required=[i for i, c in enumerate(query.clauses) if c.required],
            excluded=[hits for _, hits in excluded],
        )
        deciding = set(selection.deciding)
        typed = [
            c.words[0].key
            for i, c in enumerate(query.clauses)
            if i in deciding and len(c.words) == 1 and not c.words[0].korean
        ]
        order = selection.order
        if typed and len(order) > 1:
            order = rerank(selection, self._texts([int(r) for r in order[:RERANK]]), typed)
        bits = int.from_bytes(
            np.packbits(
                np.pad(selection.mask, (0, self.nbytes * 8 - self.total)), bitorder="little"
            ).tobytes(),
            "little",
        )
        return SearchHits(
            bits,
            order.astype(np.int32),
            query,
            tuple(
                dataclasses.replace(info, deciding=i in deciding)
                for i, (info, _) in enumerate(searched)
            ),
            tuple(info for info, _ in excluded),
            selection.needed,
            len(selection.deciding),
            selection.with_all,
        )

    def _searched(self, clause: Clause, *, correct: bool) -> tuple[Searched, TermHits]:
        """A clause's hits; a word no incident has is corrected to the nearest known word."""
        hits = self._term(clause_expression(clause, self.synonyms))
        corrections: list[tuple[str, str]] = []
        if not hits.count and correct:
            words: list[Word] = []
            for word in clause.words:
                fixed = self.speller.correct(word)
                if fixed is None:
                    words.append(word)
                else:
                    corrections.append((word.text, fixed))
                    words.append(Word(word.text, fixed, word.korean))
            if corrections:
                clause = Clause(tuple(words), clause.required)
                hits = self._term(clause_expression(clause, self.synonyms))
        keys = tuple(word_keys(w, self.synonyms) for w in clause.words)
        return Searched(clause, keys, tuple(corrections), hits.count), hits

    def _term(self, expression: str) -> TermHits:
        """One clause's incidents and bm25 scores, over the whole library (cached)."""
        with self._lock:
            hit = self._term_cache.get(expression)
            if hit is not None:
                self._term_cache.move_to_end(expression)
                return hit
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            count = cursor.execute(
                "SELECT count(*) FROM incident_fts WHERE incident_fts MATCH ?", (expression,)
            ).fetchone()[0]
            if count > COMMON * self.total:
                # In most of the library: bm25 gives it no weight (FTS5 clamps its IDF to ~0),
                # and it does not decide the match, so its rowids are all that is needed.
                cursor.execute(
                    "SELECT rowid FROM incident_fts WHERE incident_fts MATCH ?", (expression,)
                )
                rows = cast(Iterable[tuple[int]], cursor)
                rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=count)
                scores = np.zeros(count, dtype=np.float64)
            else:
                cursor.execute(
                    "SELECT rowid, -bm25(incident_fts, ?, ?, ?, ?) FROM incident_fts"
                    " WHERE incident_fts MATCH ?",
                    (*FIELD_WEIGHTS, expression),
                )
                pairs = np.fromiter(
                    cast(Iterable[tuple[int, float]], cursor), np.dtype((np.float64, 2)), count
                )
                rowids, scores = pairs[:, 0].astype(np.int64), pairs[:, 1]
            cursor.close()
        finally:
            raw.close()
        hits = TermHits(
            self.rank_of_id[rowids].astype(np.int32), scores.astype(np.float32, copy=False)
        )
        with self._lock:
            if expression not in self._term_cache:
                self._term_cache[expression] = hits
                self._term_cache_hits += hits.count
            # Bounded by entries and by size: a word in every incident holds 8 bytes each.
            while len(self._term_cache) > self._term_cache_size or (
                self._term_cache_hits > TERM_CACHE_HITS and len(self._term_cache) > 1
            ):
                _, dropped = self._term_cache.popitem(last=False)
                self._term_cache_hits -= dropped.count
        return hits

    def _texts(self, ranks: list[int]) -> dict[int, str]:
        """Title and English body of a few incidents, for the phrase and exact-word boosts."""
        if not ranks:
            return {}
        placeholders = ",".join(str(r) for r in ranks)
        rows = self._fetchall(
            "SELECT sort_rank, title_en, body_json FROM incident"
            f" WHERE sort_rank IN ({placeholders})"
        )
        return {rank: f"{title} {body}" for rank, title, body in rows}

    # -- rows ------------------------------------------------------------------------------
    def rows_by_rank(self, ranks: list[int], *, light: bool = False) -> list[dict[str, Any]]:
        """Incident rows for the given sort ranks, in that order.

        `light` leaves out the long text (body and sources) for lists that show only titles.
        """
        if not ranks:
            return []
        columns = LIGHT_COLUMNS if light else ROW_COLUMNS
        placeholders = ",".join(str(int(r)) for r in ranks)
        rows = self._fetchall(
            f"SELECT {', '.join(columns)} FROM incident WHERE sort_rank IN ({placeholders})"
        )
        by_rank = {row[4]: dict(zip(columns, row, strict=True)) for row in rows}
        return [by_rank[r] for r in ranks if r in by_rank]

    def _fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Plain tuples through the DB-API cursor: no Row objects for thousands of hits."""
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute(sql, params)
            rows = [tuple(row) for row in cursor.fetchall()]
            cursor.close()
        finally:
            raw.close()
        return rows

    def row_by_slug(self, slug: str) -> dict[str, Any] | None:
        rows = self._fetchall(
            f"SELECT {', '.join(ROW_COLUMNS)} FROM incident WHERE slug = ?", (slug,)
        )
        return dict(zip(ROW_COLUMNS, rows[0], strict=True)) if rows else None


# bm25 weights of the FTS columns: title (with the ID), organisation, tags (labels, aliases,
# slugs), body. A word in the title or naming the organisation says more than one in the text.
FIELD_WEIGHTS = (8.0, 6.0, 3.0, 1.0)
TERM_CACHE_HITS = 8_000_000  # at most ~64 MB of cached per-word hits per process


ROW_COLUMNS = (
    "slug", "organization", "date", "year", "sort_rank", "title_en", "title_ko",
    "body_json", "tags_json", "sources_json", "patterns_json", "duration", "review_json",
)  # fmt: skip
LIGHT_COLUMNS = ROW_COLUMNS[:7] + ("tags_json", "patterns_json", "duration")


def _identity(path: Path) -> tuple[int, int]:
    stat = os.stat(path)
    return (stat.st_ino, stat.st_mtime_ns)


class StoreHolder:
    """Hands out the current Store; reopens it when `build` has swapped in a new file."""

    def __init__(
        self,
        path: Path,
        *,
        search_cache_size: int = 256,
        page_cache_size: int = 256,
        page_cache_dir: Path | None = None,
        on_load: Callable[["Store"], None] | None = None,
    ) -> None:
        self.path = path
        self.search_cache_size = search_cache_size
        self.page_cache_size = page_cache_size
        self.page_cache_dir = page_cache_dir
        self.on_load = on_load
        self._store: Store | None = None
        self._lock = threading.Lock()
        self._loader: threading.Thread | None = None
        self._load_error: tuple[tuple[int, int], str] | None = None

    def loaded(self) -> bool:
        return self._store is not None

    def load_error(self) -> str | None:
        """Why the background load of the file now at `path` failed (None: it did not)."""
        if self._load_error is None:
            return None
        try:
            current = _identity(self.path)
        except FileNotFoundError:
            return None
        failed_on, reason = self._load_error
        return reason if failed_on == current else None

    def load_in_background(self) -> None:
        """Open the database on a thread of its own (once), so the server answers meanwhile."""
        with self._lock:
            if self._store is not None or (self._loader is not None and self._loader.is_alive()):
                return
            self._loader = threading.Thread(target=self._load_quietly, daemon=True)
            self._loader.start()

    def _load_quietly(self) -> None:
        try:
            identity = _identity(self.path)
            self.get()
        except Exception as error:  # reported by /readyz, not by a dead thread
            observability.LOG.error("cannot open the database at %s: %s", self.path, error)
            self._load_error = (identity, str(error))

    def get(self) -> Store:
        store = self._store
        try:
            current = _identity(self.path)
        except FileNotFoundError:
            current = None
        if store is not None and (current is None or store.identity == current):
            return store
        with self._lock:
            if self._store is None or (current is not None and self._store.identity != current):
                old = self._store
                self._store = Store(
                    self.path,
                    search_cache_size=self.search_cache_size,
                    page_cache_size=self.page_cache_size,
                    page_cache_dir=self.page_cache_dir,
                )
                if old is not None:
                    old.engine.dispose()
                if self.on_load is not None:
                    self.on_load(self._store)
            return self._store
