"""Filter: the one parsed, validated, canonical value behind every list, API, feed and graph.

`Filter.parse(pairs, known)` reads query-string pairs; `query_pairs()` is the only encoder:
q, cause, component, symptom, factor, org, from, to, sort, page, lang — in that order, values of
one key in canonical order, duplicates and defaults dropped.

The values of one dimension (or `org`) are a small grammar, written as a prefix on the slug:

    cause=a&cause=b      any of a, b          (plain values: OR)
    cause=%2Bc           and also c           (`+c`: required, AND)
    cause=-d             but not d            (`-d`: excluded)

so one key selects `(any plain value) AND (every + value) AND NOT (any - value)`. Graph links use
`+` to open exactly the intersection their label counts. The canonical form lists plain values,
then `+` values, then `-` values, each sorted, after reducing to the simplest equal form: a lone
plain value and `+` values are the same thing (`cause=a&cause=%2Bb` is "a and b"), and a plain
value that is also required makes the others redundant. An unencoded `+` arrives as a space
(`cause=+c` reads as " c"), and is read as `+` too.
"""

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from app.schema import DIMENSIONS

KEYS = ("q", "cause", "component", "symptom", "factor", "org", "from", "to", "sort", "page", "lang")
SORTS = ("recent", "oldest", "relevance", "longest")
LANGS = ("en", "ko")
MAX_Q = 500
MAX_VALUES = 50
MAX_VALUE_LENGTH = 200
YEAR_MIN, YEAR_MAX = 1900, 2100
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
FACET_KEYS = (*DIMENSIONS, "org")  # the keys whose values are slugs with an optional + or -


class FilterError(ValueError):
    """A parameter no page can honour (too long, too many values); names the parameter."""

    def __init__(self, parameter: str, reason: str) -> None:
        super().__init__(f"{parameter}: {reason}")
        self.parameter = parameter
        self.reason = reason


@dataclass(frozen=True)
class Ignored:
    """A value dropped while parsing, shown to the person as a notice (HTML) or a 400 (API)."""

    parameter: str
    value: str
    reason: str


@dataclass(frozen=True)
class Selection:
    """The values of one key, split by their prefix: any of, all of, none of (bare slugs)."""

    any_of: frozenset[str] = frozenset()
    all_of: frozenset[str] = frozenset()
    none_of: frozenset[str] = frozenset()

    @classmethod
    def of(cls, tokens: Iterable[str]) -> "Selection":
        any_of: set[str] = set()
        all_of: set[str] = set()
        none_of: set[str] = set()
        for token in tokens:
            prefix, slug = split_token(token)
            {"": any_of, "+": all_of, "-": none_of}[prefix].add(slug)
        return cls(frozenset(any_of), frozenset(all_of), frozenset(none_of))

    def canonical(self) -> tuple[str, ...]:
        """Tokens of the simplest equal selection: plain, then +, then -, each sorted."""
        any_of, all_of = set(self.any_of), set(self.all_of)
        if len(any_of) == 1:
            all_of |= any_of
            any_of = set()
        if any_of & all_of:  # the OR clause already holds wherever the AND clause does
            any_of = set()
        if not any_of and all_of:
            first = min(all_of)
            any_of, all_of = {first}, all_of - {first}
        return (
            *sorted(any_of),
            *(f"+{slug}" for slug in sorted(all_of)),
            *(f"-{slug}" for slug in sorted(self.none_of)),
        )

    @property
    def included(self) -> frozenset[str]:
        return self.any_of | self.all_of

    def state(self, slug: str) -> str:
        """'' (not named), 'any', 'all' or 'none'."""
        if slug in self.none_of:
            return "none"
        if slug in self.all_of:
            return "all"
        return "any" if slug in self.any_of else ""


def split_token(token: str) -> tuple[str, str]:
    """('+' | '-' | '', slug) for a value token such as '-config-change'."""
    if token[:1] in ("+", "-") and len(token) > 1:
        return token[0], token[1:]
    return "", token


def _canonical_tokens(tokens: Iterable[str]) -> tuple[str, ...]:
    return Selection.of(tokens).canonical()


