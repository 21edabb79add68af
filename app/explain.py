"""What a search did, said on the page and in the API; why each result matched.

The store's SearchHits say how the text was read (clauses, corrections, synonyms, the m of n
words every result has); this module turns that into sentences (both languages, words
emphasised, incident text escaped) and, for one incident, into a highlighted snippet and a
why-matched line ("matched the tag Shared network filesystem (alias weka)").
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from app.facets import Filter
from app.i18n import STRINGS
from app.search import COMPOUND, HANGUL_RUN, STOPWORDS
from app.store import Searched, SearchHits
from app.taxonomy import TermInfo

SECTIONS = ("symptom", "trigger", "detection", "lessons", "actions", "follow_ups")


@dataclass(frozen=True)
class Correction:
    typed: str
    searched: str
    url: str  # the same search with the typed spelling kept (quoted)


@dataclass(frozen=True)
class SearchExplanation:
    """How the search text was read, for the page (lines) and the API (fields)."""

    words: tuple[str, ...]  # the deciding words, as searched
    needed: int  # every result has at least this many of them
    with_all: int  # incidents with every deciding word
    corrections: tuple[Correction, ...]
    synonyms: tuple[tuple[str, tuple[str, ...]], ...]  # word -> the other words searched
    ignored: tuple[str, ...]  # stopwords and common words: they do not decide the match
    excluded: tuple[str, ...]
    unmatched: tuple[str, ...]  # words no incident has, even corrected

    @property
    def relaxed(self) -> bool:
        return self.needed < len(self.words)

    def lines(self, lang: str) -> list[Markup]:
        """One sentence per thing the search did, in `lang`, words in <em>."""
        out = [
            say("search.corrected", lang, s=fix.searched, t=fix.typed, u=fix.url)
            for fix in self.corrections
        ]
        if self.relaxed:
            words = " ".join(self.words)
            if not self.with_all:
                out.append(say("search.relaxed_none", lang, w=words))
            else:
                n, m, k = self.with_all, self.needed, len(self.words)
                out.append(say("search.relaxed_few", lang, w=words, n=n, m=m, k=k))
        if self.synonyms:
            pairs = Markup("; ").join(
                Markup("<em>{}</em> → {}").format(word, _em(others))
                for word, others in self.synonyms
            )
            out.append(say("search.synonyms", lang, w=pairs))
        if self.unmatched:
            out.append(say("search.unmatched", lang, w=_em(self.unmatched)))
        if self.ignored:
            out.append(say("search.ignored", lang, w=_em(self.ignored)))
        if self.excluded:
            out.append(say("search.excluded", lang, w=_em(self.excluded)))
        return out

    def text(self) -> list[str]:
        """The English sentences as plain text (for the API)."""
        return [line.striptags() for line in self.lines("en")]


def say(key: str, lang: str, **values: object) -> Markup:
    """A sentence of app/i18n.py (markup around its blanks) with its values escaped."""
    pair = STRINGS[key]
    return Markup(pair[1] if lang == "ko" else pair[0]).format(**values)


def _em(words: Iterable[str]) -> Markup:
    return Markup(", ").join(Markup("<em>{}</em>").format(w) for w in words)


def explain(hits: SearchHits, filters: Filter) -> SearchExplanation | None:
    """The explanation of a filter's search text; None without one."""
    if not filters.q or hits.query.empty:
        return None
    deciding = [s for s in hits.searched if s.deciding]
    corrections = tuple(
        Correction(typed, searched, filters.with_(q=with_quoted(filters.q, typed)).url())
        for s in hits.searched
        for typed, searched in s.corrected
    )
    synonyms = tuple(
        (_searched_text(s), others)
        for s in hits.searched
        if s.deciding and (others := tuple(k for keys in s.keys for k in keys[1:]))
    )
    common = tuple(s.clause.text for s in hits.searched if not s.deciding)
    return SearchExplanation(
        words=tuple(_searched_text(s) for s in deciding),
        needed=hits.needed,
        with_all=hits.with_all,
        corrections=corrections,
        synonyms=synonyms,
        ignored=(*hits.query.stopwords, *common),
        excluded=tuple(s.clause.text for s in hits.excluded),
        unmatched=tuple(_searched_text(s) for s in hits.searched if not s.count),
    )


def _searched_text(searched: Searched) -> str:
    fixed = dict(searched.corrected)
    return " OR ".join(fixed.get(w.text, w.text) for w in searched.clause.words)


# -- one incident --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Match:
    """Why one incident matched: snippet (highlighted) and the why-matched line."""

    snippet: Markup | None
    why: Markup | None


