"""data/ -> validated IncidentFile values -> a new SQLite file built through the migrations.

`build` writes into a temporary file beside the target and swaps it in with os.replace only when
every file validated, so the previous database is untouched by a failed build and a server that
has it open keeps answering.
"""

import gc
import hashlib
import io
import json
import os
import sqlite3
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice, repeat
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import yaml
from alembic import command
from alembic.config import Config
from pydantic import ValidationError

from app.checks.patterns import PatternsError, load_patterns
from app.config import bundled
from app.datafiles import load_json, load_yaml
from app.fulltext import FullTextWriter
from app.indexing import WordCounter, column_text, indexed, joined
from app.pool import OrderedPool
from app.schema import DIMENSIONS, IncidentFile, SynonymsFile, TaxonomyFile
from app.search import index_text, normal_key


@dataclass(frozen=True)
class Problem:
    """One reason a data file is invalid: where, which field, why."""

    path: str
    field: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.field}: {self.reason}"


class DataError(Exception):
    """The data directory has invalid files; `problems` lists every one found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(f"{len(problems)} problem(s) in the data")
        self.problems = problems


def _problems_from(path: str, error: ValidationError, prefix: str = "") -> list[Problem]:
    out = []
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "(file)"
        out.append(Problem(path, prefix + field, item["msg"]))
    return out


def load_taxonomy(data_dir: Path) -> TaxonomyFile:
    """:raises DataError: when taxonomy.yaml is missing or invalid."""
    path = data_dir / "taxonomy.yaml"
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError([Problem(str(path), "(file)", "missing")]) from None
    except yaml.YAMLError as exc:
        raise DataError([Problem(str(path), "(file)", f"not valid YAML: {exc}")]) from None
    try:
        taxonomy = TaxonomyFile.model_validate(raw)
    except ValidationError as exc:
        raise DataError(_problems_from(str(path), exc)) from None
    problems = []
    for dim in DIMENSIONS:
        slugs = [t.slug for t in getattr(taxonomy, dim)]
        for slug in {s for s in slugs if slugs.count(s) > 1}:
            problems.append(Problem(str(path), f"{dim}.{slug}", "duplicate slug"))
        for term in getattr(taxonomy, dim):
            if term.parent and term.parent not in slugs:
                problems.append(Problem(str(path), f"{dim}.{term.slug}.parent", "unknown term"))
            for other in term.excludes:
                if other not in slugs or other == term.slug:
                    where = f"{dim}.{term.slug}.excludes"
                    problems.append(Problem(str(path), where, f"'{other}' is not another {dim}"))
    if problems:
        raise DataError(problems)
    return taxonomy


def load_synonyms(data_dir: Path) -> list[list[str]]:
    """data/synonyms.yaml as lists of entries ([] when the optional file is absent).

    :raises DataError: when the file is invalid, an entry has no searchable word, or an entry
        appears twice (in one group or in two).
    """
    path = data_dir / "synonyms.yaml"
    if not path.exists():
        return []
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise DataError([Problem(str(path), "(file)", f"not valid YAML: {exc}")]) from None
    try:
        synonyms = SynonymsFile.model_validate(raw)
    except ValidationError as exc:
        raise DataError(_problems_from(str(path), exc)) from None
    problems = []
    seen: dict[str, str] = {}
    for number, group in enumerate(synonyms.groups):
        for position, entry in enumerate(group):
            where = f"groups.{number}.{position}"
            key = normal_key(entry)
            if not key:
                problems.append(Problem(str(path), where, f"'{entry}' has no searchable word"))
            elif key in seen:
                problems.append(
                    Problem(str(path), where, f"'{entry}' is already listed at {seen[key]}")
                )
            else:
                seen[key] = where
    if problems:
        raise DataError(problems)
    return [list(group) for group in synonyms.groups]


def load_patterns_raw(data_dir: Path) -> list[dict[str, Any]]:
    """data/patterns.yaml as a list of mappings ([] when the optional file is absent).

    :raises DataError: when the file is present but invalid.
    """
    path = data_dir / "patterns.yaml"
    if not path.exists():
        return []
    try:
        patterns = load_patterns(data_dir)
    except PatternsError as exc:
        raise DataError([Problem(str(path), "(pattern)", str(exc))]) from None
    return [p.model_dump(mode="json") for p in patterns]


class Part(NamedTuple):
    """Where some incidents are: a YAML file, or `lines` lines of a JSON Lines file starting
    at byte `offset` (the first is line number `first`)."""

    path: str
    form: str  # "yaml" or "json"
    offset: int = 0
    size: int = 0  # bytes
    first: int = 1
    lines: int = 1


def iter_parts(data_dir: Path, lines: int) -> Iterator[Part]:
    """Every incident file, and every JSON Lines file in runs of at most `lines` lines.

    Finding where the runs start reads the files once, line by line, without keeping them:
    what is in the lines is read where it is prepared (`read_part`), in the workers for bulk
    data.
    """
    folder = data_dir / "incidents"
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir()):
        if path.suffix in (".yaml", ".yml"):
            yield Part(str(path), "yaml")
        elif path.suffix == ".jsonl":
            offset, first = 0, 1
            with path.open("rb") as handle:
                while sizes := list(map(len, islice(handle, lines))):
                    yield Part(str(path), "json", offset, sum(sizes), first, len(sizes))
                    offset += sum(sizes)
                    first += len(sizes)


def read_part(part: Part) -> Iterator[tuple[str, str, bytes]]:
    """(location, form, bytes) for the part's file, or each of its lines that is not blank.

    Bytes, decoded by `parse`: for bulk data that is in the worker processes, where a line
    that is not UTF-8 becomes a problem like any other instead of stopping the build.
    """
    if part.form == "yaml":
        yield part.path, "yaml", Path(part.path).read_bytes()
        return
    with open(part.path, "rb") as handle:
        handle.seek(part.offset)
        data = handle.read(part.size)
    for number, line in enumerate(io.BytesIO(data), start=part.first):
        if line.strip():
            yield f"{part.path}:{number}", "json", line


def iter_sources(data_dir: Path) -> Iterator[tuple[str, str, bytes]]:
    """(location, form, bytes) for every incident file and JSON Lines line, streamed."""
    for part in iter_parts(data_dir, BATCH):
        yield from read_part(part)


def parse(where: str, form: str, data: bytes) -> Any:
    """The raw record; _Broken with the reason it cannot be read; BLANK for a line of
    whitespace."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _Broken(f"not valid UTF-8: {exc}")
    try:
        if form == "yaml":
            # Line ends as a text-mode read gives them.
            return load_yaml(text.replace("\r\n", "\n").replace("\r", "\n"))
        return load_json(text) if text.strip() else BLANK
    except yaml.YAMLError as exc:
        return _Broken(f"not valid YAML: {exc}")
    except ValueError as exc:  # json.JSONDecodeError, or a key written twice
        return _Broken(f"not valid JSON: {exc}")


