"""The four facets in display order, their terms with en/ko labels, and alias matching."""

import json
import re
from dataclasses import dataclass, field

from sqlalchemy import Connection, text

from app.schema import DIMENSIONS


@dataclass(frozen=True)
class TermInfo:
    dimension: str
    slug: str
    label_en: str
    label_ko: str
    description_en: str
    description_ko: str
    aliases: tuple[str, ...]
    parent: str | None
    position: int

    def label(self, lang: str) -> str:
        return self.label_ko if lang == "ko" else self.label_en

    def description(self, lang: str) -> str:
        return self.description_ko if lang == "ko" else self.description_en


@dataclass(frozen=True)
class Taxonomy:
    """Terms by dimension, in the order data/taxonomy.yaml lists them."""

    terms: dict[str, tuple[TermInfo, ...]]
    by_key: dict[tuple[str, str], TermInfo] = field(default_factory=dict)

    @classmethod
    def load(cls, connection: Connection) -> "Taxonomy":
        rows = connection.execute(
            text(
                "SELECT dimension, slug, label_en, label_ko, description_en, description_ko,"
                " aliases_json, parent, position FROM term ORDER BY position"
            )
        ).all()
        terms: dict[str, list[TermInfo]] = {dim: [] for dim in DIMENSIONS}
        for row in rows:
            info = TermInfo(
                dimension=row[0],
                slug=row[1],
                label_en=row[2],
                label_ko=row[3],
                description_en=row[4],
                description_ko=row[5],
                aliases=tuple(json.loads(row[6])),
                parent=row[7],
                position=row[8],
            )
            terms[info.dimension].append(info)
        frozen = {dim: tuple(values) for dim, values in terms.items()}
        by_key = {(t.dimension, t.slug): t for values in frozen.values() for t in values}
        return cls(terms=frozen, by_key=by_key)

    def get(self, dimension: str, slug: str) -> TermInfo | None:
        return self.by_key.get((dimension, slug))

    def recommend(self, q: str) -> list[TermInfo]:
        """Terms whose label, slug or alias appears in the search text (추천 필터)."""
        haystack = f" {_normalise(q)} "
        found: list[TermInfo] = []
        for dim in DIMENSIONS:
            for term in self.terms[dim]:
                needles = (term.label_en, term.label_ko, term.slug, *term.aliases)
                if any(_contains(haystack, _normalise(n)) for n in needles if n):
                    found.append(term)
        return found


def _normalise(value: str) -> str:
    return re.sub(r"\s+", " ", value.lower().replace("_", " ")).strip()


def _contains(haystack: str, needle: str) -> bool:
    """Latin needles match whole words; Korean needles match inside words (particles attach)."""
    if not needle:
        return False
    if re.search(r"[a-z0-9]", needle) and not re.search(r"[\uac00-\ud7a3]", needle):
        return re.search(rf"(?<![a-z0-9]){re.escape(needle)}(?![a-z0-9])", haystack) is not None
    return needle in haystack