def match_of(
    hits: SearchHits,
    title: str,
    body: dict[str, Any],
    tags: dict[str, list[TermInfo]],
    lang: str,
) -> Match:
    """Where each searched word was found in this incident: its text, a synonym, or a tag."""
    other = "en" if lang == "ko" else "ko"
    texts: list[str] = [title]
    ordered: list[str] = []
    for language in (lang, other):
        for name in SECTIONS:
            section = body.get(name)
            if not section:
                continue
            value = section[language]
            ordered.extend(value if isinstance(value, list) else [value])
    texts.extend(ordered)
    found_needles: list[str] = []
    parts: list[Markup] = []
    missing: list[str] = []
    for searched in hits.searched:
        if not searched.deciding:
            continue
        part, hit = _why_one(searched, texts, tags, lang)
        if hit:
            found_needles.extend(hit)
        if part is not None:
            parts.append(part)
        elif not hit and searched.deciding:
            missing.append(searched.clause.text)
    pattern = needle_pattern(sorted(set(found_needles), key=len, reverse=True))
    snippet = None
    if pattern is not None:
        best = max(ordered, key=lambda t: len({m.lower() for m in pattern.findall(t)}), default="")
        if best and pattern.search(best):
            snippet = highlight(best, pattern)
    if missing and hits.relaxed:
        have = hits.deciding - len(missing)
        parts.append(say("search.why.missing", lang, k=have, n=hits.deciding, w=_em(missing)))
    why = Markup(" · ").join(parts) if parts else None
    return Match(snippet, why)


def _why_one(
    searched: Searched, texts: list[str], tags: dict[str, list[TermInfo]], lang: str
) -> tuple[Markup | None, list[str]]:
    """(a why-matched part when the match is not plain text, the needles found in the text)."""
    for word, keys in zip(searched.clause.words, searched.keys, strict=True):
        for index, key in enumerate(keys):
            found = needles([key])
            pattern = needle_pattern(found)
            if pattern is None or not any(pattern.search(t) for t in texts):
                continue
            if index == 0:
                return None, found
            return say("search.why.synonym", lang, w=word.text, k=key), found
    for word, keys in zip(searched.clause.words, searched.keys, strict=True):
        pattern = needle_pattern(needles(keys))
        if pattern is None:
            continue
        for terms in tags.values():
            for term in terms:
                names = (term.label_en, term.label_ko, term.slug.replace("-", " "), *term.aliases)
                alias = next((n for n in names if pattern.search(n)), None)
                if alias is None:
                    continue
                key = (
                    "search.why.tag"
                    if alias in (term.label_en, term.label_ko)
                    else "search.why.alias"
                )
                return say(key, lang, w=word.text, t=term.label(lang), a=alias), []
    return None, []


# -- highlighting --------------------------------------------------------------------------------
def needles(keys: Iterable[str]) -> list[str]:
    """Substrings to look for in text for the given keys, longest first."""
    out: list[str] = []
    for key in keys:
        parts = key.split()
        if HANGUL_RUN.fullmatch(key.replace(" ", "")):
            out.extend(parts)
            continue
        out.extend(_stem(p) for p in parts if (len(p) >= 2 or p.isdigit()) and p not in STOPWORDS)
        if len(parts) > 1:
            out.append(key)
        compound = COMPOUND.match(key)
        if compound:
            out.append(f"{compound.group(1)} {compound.group(2)}")
    return sorted(set(out), key=len, reverse=True)


def _stem(word: str) -> str:
    """A rough English stem for highlighting (needles match from the start of a word)."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and word.isalpha():
            return word[: -len(suffix)]
    return word


def needle_pattern(found: Iterable[str]) -> re.Pattern[str] | None:
    """One regex for the needles: Latin ones from the start of a word, Korean ones anywhere."""
    parts = []
    for needle in found:
        escaped = re.escape(needle).replace(r"\ ", r"[\s_\-]+")
        parts.append(escaped if HANGUL_RUN.search(needle) else rf"(?<![^\W_]){escaped}[^\W_]*")
    return re.compile("|".join(parts), re.IGNORECASE) if parts else None


def highlight(value: str, pattern: re.Pattern[str] | None, *, width: int = 220) -> Markup:
    """An escaped excerpt of `value` around the first match, matches wrapped in <mark>."""
    if pattern is None:
        return Markup(escape(_clip(value, 0, width)))
    first = pattern.search(value)
    start = max(0, first.start() - width // 3) if first else 0
    excerpt = _clip(value, start, width)
    out: list[str] = []
    last = 0
    for m in pattern.finditer(excerpt):
        out.append(str(escape(excerpt[last : m.start()])))
        out.append(f"<mark>{escape(m.group(0))}</mark>")
        last = m.end()
    out.append(str(escape(excerpt[last:])))
    return Markup("".join(out))


def _clip(value: str, start: int, width: int) -> str:
    excerpt = value[start : start + width]
    prefix = "… " if start > 0 else ""
    suffix = " …" if start + width < len(value) else ""
    return prefix + excerpt + suffix


def with_quoted(query_text: str, word: str) -> str:
    """The search text with one word in quotes: "search for the original spelling"."""
    pattern = re.compile(rf"(?<![\w\"]){re.escape(word)}(?![\w\"])")
    replaced, count = pattern.subn(f'"{word}"', query_text, count=1)
    return replaced if count else f'{query_text} "{word}"'