@dataclass(frozen=True)
class Filter:
    q: str = ""
    cause: tuple[str, ...] = ()
    component: tuple[str, ...] = ()
    symptom: tuple[str, ...] = ()
    factor: tuple[str, ...] = ()
    org: tuple[str, ...] = ()
    year_from: int | None = None
    year_to: int | None = None
    sort: str = ""  # "" = the default: relevance with search text, recent without
    page: int = 1
    lang: str = ""  # "" = not in the URL (cookie or Accept-Language decide)
    ignored: tuple[Ignored, ...] = field(default=(), compare=False)

    @classmethod
    def parse(
        cls,
        pairs: Iterable[tuple[str, str]],
        *,
        is_known: Callable[[str, str], bool] = lambda _dim, _value: True,
    ) -> "Filter":
        """Build a Filter from query pairs; unknown keys are skipped, bad values are Ignored.

        :raises FilterError: for input no page can honour (over-long text, too many values).
        """
        values: dict[str, list[str]] = {key: [] for key in KEYS}
        ignored: list[Ignored] = []
        for key, raw in pairs:
            if key not in values:
                continue
            value = _clean(raw)
            if key in FACET_KEYS and value and raw[:1] == " " and raw[1:2] not in ("", " "):
                value = f"+{value}"  # an unencoded '+' in a query string reads as a space
            if key == "q":
                if len(value) > MAX_Q:
                    raise FilterError("q", f"search text is longer than {MAX_Q} characters")
            elif len(value) > MAX_VALUE_LENGTH:
                raise FilterError(key, f"value is longer than {MAX_VALUE_LENGTH} characters")
            if value:
                values[key].append(value)
            if len(values[key]) > MAX_VALUES:
                raise FilterError(key, f"more than {MAX_VALUES} values")
        facets: dict[str, tuple[str, ...]] = {}
        for dim in FACET_KEYS:
            kept = []
            for value in dict.fromkeys(values[dim]):
                prefix, slug = split_token(value)
                if is_known(dim, slug):
                    kept.append(prefix + slug)
                else:
                    label = "organisation" if dim == "org" else dim
                    ignored.append(Ignored(dim, value, f"unknown {label} '{slug}' ignored"))
            facets[dim] = _canonical_tokens(kept)
        year_from = _year("from", values["from"], ignored)
        year_to = _year("to", values["to"], ignored)
        if year_from is not None and year_to is not None and year_from > year_to:
            year_from, year_to = year_to, year_from
        sort = values["sort"][-1] if values["sort"] else ""
        if sort and sort not in SORTS:
            ignored.append(Ignored("sort", sort, f"unknown sort '{sort}' ignored"))
            sort = ""
        page = 1
        if values["page"]:
            raw_page = values["page"][-1]
            if raw_page.isascii() and raw_page.isdigit() and 0 < int(raw_page) <= 10**6:
                page = int(raw_page)
            else:
                ignored.append(Ignored("page", raw_page, f"page '{raw_page}' is not a page number"))
        lang = values["lang"][-1] if values["lang"] else ""
        if lang and lang not in LANGS:
            ignored.append(Ignored("lang", lang, f"unknown language '{lang}' ignored"))
            lang = ""
        q = " ".join(" ".join(values["q"]).split())
        if sort == "relevance" and not q:
            sort = ""
        default_sort = "relevance" if q else "recent"
        return cls(
            q=q,
            cause=facets["cause"],
            component=facets["component"],
            symptom=facets["symptom"],
            factor=facets["factor"],
            org=facets["org"],
            year_from=year_from,
            year_to=year_to,
            sort="" if sort == default_sort else sort,
            page=page,
            lang=lang,
            ignored=tuple(ignored),
        )

    # -- reading ---------------------------------------------------------------------------
    @property
    def effective_sort(self) -> str:
        return self.sort or ("relevance" if self.q else "recent")

    def values(self, dimension: str) -> tuple[str, ...]:
        """The value tokens of a tag dimension or of `org`, canonical (`a`, `+b`, `-c`)."""
        result: tuple[str, ...] = getattr(self, dimension)
        return result

    def selection(self, dimension: str) -> Selection:
        return Selection.of(self.values(dimension))

    def included(self, dimension: str) -> frozenset[str]:
        """Slugs the dimension asks for (plain or `+`), without the excluded ones."""
        return self.selection(dimension).included

    @property
    def has_filters(self) -> bool:
        return bool(
            any(self.values(d) for d in FACET_KEYS)
            or self.year_from is not None
            or self.year_to is not None
        )

    @property
    def is_empty(self) -> bool:
        return not self.q and not self.has_filters

    # -- encoding --------------------------------------------------------------------------
    def query_pairs(
        self,
        *,
        with_page: bool = True,
        with_lang: bool = True,
        toggle: tuple[str, str] | None = None,
    ) -> list[tuple[str, str]]:
        """The canonical query: keys in contract order, values sorted, defaults left out.

        `toggle` (dimension, value) adds or removes that one value, as `toggled` does.
        """
        pairs: list[tuple[str, str]] = []
        if self.q:
            pairs.append(("q", self.q))
        for dim in FACET_KEYS:
            values = self.values(dim)
            if toggle is not None and dim == toggle[0]:
                values = _toggle_tokens(values, toggle[1])
            pairs.extend((dim, value) for value in values)
        if self.year_from is not None:
            pairs.append(("from", str(self.year_from)))
        if self.year_to is not None:
            pairs.append(("to", str(self.year_to)))
        if self.sort:
            pairs.append(("sort", self.sort))
        if with_page and self.page != 1:
            pairs.append(("page", str(self.page)))
        if with_lang and self.lang:
            pairs.append(("lang", self.lang))
        return pairs

    def query_string(self, *, with_page: bool = True, with_lang: bool = True) -> str:
        return encode_query(self.query_pairs(with_page=with_page, with_lang=with_lang))

    def url(self, path: str = "/incidents") -> str:
        query = self.query_string()
        return f"{path}?{query}" if query else path

    def toggled_url(self, dimension: str, value: str, path: str = "/incidents") -> str:
        """`self.toggled(dimension, value).url(path)`, without building the Filter.

        `value` is a token: `slug`, `+slug` or `-slug`.

        Facet lists print one such link per value (hundreds per page), so this is the hot path.
        """
        query = encode_query(self.query_pairs(with_page=False, toggle=(dimension, value)))
        return f"{path}?{query}" if query else path

    # -- deriving --------------------------------------------------------------------------
    def toggled(self, dimension: str, value: str) -> "Filter":
        """The filter with one value token added or removed; back to page 1.

        Adding a token replaces any other form of the same slug (`-dns` replaces `dns`), so a
        slug is in one state at a time. Removing a plain value that the canonical form holds as
        the first of several required ones (`a&+b`) removes that slug whatever its form.
        """
        changes: dict[str, Any] = {
            dimension: _toggle_tokens(self.values(dimension), value),
            "page": 1,
            "ignored": (),
        }
        return replace(self, **changes)

    def narrowed(self, dimension: str, slug: str) -> "Filter":
        """This filter AND `slug`: exactly the incidents of this result that carry the value.

        The graph's links use it, so a node or edge opens the list its number counts.
        """
        tokens = (*self.values(dimension), f"+{slug}")
        changes: dict[str, Any] = {
            dimension: _canonical_tokens(tokens),
            "page": 1,
            "ignored": (),
        }
        return replace(self, **changes)

    def with_(self, **changes: object) -> "Filter":
        """A copy with fields changed; any change other than page returns to page 1."""
        if "page" not in changes:
            changes["page"] = 1
        return replace(self, **changes, ignored=())  # type: ignore[arg-type]

    def cleared(self) -> "Filter":
        """No filters and no search text; the language stays."""
        return Filter(lang=self.lang)


