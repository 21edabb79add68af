"""Search text: tokenising, the query syntax people know, and FTS5 MATCH strings.

Tokenizer choice (why): FTS5's unicode61 keeps a Korean word and its particle as one token
(스토리지에서), and trigram cannot match two-syllable words (전력, 노드) at all. So Korean runs
are split here into overlapping syllable bigrams (스토리지에서 -> 스토 토리 리지 지에 에서) before
they reach FTS5, for the indexed text and for the query alike: a query word becomes the phrase of
its bigrams, which matches it anywhere inside a longer word. A one-syllable query uses a prefix
query on the bigrams. Latin text goes through `porter unicode61`, which folds case and simple
inflection (timeouts -> timeout); identifiers such as WARM_IP_TARGET, kube-proxy or us-east-1
are split into their parts by unicode61 on both sides and matched as an exact phrase.

Query syntax, the same in English and Korean (`parse_query` reads it once into a `Query`):
``-word`` or ``-"a phrase"`` excludes; ``a OR b`` (also ``또는``) matches either; ``"exact
phrase"`` must appear as written (no typo correction, no synonyms). Anything else, FTS5
operators included, is a plain word: every word reaches FTS5 inside a quoted phrase, so user
text is never FTS5 syntax, and unbalanced quotes, a lone ``-`` or ``OR OR`` are read leniently.
How the clauses of a query decide which incidents match is app/matching.py's job.
"""

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")
HANGUL_PAIR = re.compile(r"(?=([\uac00-\ud7a3]{2}))")
HANGUL_SINGLE = re.compile(r"(?<![\uac00-\ud7a3])[\uac00-\ud7a3](?![\uac00-\ud7a3])")
# A Korean run, or a run of other letters and digits (so "IP가" is "IP" + "가").
TOKEN = re.compile(r"[\uac00-\ud7a3]+|[^\W_\uac00-\ud7a3]+", re.UNICODE)
LATIN_TOKEN = re.compile(r"[^\W_\uac00-\ud7a3]+")  # TOKEN's second kind alone
# Particles and endings commonly attached to nouns and verbs; stripped from query words so that
# 스토리지에서 also finds 스토리지는, and 만료돼서 finds 만료됐다.
PARTICLES = sorted(
    (
        "에서는 에서도 에서 에게 으로 로는 로 까지 부터 처럼 보다 이나 나"
        " 은 는 이 가 을 를 의 와 과 도 만 에 이다 했다 됐다 되어 돼서 되면서 하면서"
        " 해서 하여 되는 하는 되고 하고 됐고 했고 되지 하지 된 한 됨 함 돼 되다 하다"
    ).split(),
    key=len,
    reverse=True,
)
PARTICLE_SET = frozenset(PARTICLES)
PARTICLE_SIZES = sorted({len(p) for p in PARTICLES}, reverse=True)
# Words that carry no meaning of their own: they never decide whether an incident matches.
STOPWORDS = frozenset(
    (
        "a an and are as at be been being but by did do does for from had has have how i in"
        " into is it its me my of on or our so some than that the their then there these this"
        " those to was we were what when where which while who why will with without you"
        " after before during because due kept keep keeps got get gets went about again also"
        " any issue issues problem problems incident incidents happened happen thing things"
        " something somehow very"
        " couldn didn wouldn wasn weren don doesn isn aren won can cannot shouldn hadn hasn"
        " 후 후에 때 때문 때문에 문제 문제가 중 및 등 것 수 더 또 그 이 저 관련 경우 뒤 다음 때의"
        " 사례 사건 이슈 어떤 있던 있었던 했던 됐던"
    ).split()
)
OR_WORDS = frozenset(("OR", "|", "또는"))
MAX_CLAUSES = 12
MAX_RUN = 4  # the longest run of query words looked up as one synonym (out of memory)
PARTICLE_WORDS = ("out", "over", "back", "down", "up", "off")
COMPOUND = re.compile(rf"^([a-z]{{3,}}?)({'|'.join(PARTICLE_WORDS)})s?$")
IDENTIFIER_MARK = re.compile(r"[0-9_\-./:@]")
PIECE_SPLIT = re.compile(r"[^\w\-./:@]+")


