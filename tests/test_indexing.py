"""The build's quicker indexing (app/indexing.py, app/fulltext.py) writes exactly what
app/search.py's index_text and words_of define: checked on generated text, and on built
databases against an index made the straightforward way, token by token."""

import json
import shutil
import sqlite3
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from app import importer
from app.importer import build
from app.indexing import SHORT, WordCounter, column_text, indexed, joined
from app.schema import DIMENSIONS
from app.search import index_text, words_of

# Words and separators that exercise every class the two functions tell apart: Korean runs with
# and without particles, one syllable alone, identifiers, letters whose lower case differs in
# length or depends on context, digits of other scripts, letters and symbols beyond the BMP,
# combining marks, and whitespace that is not a space.
PIECES = st.sampled_from(
    [
        "스토리지에서",
        "전력이",
        "노드",
        "가",
        "IP가",
        "만료돼서",
        "데이터센터",
        "WARM_IP_TARGET",
        "us-east-1",
        "k8s",
        "Timeouts",
        "ΣΊΣΥΦΟΣ",
        "İstanbul",
        "STRASSE",
        "straße",
        "e\u0301",
        "𝐀𝐁𝐂",
        "😀",
        "123",
        "４５６",
        "٣٤",
        "データ",
        "日本",
        "ǅungla",
        "ﬁle",
        "_",
        "a_b",
        "Σ",
        "ΑΣ",
        "ΑΣ전력",
        "Σ노드",
        "İ가",
    ]
)
SEPARATORS = st.sampled_from(
    [" ", "  ", "\n", "\t", "\u3000", "\xa0", ". ", ", ", "-", "/", "\x1c", "'", "."]
)
TEXT = st.lists(st.one_of(PIECES, SEPARATORS, st.text(max_size=4)), max_size=40).map("".join)


def long(text: str) -> str:
    """The text repeated past SHORT characters, so that it takes the numpy path."""
    return text * (SHORT // max(len(text), 1) + 1)


def counted_words(text: str) -> Counter[str]:
    counter = WordCounter()
    counter.add(text)
    return counter.counts()


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_column_text_is_index_text_character_for_character(text: str) -> None:
    assert column_text(text) == index_text(text)
    assert column_text(long(text)) == index_text(long(text))


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_counted_words_are_words_of_each_once(text: str) -> None:
    for value in (text, long(text)):
        assert counted_words(value) == Counter(words_of(value))


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_texts_worked_out_once_then_joined_are_the_joined_text(first: str, second: str) -> None:
    whole = f"{first} {second}"
    assert joined([indexed(first), indexed(second)]) == index_text(whole)
    assert indexed(first).words | indexed(second).words == words_of(whole)


def test_no_whitespace_is_looked_past_when_a_final_sigma_is_lowered() -> None:
    # WordCounter lowers each whitespace-separated piece on its own. That is how the whole text
    # lowers only if a final sigma never looks past whitespace for a cased letter, as it looks
    # past case-ignorable characters (an apostrophe, a soft hyphen).
    assert "ΑΣ'Α".lower() == "ασ'α"
    for space in filter(str.isspace, map(chr, range(sys.maxunicode + 1))):
        assert f"ΑΣ{space}Α".lower() == f"ας{space}α", hex(ord(space))


def test_word_counts_count_incidents_not_occurrences() -> None:
    counter = WordCounter()
    counter.add(
        "노드가 노드에서 timeout timeout", [frozenset({"timeout", "etcd"}), frozenset({"etcd"})]
    )
    counter.add("etcd 노드")
    assert counter.counts() == {"노드": 2, "timeout": 1, "etcd": 2}
    assert counter.counts() == {}


# -- whole builds ------------------------------------------------------------------------------
def reference_index(db: Path) -> tuple[sqlite3.Connection, Counter[str]]:
    """The built database's incidents indexed the straightforward way: index_text of each
    field inserted into a new FTS5 table made by the migrations' own statement; and the
    vocabulary, words_of all four fields, counted once per incident."""
    built = sqlite3.connect(db)
    labels = {
        (dim, slug): " ".join((en, ko, *json.loads(aliases)))
        for dim, slug, en, ko, aliases in built.execute(
            "SELECT dimension, slug, label_en, label_ko, aliases_json FROM term"
        )
    }
    (create,) = built.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'incident_fts'"
    ).fetchone()
    reference = sqlite3.connect(":memory:")
    reference.execute(create)
    words: Counter[str] = Counter()
    for rowid, slug, org, title_en, title_ko, body_json, tags_json in built.execute(
        "SELECT id, slug, organization, title_en, title_ko, body_json, tags_json FROM incident"
    ):
        tags = json.loads(tags_json)
        pairs = dict.fromkeys((dim, s) for dim in DIMENSIONS for s in tags[dim])
        texts = []
        for section in json.loads(body_json).values():
            for lang in ("en", "ko"):
                texts.extend(section[lang] if isinstance(section[lang], list) else [section[lang]])
        fields = (
            f"{slug} {title_en} {title_ko}",
            org,
            " ".join(f"{labels[pair]} {pair[1]}" for pair in pairs),
            " ".join(texts),
        )
        reference.execute(
            "INSERT INTO incident_fts (rowid, title, organization, tags, body) VALUES (?,?,?,?,?)",
            (rowid, *map(index_text, fields)),
        )
        words.update(words_of(" ".join(fields)))
    reference.commit()
    built.close()
    return reference, words