def iter_incident_records(data_dir: Path) -> Iterator[tuple[str, Any]]:
    """(location, raw record) for every incident, streamed."""
    for where, form, data in iter_sources(data_dir):
        raw = parse(where, form, data)
        if raw is not BLANK:
            yield where, raw


@dataclass(frozen=True)
class _Broken:
    reason: str


BLANK = _Broken("blank line")


@dataclass(frozen=True)
class Vocabulary:
    """What an incident may name: tag slugs by dimension, pattern slugs; each term's text for
    search (labels, aliases, slug); the ids the build gives terms and patterns (1, 2, ... in
    the files' order)."""

    slugs: dict[str, frozenset[str]]
    patterns: frozenset[str]
    texts: dict[tuple[str, str], str]
    term_ids: dict[tuple[str, str], int]
    pattern_ids: dict[str, int]
    excludes: dict[tuple[str, str], frozenset[str]]  # (dim, slug) -> slugs never beside it

    @classmethod
    def of(cls, taxonomy: TaxonomyFile, pattern_slugs: list[str]) -> "Vocabulary":
        terms = [(dim, t) for dim in DIMENSIONS for t in getattr(taxonomy, dim)]
        return cls(
            slugs={dim: frozenset(t.slug for d, t in terms if d == dim) for dim in DIMENSIONS},
            patterns=frozenset(pattern_slugs),
            texts={
                (d, t.slug): " ".join((t.label.en, t.label.ko, *t.aliases, t.slug))
                for d, t in terms
            },
            term_ids={(d, t.slug): n for n, (d, t) in enumerate(terms, start=1)},
            pattern_ids={slug: n for n, slug in enumerate(pattern_slugs, start=1)},
            excludes={(d, t.slug): frozenset(t.excludes) for d, t in terms if t.excludes},
        )