def bigrams(run: str) -> str:
    """A Hangul run as space-separated syllable bigrams (a single syllable stays as is)."""
    if len(run) < 2:
        return run
    return " ".join(map(str.__add__, run, run[1:]))


def index_text(value: str) -> str:
    """Text as stored in the FTS index: the non-Korean text, then every Korean syllable bigram
    in order (overlapping, never across a space), then one-syllable Korean words.

    `build` computes the same text with fewer passes (app/indexing.py).
    """
    return " ".join(index_parts(value))


def index_parts(value: str) -> tuple[str, str, str]:
    """index_text's three parts: the text with each Korean run blanked, the bigrams, the
    one-syllable words."""
    return (
        HANGUL_RUN.sub(" ", value),
        " ".join(HANGUL_PAIR.findall(value)),
        " ".join(HANGUL_SINGLE.findall(value)),
    )


def strip_particle(word: str) -> str:
    """스토리지에서 -> 스토리지; keeps at least two syllables.

    The longest particle the word ends with wins; at most one particle of each length can be
    its ending, so one set lookup per length finds it.
    """
    for size in PARTICLE_SIZES:
        if len(word) - size >= 2 and word[-size:] in PARTICLE_SET:
            return word[:-size]
    return word


def words_of(text: str) -> set[str]:
    """The vocabulary words of a text: lowercase Latin words, Korean words without particles.

    `build` runs this over every incident's ~3 KB of text, where the same words recur: each
    distinct token is looked at once (an incident has far fewer distinct tokens than tokens).
    """
    lower = text.lower()
    out = {t for t in set(LATIN_TOKEN.findall(lower)) if len(t) >= 3 and not t.isdigit()}
    out.update(strip_particle(t) for t in set(HANGUL_RUN.findall(lower)) if len(t) >= 2)
    return out


# -- the query model -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Word:
    """One searchable unit: a word, an identifier, a quoted phrase or a multi-word synonym."""

    text: str  # as the person typed it
    key: str  # normalised: lowercase Latin parts joined by spaces, or a Korean stem
    korean: bool = False
    identifier: bool = False  # IDs, slugs, WARM_IP_TARGET: never corrected or expanded
    quoted: bool = False
    parts: int = 1  # how many typed words it joins (ran out = 2)

    @property
    def fixed(self) -> bool:
        """Taken as written: no typo correction."""
        return self.quoted or self.identifier


@dataclass(frozen=True)
class Clause:
    """What one position of the query asks for: any of its words (usually exactly one)."""

    words: tuple[Word, ...]
    required: bool = False  # a quoted phrase: every result has it

    @property
    def text(self) -> str:
        return " OR ".join(_shown(w) for w in self.words)


@dataclass(frozen=True)
class Query:
    """Search text read once: clauses that match, clauses that exclude, words left out."""

    clauses: tuple[Clause, ...] = ()
    excluded: tuple[Clause, ...] = ()
    stopwords: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.clauses and not self.excluded


@dataclass(frozen=True)
class Synonyms:
    """Groups of words and phrases that mean the same (data/synonyms.yaml), by normalised key."""

    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, groups: Iterable[Iterable[str]]) -> "Synonyms":
        by_key: dict[str, tuple[str, ...]] = {}
        for group in groups:
            keys = tuple(dict.fromkeys(k for k in (normal_key(e) for e in group) if k))
            for key in keys:
                by_key[key] = keys
        return cls(by_key)

    def of_key(self, key: str) -> tuple[str, ...]:
        """The other keys of key's group, in the file's order."""
        return tuple(k for k in self.groups.get(key, ()) if k != key)


NO_SYNONYMS = Synonyms()


def normal_key(text: str) -> str:
    """A synonym entry or a query run, normalised as query words are (k8s, 인증서 만료)."""
    return " ".join(w.key for w in _words(text, quoted=False))