def _toggle_tokens(tokens: tuple[str, ...], token: str) -> tuple[str, ...]:
    prefix, slug = split_token(token)
    if token in tokens or (prefix == "" and f"+{slug}" in tokens):
        # Removing: `a&+b` holds b as "+b"; a click on the plain value b removes it.
        kept = [t for t in tokens if split_token(t)[1] != slug]
    else:
        kept = [t for t in tokens if split_token(t)[1] != slug] + [token]
    return _canonical_tokens(kept)


@lru_cache(maxsize=8192)
def _quote(value: str) -> str:
    return quote(value, safe="")


def encode_query(pairs: list[tuple[str, str]]) -> str:
    """The one query-string encoder: percent-encoding of everything but unreserved characters."""
    return "&".join(f"{key}={_quote(value)}" for key, value in pairs)


def _clean(raw: str) -> str:
    value = unicodedata.normalize("NFC", raw)
    return CONTROL.sub(" ", value).strip()


def _year(key: str, raw: Sequence[str], ignored: list[Ignored]) -> int | None:
    if not raw:
        return None
    value = raw[-1]
    if value.isascii() and value.isdigit() and YEAR_MIN <= int(value) <= YEAR_MAX:
        return int(value)
    ignored.append(Ignored(key, value, f"'{value}' is not a year ({YEAR_MIN}-{YEAR_MAX})"))
    return None