class Prepared(NamedTuple):
    """A valid incident turned into the values `build` writes (work done in worker processes).

    A named tuple, not a dataclass: a batch of them crosses from a worker process to the
    writer, and tuples pickle quickly.
    """

    id: str
    where: str
    row: tuple[Any, ...]
    terms: tuple[int, ...]  # term ids (Vocabulary.term_ids) of its tags
    patterns: tuple[int, ...]  # pattern ids
    fts: tuple[bytes, ...]  # the FTS_COLUMNS in UTF-8: SQLite takes them as they are
    content: bytes  # what the incident adds to the database's content id


@dataclass
class Batch:
    """Consecutive incidents prepared together, and how many of them use each vocabulary word
    (for typo correction), counted where they were prepared."""

    incidents: list[Prepared | list[Problem]]
    words: Counter[str]


SECTIONS = ("symptom", "trigger", "detection", "actions", "follow_ups", "lessons")
_DUMPED = {*SECTIONS, "tags", "sources"}
FTS_COLUMNS = ("title", "organization", "tags", "body")  # Prepared.fts, in this order
_VOCABULARY: Vocabulary | None = None
_WORDS: WordCounter | None = None


def _set_vocabulary(vocabulary: Vocabulary) -> None:
    """Start preparing a build's incidents in this process."""
    global _VOCABULARY, _WORDS
    _VOCABULARY = vocabulary
    _WORDS = WordCounter()


def prepare_batch(parts: list[Part]) -> Batch:
    """prepare() over the incidents of consecutive parts."""
    words = _WORDS
    assert words is not None, "call _set_vocabulary first"
    incidents = [prepare(item, words) for part in parts for item in read_part(part)]
    return Batch(incidents, words.counts())


def _start_worker(vocabulary: Vocabulary) -> None:
    """A worker process of the build's pool: no automatic garbage collection.

    Parsing and validating allocate containers by the million, and the collections CPython
    starts every 700 of them (which walk the young objects, and now and then everything the
    worker holds) took a tenth of a worker's time. The worker collects its young objects once
    per batch instead (`_prepare_in_worker`); it ends with the build.
    """
    gc.disable()
    _set_vocabulary(vocabulary)


def _prepare_in_worker(parts: list[Part]) -> Batch:
    batch = prepare_batch(parts)
    gc.collect(0)
    return batch


def prepare(item: tuple[str, str, bytes], words: WordCounter) -> Prepared | list[Problem]:
    """Parse, validate and shape one incident, counting its vocabulary words; problems instead
    when it is invalid."""
    where, form, data = item
    vocabulary = _VOCABULARY
    assert vocabulary is not None, "call _set_vocabulary first"
    raw = parse(where, form, data)
    if raw is BLANK:
        return []
    if isinstance(raw, _Broken):
        return [Problem(where, "(file)", raw.reason)]
    try:
        incident = IncidentFile.model_validate(raw)
    except ValidationError as exc:
        return _problems_from(where, exc)
    found = []
    if form == "yaml" and Path(where).stem != incident.id:
        found.append(Problem(where, "id", f"{incident.id} does not match the file name"))
    for dim in DIMENSIONS:
        tags = getattr(incident.tags, dim)
        for slug in tags:
            if slug not in vocabulary.slugs[dim]:
                found.append(Problem(where, f"tags.{dim}", f"unknown {dim} '{slug}'"))
            for other in sorted(vocabulary.excludes.get((dim, slug), frozenset()) & set(tags)):
                found.append(
                    Problem(where, f"tags.{dim}", f"'{slug}' is not tagged together with '{other}'")
                )
    for slug in incident.patterns:
        if slug not in vocabulary.patterns:
            found.append(Problem(where, "patterns", f"unknown pattern '{slug}'"))
    if found:
        return found
    return _shape(where, incident, vocabulary, words)