def _words(raw: str, *, quoted: bool) -> list[Word]:
    """The Words of one typed token (or of a quoted phrase's text)."""
    out: list[Word] = []
    for piece in PIECE_SPLIT.split(raw):
        piece = piece.strip("-./:@")
        tokens = TOKEN.findall(piece)
        latin = [t for t in tokens if not HANGUL_RUN.fullmatch(t)]
        if len(latin) > 1 and len(latin) == len(tokens):
            # An identifier stays together (WARM_IP_TARGET, us-east-1): its parts are a phrase.
            key = " ".join(t.lower() for t in latin)
            out.append(Word(piece, key, identifier=True, quoted=quoted))
            continue
        for position, token in enumerate(tokens):
            if HANGUL_RUN.fullmatch(token):
                stem = token if quoted else strip_particle(token)
                if position and not quoted and stem in PARTICLE_SET:
                    continue  # a particle written onto a Latin word: "IP가"
                out.append(Word(token, stem, korean=True, quoted=quoted))
            else:
                lower = token.lower()
                identifier = bool(
                    IDENTIFIER_MARK.search(piece) or (token[1:] and not token[1:].islower())
                )
                if len(lower) < 2 and not lower.isdigit() and not quoted:
                    continue
                out.append(Word(token, lower, identifier=identifier, quoted=quoted))
    return out


_QUERY_TOKEN = re.compile(r'(-?)"([^"]*)"?|(\S+)')


def parse_query(q: str, synonyms: Synonyms = NO_SYNONYMS) -> Query:
    """Read search text into a Query; never fails, whatever the text."""
    items: list[tuple[str, bool, list[Word]]] = []  # (kind, negated, words); kind: or/word/quote
    for match in _QUERY_TOKEN.finditer(q):
        sign, phrase, raw = match.groups()
        if raw is None:
            words = _words(phrase, quoted=True)
            if words:
                quoted_word = _join(words, quoted=True)
                items.append(("quote", sign == "-", [quoted_word]))
            continue
        if raw in OR_WORDS:
            items.append(("or", False, []))
            continue
        negated = raw.startswith("-")
        words = _words(raw[1:] if negated else raw, quoted=False)
        if words:
            items.append(("word", negated, words))
    clauses: list[Clause] = []
    excluded: list[Clause] = []
    plain: list[Word] = []  # consecutive plain words, merged into synonyms and compounds
    join_next = False

    def flush() -> None:
        clauses.extend(Clause((w,)) for w in _merge_runs(plain, synonyms))
        plain.clear()

    for index, (kind, negated, words) in enumerate(items):
        if kind == "or":
            join_next = bool(clauses or plain) and index + 1 < len(items)
            continue
        if negated:
            flush()
            excluded.append(Clause(tuple(words)) if kind == "quote" else Clause((_join(words),)))
            join_next = False
            continue
        if join_next:
            flush()
            previous = clauses.pop()
            # OR joins whole tokens: the last word before it and the first after it.
            if kind == "quote":
                clauses.append(Clause((*previous.words, *words), previous.required))
            else:
                clauses.append(Clause((*previous.words, words[0]), previous.required))
                plain.extend(words[1:])
            join_next = False
            continue
        if kind == "quote":
            flush()
            clauses.append(Clause(tuple(words), required=True))
        else:
            plain.extend(words)
    flush()
    kept, dropped = _drop_stopwords(clauses)
    return Query(
        tuple(_unique(kept)[:MAX_CLAUSES]), tuple(_unique(excluded)[:MAX_CLAUSES]), dropped
    )


def _join(words: list[Word], *, quoted: bool = False) -> Word:
    if len(words) == 1:
        return words[0]
    text = " ".join(w.text for w in words)
    key = " ".join(w.key for w in words)
    korean = any(w.korean for w in words)
    return Word(text, key, korean, identifier=False, quoted=quoted, parts=len(words))


def _merge_runs(words: list[Word], synonyms: Synonyms) -> list[Word]:
    """Runs that are one synonym entry (ran out, 인증서 만료) or one verb (timed out) merge."""
    out: list[Word] = []
    index = 0
    while index < len(words):
        for size in range(min(MAX_RUN, len(words) - index), 1, -1):
            run = words[index : index + size]
            key = " ".join(w.key for w in run)
            if key in synonyms.groups and not any(w.identifier for w in run):
                out.append(_join(run))
                index += size
                break
        else:
            word = words[index]
            following = words[index + 1] if index + 1 < len(words) else None
            if (
                following is not None
                and following.key in PARTICLE_WORDS
                and word.key.isalpha()
                and word.key.isascii()
            ):
                out.append(_join([word, following]))
                index += 2
            else:
                out.append(word)
                index += 1
    return out