def index_contents(conn: sqlite3.Connection, schema: str = "main") -> dict[str, list[tuple]]:
    """Every token of the index with its document, column and position; each document's size
    per column; and the totals bm25 weighs with."""
    conn.execute(f"CREATE VIRTUAL TABLE temp.v USING fts5vocab({schema}, incident_fts, instance)")
    try:
        return {
            "instances": conn.execute("SELECT term, doc, col, offset FROM temp.v").fetchall(),
            "sizes": conn.execute(f"SELECT * FROM {schema}.incident_fts_docsize").fetchall(),
            "totals": conn.execute(
                f"SELECT block FROM {schema}.incident_fts_data WHERE id = 1"
            ).fetchall(),
        }
    finally:
        conn.execute("DROP TABLE temp.v")


def check_index(db: Path) -> None:
    reference, words = reference_index(db)
    built = sqlite3.connect(db)
    try:
        assert index_contents(built) == index_contents(reference)
        built.execute("INSERT INTO incident_fts (incident_fts) VALUES ('integrity-check')")
        assert dict(built.execute("SELECT word, docs FROM searchword")) == dict(words)
        settings_rows = built.execute("SELECT * FROM incident_fts_config").fetchall()
        assert settings_rows == reference.execute("SELECT * FROM incident_fts_config").fetchall()
    finally:
        built.close()
        reference.close()


def test_the_library_index_holds_what_index_text_gives_each_field(library_db: Path) -> None:
    check_index(library_db)


def tables(db: Path) -> dict[str, list[tuple]]:
    """Every row of every table but the full-text index (compared by index_contents) and the
    build's own record (when, from where, how long)."""
    conn = sqlite3.connect(db)
    try:
        names = [
            n
            for (n,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'incident_fts%' AND name != 'sqlite_stat1'"
            )
        ]
        out = {n: conn.execute(f'SELECT * FROM "{n}"').fetchall() for n in names}
        out["meta"] = [r for r in out["meta"] if r[0] in ("incidents", "content_id")]
        out["index"] = list(index_contents(conn).items())
        return out
    finally:
        conn.close()


def test_json_lines_built_in_worker_processes_equal_files_built_in_process(
    small_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # More incidents than one batch, and batches of three: the worker pool hands back several.
    folder = small_data / "incidents"
    records = [yaml.safe_load(p.read_text()) for p in sorted(folder.glob("*.yaml"))]
    for number, record in enumerate(records * 2, start=9001):
        record = {**record, "id": f"IL-{number}", "date": str(record["date"])}
        (folder / f"IL-{number}.yaml").write_text(yaml.safe_dump(record, allow_unicode=True))
    monkeypatch.setattr(importer, "BATCH", 3)
    files_db = tmp_path / "files.db"
    build(small_data, files_db)
    bulk = tmp_path / "bulk"
    shutil.copytree(small_data, bulk)
    lines = []
    for path in sorted((bulk / "incidents").glob("*.yaml")):
        record = yaml.safe_load(path.read_text())
        lines.append(json.dumps({**record, "date": str(record["date"])}, ensure_ascii=False))
        path.unlink()
    (bulk / "incidents" / "all.jsonl").write_text("\n".join(lines) + "\n")
    bulk_db = tmp_path / "bulk.db"
    assert build(bulk, bulk_db) == len(lines) == 12
    assert tables(bulk_db) == tables(files_db)
    check_index(bulk_db)