def _shape(
    where: str, incident: IncidentFile, vocabulary: Vocabulary, words: WordCounter
) -> Prepared:
    year, month, day = incident.date_parts
    dumped = incident.model_dump(include=_DUMPED)  # one call, not one per section and source
    body = {name: dumped[name] for name in SECTIONS if dumped[name] is not None}
    tags = dumped["tags"]
    texts: list[str] = []
    for value in body.values():
        for lang in ("en", "ko"):
            item = value[lang]
            texts.extend(item if isinstance(item, list) else [item])
    pairs = tuple(dict.fromkeys((dim, slug) for dim in DIMENSIONS for slug in tags[dim]))
    row = (
        incident.id,
        incident.organization,
        str(incident.date),
        year,
        month,
        day,
        incident.title.en,
        incident.title.ko,
        json.dumps(body, ensure_ascii=False),
        json.dumps(tags, ensure_ascii=False),
        json.dumps(dumped["sources"], ensure_ascii=False),
        json.dumps(incident.patterns),
        incident.duration,
        incident.review.model_dump_json() if incident.review else None,
    )
    # The four columns are app/search.py's index_text of the title (with the ID), the
    # organisation, the tags (each term's labels, aliases and slug, space-separated) and the
    # sections; the words are words_of all four. app/indexing.py gets the same text quicker.
    title = f"{incident.id} {incident.title.en} {incident.title.ko}"
    organization = indexed(incident.organization)
    tag_texts = [indexed(vocabulary.texts[pair]) for pair in pairs]
    body_text = " ".join(texts)
    columns = (index_text(title), organization.column, joined(tag_texts), column_text(body_text))
    fts = tuple(column.encode() for column in columns)
    # words_of the title and the sections at once: no word spans the space between them.
    words.add(f"{title} {body_text}", [organization.words, *(tag.words for tag in tag_texts)])
    patterns = tuple(incident.patterns)
    content = repr((row, pairs, patterns)).encode()
    terms = tuple(vocabulary.term_ids[pair] for pair in pairs)
    pattern_ids = tuple(vocabulary.pattern_ids[slug] for slug in patterns)
    return Prepared(incident.id, where, row, terms, pattern_ids, fts, content)


@contextmanager
def prepared_batches(data_dir: Path, vocabulary: Vocabulary) -> Iterator[Iterator[Batch]]:
    """prepare_batch() over every incident in order: in worker processes for bulk (JSON Lines)
    data. The workers start at once and keep a few batches ahead of the caller (memory stays
    bounded whatever the size of the library), so they prepare while `build` migrates."""
    _set_vocabulary(vocabulary)
    batches = _batched(iter_parts(data_dir, BATCH), BATCH)
    bulk = any(p.suffix == ".jsonl" for p in (data_dir / "incidents").glob("*.jsonl"))
    workers = os.cpu_count() or 1
    if not bulk or workers < 2:
        yield map(prepare_batch, batches)
        return
    with OrderedPool(workers, _prepare_in_worker, _start_worker, (vocabulary,)) as pool:
        yield pool.imap(batches, ahead=2 * workers + 1)


BATCH = 1000
CACHE_KIB = 64 * 1024  # SQLite's page cache while building


def _batched(parts: Iterator[Part], size: int) -> Iterator[list[Part]]:
    """Consecutive parts, up to `size` incidents (or lines) together."""
    batch: list[Part] = []
    room = size
    for part in parts:
        if part.lines > room and batch:
            yield batch
            batch, room = [], size
        batch.append(part)
        room -= part.lines
    if batch:
        yield batch


def _checked(
    batches: Iterator[Batch], problems: list[Problem]
) -> Iterator[tuple[list[Prepared], Counter[str]]]:
    """Each batch's valid incidents with unique IDs, and its word counts; every problem is
    appended to `problems`."""
    seen: dict[str, str] = {}
    for batch in batches:
        valid = []
        for result in batch.incidents:
            if isinstance(result, list):
                problems.extend(result)
                continue
            if result.id in seen:
                problems.append(Problem(result.where, "id", f"duplicate of {seen[result.id]}"))
                continue
            seen[result.id] = result.where
            valid.append(result)
        yield valid, batch.words