def _drop_stopwords(clauses: list[Clause]) -> tuple[list[Clause], tuple[str, ...]]:
    def is_stop(clause: Clause) -> bool:
        word = clause.words[0]
        return len(clause.words) == 1 and not word.quoted and word.parts == 1 and _is_stop(word)

    kept = [c for c in clauses if not is_stop(c)]
    if not kept:
        return clauses, ()  # only stopwords: search them as they are
    return kept, tuple(dict.fromkeys(c.words[0].text for c in clauses if is_stop(c)))


def _is_stop(word: Word) -> bool:
    return word.key in STOPWORDS or word.text.lower() in STOPWORDS


def _unique(clauses: list[Clause]) -> list[Clause]:
    seen: set[tuple[str, ...]] = set()
    out = []
    for clause in clauses:
        key = tuple(sorted(w.key for w in clause.words))
        if key not in seen:
            seen.add(key)
            out.append(clause)
    return out


def _shown(word: Word) -> str:
    return f'"{word.text}"' if word.quoted else word.text


# -- FTS5 expressions ----------------------------------------------------------------------------
def word_keys(word: Word, synonyms: Synonyms = NO_SYNONYMS) -> tuple[str, ...]:
    """The keys one word searches: its own, then its synonyms' (none for a quoted phrase)."""
    if word.quoted:
        return (word.key,)
    return (word.key, *synonyms.of_key(word.key))


def clause_expression(clause: Clause, synonyms: Synonyms = NO_SYNONYMS) -> str:
    """One FTS5 MATCH string for a clause: any of its words, any of their spellings."""
    phrases: list[str] = []
    for word in clause.words:
        for index, key in enumerate(word_keys(word, synonyms)):
            exact = word.quoted or word.identifier if index == 0 else False
            phrases.extend(key_phrases(key, exact=exact))
    unique = list(dict.fromkeys(phrases))
    return unique[0] if len(unique) == 1 else " OR ".join(unique)


def key_phrases(key: str, *, exact: bool = False) -> list[str]:
    """FTS5 phrases for one normalised key: its spellings (timeout, time out), its spacings."""
    parts = key.split()
    if exact or len(parts) == 1:
        if len(parts) == 1 and not exact:
            return _word_phrases(parts[0])
        return [_phrase(parts)]
    if len(parts) == 2 and parts[1] in PARTICLE_WORDS and parts[0].isascii():
        stems = {parts[0], parts[0][:-1], parts[0][:-2]} if parts[0].endswith("ed") else {parts[0]}
        joined = sorted(stem + parts[1] for stem in stems if len(stem) >= 3)
        return [_phrase(parts), *(_phrase([j]) for j in joined)]
    # Several words (out of memory, 인증서 만료): near each other, in any order.
    return ["NEAR(" + " ".join(_phrase([p]) for p in parts) + ", 6)"]


def _word_phrases(word: str) -> list[str]:
    if HANGUL_RUN.fullmatch(word):
        if len(word) == 1:
            return [f'"{word}" *']
        # Spacing variants: 데이터센터 also finds 데이터 센터 (bigrams never cross a space).
        splits = [_phrase([word[:k], word[k:]]) for k in range(2, len(word) - 1)]
        if len(word) == 3:
            # 노드풀 / 노드 풀: a one-syllable word is indexed on its own, apart from the bigrams.
            splits = [f'("{word[:2]}" AND "{word[2]}")', f'("{word[0]}" AND "{word[1:]}")']
        return [_phrase([word]), *splits]
    compound = COMPOUND.match(word)
    if compound:
        return [_phrase([word]), _phrase([compound.group(1), compound.group(2)])]
    return [_phrase([word])]


def _phrase(parts: list[str]) -> str:
    tokens = " ".join(bigrams(p) if HANGUL_RUN.fullmatch(p) else p for p in parts)
    return '"' + tokens.replace('"', " ") + '"'
