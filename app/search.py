"""Full-text search: how text is tokenised, how a query becomes FTS5 MATCH, snippets.

Tokenizer choice (why): FTS5's unicode61 keeps a Korean word and its particle as one token
(스토리지에서), and trigram cannot match two-syllable words (전력, 노드) at all. So Korean runs
are split here into overlapping syllable bigrams (스토리지에서 -> 스토 토리 리지 지에 에서) before
they reach FTS5, for the indexed text and for the query alike: a query word becomes the phrase of
its bigrams, which matches it anywhere inside a longer word. A one-syllable query uses a prefix
query on the bigrams. Latin text goes through `porter unicode61`, which folds case and simple
inflection (timeouts -> timeout); identifiers such as WARM_IP_TARGET, kube-proxy or us-east-1
are split into their parts by unicode61 on both sides and matched as an exact phrase.
"""

import re
from collections.abc import Iterable

from markupsafe import Markup, escape

HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")
HANGUL_PAIR = re.compile(r"(?=([\uac00-\ud7a3]{2}))")
HANGUL_SINGLE = re.compile(r"(?<![\uac00-\ud7a3])[\uac00-\ud7a3](?![\uac00-\ud7a3])")
TOKEN = re.compile(r"[\uac00-\ud7a3]+|[^\W_]+", re.UNICODE)
# Particles and endings commonly attached to nouns; stripped from query words so that
# 스토리지에서 also finds 스토리지는.
PARTICLES = sorted(
    (
        "에서는 에서도 에서 에게 으로 로는 로 까지 부터 처럼 보다 이나 나"
        " 은 는 이 가 을 를 의 와 과 도 만 에 이다 했다 됐다"
    ).split(),
    key=len,
    reverse=True,
)
MAX_TERMS = 12


def bigrams(run: str) -> str:
    """A Hangul run as space-separated syllable bigrams (a single syllable stays as is)."""
    if len(run) < 2:
        return run
    return " ".join(map(str.__add__, run, run[1:]))


def index_text(value: str) -> str:
    """Text as stored in the FTS index: the non-Korean text, then every Korean syllable bigram
    in order (overlapping, never across a space), then one-syllable Korean words.

    Done with three C-level regex passes because `build` runs it over 100,000 incidents.
    """
    return " ".join(
        (
            HANGUL_RUN.sub(" ", value),
            " ".join(HANGUL_PAIR.findall(value)),
            " ".join(HANGUL_SINGLE.findall(value)),
        )
    )


def strip_particle(word: str) -> str:
    """스토리지에서 -> 스토리지; keeps at least two syllables."""
    for particle in PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return word[: -len(particle)]
    return word


def query_terms(q: str) -> list[str]:
    """The words of the search text that take part in matching (at most MAX_TERMS)."""
    terms: list[str] = []
    for raw in q.split():
        words = TOKEN.findall(raw)
        if not words:
            continue
        # Keep an identifier together (WARM_IP_TARGET, us-east-1): its parts form one phrase.
        if all(not HANGUL_RUN.fullmatch(w) for w in words):
            terms.append(" ".join(w.lower() for w in words))
        else:
            terms.extend(strip_particle(w) if HANGUL_RUN.fullmatch(w) else w.lower() for w in words)
    seen: list[str] = []
    for term in terms:
        if term not in seen:
            seen.append(term)
    return seen[:MAX_TERMS]


PARTICLE_WORDS = ("out", "over", "back", "down", "up", "off")
COMPOUND = re.compile(rf"^([a-z]{{3,}}?)({'|'.join(PARTICLE_WORDS)})s?$")


def term_groups(q: str) -> list[list[str]]:
    """Each query term with the spellings that mean the same: all terms must match, any spelling.

    English writes one action three ways: timeout, time out, timed out (failover, fail over...).
    Porter folds timed -> time, so "timeout" also searches the phrase "time out", and the two
    words "timed out" also search "timeout".
    """
    terms = query_terms(q)
    groups: list[list[str]] = []
    index = 0
    while index < len(terms):
        term = terms[index]
        following = terms[index + 1] if index + 1 < len(terms) else ""
        if following in PARTICLE_WORDS and term.isalpha() and term.isascii():
            stems = {term, term[:-1], term[:-2]} if term.endswith("ed") else {term}
            joined = sorted(stem + following for stem in stems if len(stem) >= 3)
            groups.append([f"{term} {following}", *joined])
            index += 2
            continue
        compound = COMPOUND.match(term)
        if compound:
            groups.append([term, f"{compound.group(1)} {compound.group(2)}"])
        else:
            groups.append([term])
        index += 1
    return groups


def _phrase(term: str) -> str:
    if HANGUL_RUN.fullmatch(term) and len(term) == 1:
        return f'"{term}" *'
    phrase = " ".join(bigrams(t) if HANGUL_RUN.fullmatch(t) else t for t in term.split())
    return '"' + phrase.replace('"', " ") + '"'


def match_expression(q: str) -> str | None:
    """An FTS5 MATCH string where every term must match; None when nothing is searchable.

    Every term is a quoted phrase, so FTS5 syntax in user text (NEAR, AND, *, :, quotes) is data.
    """
    parts = []
    for group in term_groups(q):
        phrases = [_phrase(term) for term in group]
        parts.append(phrases[0] if len(phrases) == 1 else "(" + " OR ".join(phrases) + ")")
    return " AND ".join(parts) if parts else None


def highlight(value: str, q: str, *, width: int = 220) -> Markup:
    """An escaped excerpt of `value` around the first match, matches wrapped in <mark>."""
    needles = _needles(q)
    if not needles:
        return Markup(escape(_clip(value, 0, width)))
    pattern = re.compile("|".join(re.escape(n) for n in needles), re.IGNORECASE)
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


def matches_text(values: Iterable[str], q: str) -> bool:
    """Whether any needle of q appears in any of the values (for choosing a snippet field)."""
    needles = _needles(q)
    return any(n.lower() in v.lower() for v in values for n in needles)


def _needles(q: str) -> list[str]:
    needles: list[str] = []
    for term in (t for group in term_groups(q) for t in group):
        if HANGUL_RUN.fullmatch(term):
            needles.append(term)
        else:
            needles.extend(w for w in term.split() if len(w) >= 2 or w.isdigit())
            if " " in term:
                needles.append(term)
    return sorted(set(needles), key=len, reverse=True)


def _clip(value: str, start: int, width: int) -> str:
    excerpt = value[start : start + width]
    prefix = "… " if start > 0 else ""
    suffix = " …" if start + width < len(value) else ""
    return prefix + excerpt + suffix