def validate(data_dir: Path) -> int:
    """Validate every file; returns the number of incidents.

    :raises DataError: listing every problem found.
    """
    taxonomy = load_taxonomy(data_dir)
    patterns = load_patterns_raw(data_dir)
    load_synonyms(data_dir)
    vocabulary = Vocabulary.of(taxonomy, [p["slug"] for p in patterns])
    problems: list[Problem] = []
    with prepared_batches(data_dir, vocabulary) as batches:
        count = sum(len(valid) for valid, _ in _checked(batches, problems))
    if problems:
        raise DataError(problems)
    return count


def migrate(db_path: Path) -> None:
    """Bring the file at db_path to the newest schema through the Alembic migrations."""
    config = Config(str(bundled("alembic.ini")))
    config.set_main_option("script_location", str(bundled("migrations")))
    config.set_main_option("sqlalchemy.url", f"sqlite:///{db_path}")
    command.upgrade(config, "head")


def build(data_dir: Path, db_path: Path) -> int:
    """Build db_path from data_dir; returns the number of incidents.

    :raises DataError: when any file is invalid (db_path is then left as it was).
    """
    started = time.time()
    taxonomy = load_taxonomy(data_dir)
    patterns = load_patterns_raw(data_dir)
    synonyms = load_synonyms(data_dir)
    db_path = db_path.resolve()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(f".{db_path.name}.tmp-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    vocabulary = Vocabulary.of(taxonomy, [p["slug"] for p in patterns])
    try:
        with prepared_batches(data_dir, vocabulary) as batches:
            migrate(tmp)  # while the workers prepare the first incidents
            count = _load(tmp, batches, vocabulary, data_dir, taxonomy, patterns, synonyms, started)
        os.replace(tmp, db_path)
    finally:
        tmp.unlink(missing_ok=True)
        tmp.with_name(tmp.name + ".fts").unlink(missing_ok=True)
    return count


def _load(
    db: Path,
    batches: Iterator[Batch],
    vocabulary: Vocabulary,
    data_dir: Path,
    taxonomy: TaxonomyFile,
    patterns: list[dict[str, Any]],
    synonyms: list[list[str]],
    started: float,
) -> int:
    conn = sqlite3.connect(db)
    try:
        # A new file that replaces the database only once complete (build): no rollback
        # journal, no waiting for the disk, and pages the build reads again kept in memory.
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        conn.execute("BEGIN")
        _insert_terms(conn, taxonomy, vocabulary)
        _insert_patterns(conn, patterns, vocabulary)
        problems: list[Problem] = []
        count = 0
        # The content's identity: the same data gives the same id on every replica that builds
        # it, so HTTP validators (ETag) agree across replicas and change only with the data.
        content = hashlib.sha256(taxonomy.model_dump_json().encode())
        content.update(json.dumps(patterns, sort_keys=True, ensure_ascii=False).encode())
        content.update(json.dumps(synonyms, ensure_ascii=False).encode())
        words: Counter[str] = Counter()
        parents = {t.slug: t.parent for t in taxonomy.component if t.parent}
        facets = _Facets(vocabulary, parents)
        fulltext = FullTextWriter(conn, db.with_name(db.name + ".fts"), FTS_COLUMNS)
        deferred = _drop_indexes(conn)
        try:
            for valid, batch_words in _checked(batches, problems):
                if not problems:  # after the first problem, keep validating but stop writing
                    rows = _insert_incidents(conn, valid, count, facets)
                    fulltext.add(rows)
                    for incident in valid:
                        content.update(incident.content)
                    words.update(batch_words)
                count += len(valid)
            if problems:
                raise DataError(problems)
            fulltext.finish()  # the index is merged on its thread while this one goes on
            _insert_search_words(conn, words, synonyms)
            facets.write(conn)
            for sql in deferred:
                conn.execute(sql)
            conn.commit()
            fulltext.copy_into(conn)
        finally:
            fulltext.close()
        conn.execute("BEGIN")
        # What /readyz and /metrics say about the served file: which build, when, how long.
        # Two ids on purpose: content_id names the data (taxonomy, patterns, synonyms and
        # incidents; equal on every replica that builds the same data, so ETags agree across
        # replicas); build_id names this file (new on every build: the /metrics label and the
        # key of the page cache that workers share, which must never outlive its file).
        conn.executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?)",
            [
                ("incidents", str(count)),
                ("source", str(data_dir)),
                ("content_id", content.hexdigest()[:32]),
                ("build_id", uuid.uuid4().hex),
                ("built_at", f"{time.time():.3f}"),
                ("build_seconds", f"{time.time() - started:.3f}"),
            ],
        )
        conn.commit()
        conn.execute("ANALYZE")
        conn.commit()
    finally:
        conn.close()
    return count


def _drop_indexes(conn: sqlite3.Connection) -> list[str]:
    """Drop the incident tables' secondary indexes (not the unique ones); returns the
    statements that make them again, as the migrations wrote them.

    Made once over the finished tables, an index is one sort; kept up to date row by row,
    it was a B-tree insert per row, and for sort_rank two (once as 0, once ranked).
    """
    found = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        " AND tbl_name IN ('incident', 'incidentterm', 'incidentpattern')"
        " AND sql NOT LIKE 'CREATE UNIQUE %'"
    ).fetchall()
    for name, _ in found:
        conn.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in found]


def _insert_terms(conn: sqlite3.Connection, taxonomy: TaxonomyFile, vocabulary: Vocabulary) -> None:
    rows: list[tuple[Any, ...]] = []
    for dim in DIMENSIONS:
        for term in getattr(taxonomy, dim):
            rows.append(
                (
                    vocabulary.term_ids[(dim, term.slug)],
                    dim,
                    term.slug,
                    len(rows),
                    term.parent,
                    term.label.en,
                    term.label.ko,
                    term.description.en,
                    term.description.ko,
                    json.dumps(term.aliases, ensure_ascii=False),
                )
            )
    conn.executemany(
        "INSERT INTO term (id, dimension, slug, position, parent, label_en, label_ko,"
        " description_en, description_ko, aliases_json) VALUES (?,?,?,?,?,?,?,?,?,?)",
        rows,
    )


def _insert_search_words(
    conn: sqlite3.Connection, words: Counter[str], synonyms: list[list[str]]
) -> None:
    """The vocabulary (word -> incidents using it) for typo correction, and the synonyms."""
    conn.executemany("INSERT INTO searchword (word, docs) VALUES (?, ?)", sorted(words.items()))
    conn.executemany(
        "INSERT INTO searchsynonym (group_id, position, entry) VALUES (?, ?, ?)",
        [(g, p, entry) for g, group in enumerate(synonyms) for p, entry in enumerate(group)],
    )


def _insert_patterns(
    conn: sqlite3.Connection, patterns: list[dict[str, Any]], vocabulary: Vocabulary
) -> None:
    conn.executemany(
        "INSERT INTO pattern (id, slug, position, title_en, title_ko, data_json)"
        " VALUES (?,?,?,?,?,?)",
        [
            (
                vocabulary.pattern_ids[pattern["slug"]],
                pattern["slug"],
                position,
                pattern["title"]["en"],
                pattern["title"]["ko"],
                json.dumps(pattern, ensure_ascii=False),
            )
            for position, pattern in enumerate(patterns)
        ],
    )


class _Facets:
    """What the ranks and bitsets need of each incident, gathered as its row is written: its
    sort key, and its facet values in the order the link tables' rows are written (every
    incident's terms, then every incident's patterns; then organisations and years).

    A component group (a term other components name as `parent`) selects its own incidents
    and every incident of its members: filtering on `kubernetes` means any Kubernetes part.
    """

    def __init__(self, vocabulary: Vocabulary, parents: dict[str, str]) -> None:
        self.values_of_term: dict[int, tuple[tuple[str, str], ...]] = {}
        for (dim, slug), number in vocabulary.term_ids.items():
            group = parents.get(slug) if dim == "component" else None
            self.values_of_term[number] = ((dim, slug), (dim, group)) if group else ((dim, slug),)
        self.slug_of_pattern = {number: slug for slug, number in vocabulary.pattern_ids.items()}
        self.sort_keys: list[tuple[int, int, int, str]] = []  # by id - 1
        self.values: tuple[list[tuple[str, str]], ...] = ([], [], [])  # terms, patterns, others
        self.ids: tuple[list[int], ...] = ([], [], [])  # the incident of each value

    def add(self, rowid: int, incident: Prepared) -> None:
        slug, organization, _, year, month, day = incident.row[:6]
        self.sort_keys.append((year, month, day, slug))
        (terms, patterns, others), (term_ids, pattern_ids, other_ids) = self.values, self.ids
        for term in incident.terms:
            values = self.values_of_term[term]
            terms.extend(values)
            term_ids.extend(repeat(rowid, len(values)))
        for pattern in dict.fromkeys(incident.patterns):  # INSERT OR IGNORE keeps the first
            patterns.append(("pattern", self.slug_of_pattern[pattern]))
            pattern_ids.append(rowid)
        others += (("org", organization), ("year", str(year)))
        other_ids += (rowid, rowid)

    def write(self, conn: sqlite3.Connection) -> None:
        """Number the incidents newest first, then store each facet value's incidents as a
        bitset."""
        keys = self.sort_keys
        total = len(keys)
        # Newest first: by year, month, day, then ID, all descending (IDs are unique).
        newest_first = sorted(range(1, total + 1), key=lambda rowid: keys[rowid - 1], reverse=True)
        rank_of_id = np.zeros(total + 1, dtype=np.int64)
        rank_of_id[newest_first] = np.arange(total)
        # In id order, so that the rows (a few KB each) are rewritten front to back.
        conn.executemany(
            "UPDATE incident SET sort_rank = ? WHERE id = ?",
            zip(rank_of_id[1:].tolist(), range(1, total + 1), strict=True),
        )
        values = [value for part in self.values for value in part]
        ids = np.fromiter((rowid for part in self.ids for rowid in part), dtype=np.int64)
        conn.executemany(
            "INSERT INTO bitset (kind, key, count, bits) VALUES (?, ?, ?, ?)",
            _bitsets(values, rank_of_id[ids], total),
        )


def _insert_incidents(
    conn: sqlite3.Connection, incidents: list[Prepared], written: int, facets: _Facets
) -> list[tuple[Any, ...]]:
    """Write a batch's rows (after `written` incidents), noting their facets; returns their
    full-text rows.

    The ids are given, not left to SQLite: in the new, empty tables they are the ones it would
    choose (1, 2, ...; Vocabulary.term_ids for terms), and the batch is written with one
    executemany per table.
    """
    rows: list[tuple[Any, ...]] = []
    terms: list[tuple[int, int]] = []
    patterns: list[tuple[int, int]] = []
    fulltext: list[tuple[Any, ...]] = []
    for rowid, incident in enumerate(incidents, start=written + 1):
        rows.append((rowid, *incident.row))
        terms.extend(zip(repeat(rowid), incident.terms))
        patterns.extend(zip(repeat(rowid), incident.patterns))
        fulltext.append((rowid, *incident.fts))
        facets.add(rowid, incident)
    conn.executemany(
        "INSERT INTO incident (id, slug, organization, date, year, month, day, sort_rank,"
        " title_en, title_ko, body_json, tags_json, sources_json, patterns_json, duration,"
        " review_json) VALUES (?,?,?,?,?,?,?,0,?,?,?,?,?,?,?,?)",
        rows,
    )
    conn.executemany("INSERT INTO incidentterm (incident_id, term_id) VALUES (?, ?)", terms)
    conn.executemany(
        "INSERT OR IGNORE INTO incidentpattern (incident_id, pattern_id) VALUES (?, ?)", patterns
    )
    return fulltext


def _bitsets(
    keys: list[tuple[str, str]], ranks: npt.NDArray[np.int64], total: int
) -> Iterator[tuple[str, str, int, bytes]]:
    """(kind, key, count, bits) for each key, in the order the keys first appear: bit r of the
    little-endian bits is set when the key has a pair with rank r."""
    number = {key: n for n, key in enumerate(dict.fromkeys(keys))}
    codes = np.array([number[key] for key in keys], dtype=np.int64)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(number) + 1))
    for (kind, key), start, end in zip(number, bounds[:-1], bounds[1:], strict=True):
        members = np.zeros(total, dtype=np.bool_)
        members[ranks[order[start:end]]] = True
        bits = np.packbits(members, bitorder="little").tobytes()
        yield kind, key, int(np.count_nonzero(members)), bits
