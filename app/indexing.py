"""What `build` writes for search, the same as app/search.py's `index_text` and `words_of` say,
in fewer passes.

Profiled on the benchmark's 100,000 incidents, these two were most of a build's Python time:
Python's regex engine tested each of an incident's ~1,900 section characters against the Hangul
and word classes four times over, and stripped particles from every Korean word. Here long text
is read once as an array of code points (numpy), each class is one vectorised comparison or
table lookup, and a token becomes a word (particle stripped, too short dropped) once per
distinct token. Short text gains nothing from numpy's set-up and goes through app/search.py;
texts met in every incident (organisations, the taxonomy's labels) are worked out once per
build (`indexed`). tests/test_indexing.py checks all of it against app/search.py on generated
text.
"""

import sys
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from app.search import LATIN_TOKEN, index_parts, index_text, strip_particle, words_of

SHORT = 400  # characters: below this, app/search.py's regex passes are quicker than numpy
_FIRST, _SYLLABLES = 0xAC00, 11172  # Hangul syllables, U+AC00-U+D7A3 (HANGUL_RUN)
_SPACE = np.array([32], dtype=np.uint32)
_Points = npt.NDArray[np.uint32]
_Mask = npt.NDArray[np.bool_]


class Indexed(NamedTuple):
    """One text as the index takes it: index_text's three parts and words_of's words."""

    latin: str
    pairs: str
    singles: str
    words: frozenset[str]

    @property
    def column(self) -> str:
        """index_text of the text."""
        return f"{self.latin} {self.pairs} {self.singles}"


class _Texts(dict[str, Indexed]):
    """Short texts met in many incidents (an organisation, a term's labels), each worked out
    once."""

    limit = 1 << 16

    def __missing__(self, value: str) -> Indexed:
        if len(self) >= self.limit:
            self.clear()  # more distinct texts than that: start again
        found = self[value] = Indexed(*index_parts(value), frozenset(words_of(value)))
        return found


_TEXTS = _Texts()


def indexed(value: str) -> Indexed:
    """index_text's parts and words_of's words of a short text met in many incidents."""
    return _TEXTS[value]


def joined(texts: list[Indexed]) -> tuple[str, frozenset[str]]:
    """index_text and words_of of the texts joined by spaces, from each text's parts.

    Nothing Korean spans the joining space, so index_text's parts of the whole are each
    text's parts in order: the same characters.
    """
    latin = " ".join([t.latin for t in texts])
    pairs = " ".join([t.pairs for t in texts if t.pairs])
    singles = " ".join([t.singles for t in texts if t.singles])
    return f"{latin} {pairs} {singles}", frozenset().union(*[t.words for t in texts])


def column_text(value: str) -> str:
    """index_text(value), character for character."""
    if len(value) < SHORT:
        return index_text(value)
    points = _code_points(value)
    hangul = _hangul(points)
    if not hangul.any():
        return f"{value}  "
    padded = np.zeros(len(points) + 2, dtype=np.bool_)
    padded[1:-1] = hangul
    before, after = padded[:-2], padded[2:]
    # The text with each Korean run replaced by one space (HANGUL_RUN.sub(" ", value)), every
    # pair of neighbouring syllables, "ab bc cd" (HANGUL_PAIR), and every syllable with no
    # Korean neighbour (HANGUL_SINGLE).
    latin = np.where(hangul, 32, points)[~(hangul & before)]
    pairs = _joined(points, np.flatnonzero(hangul & after), 2)
    singles = _joined(points, np.flatnonzero(hangul & ~(before | after)), 1)
    return _text(np.concatenate((latin, _SPACE, pairs, _SPACE, singles)))


class WordCounter:
    """How many incidents use each vocabulary word (words_of's words, each once per incident).

    Words are counted by number where the incidents are prepared: an incident's few hundred
    distinct words are a set of small ints, and a batch's counts one numpy bincount. Sets of
    words sent to the main process and counted there were its second-largest cost.
    """

    def __init__(self) -> None:
        _latin_table()  # made before a build forks its workers, which then share it
        self.numbers: dict[str, int] = {"": 0}  # 0: not a word
        self.words = [""]
        self.seen: list[int] = []
        self._latin = _Memo(self._latin_number)
        self._korean = _Memo(self._korean_number)

    def add(self, text: str, words: Iterable[str] = ()) -> None:
        """One incident: the words of this text, and these words."""
        numbers = self._long(text) if len(text) >= SHORT else set(map(self.number, words_of(text)))
        numbers.update(map(self.number, words))
        self.seen.extend(numbers)

    def counts(self) -> Counter[str]:
        """Incidents per word since the last call."""
        bins = np.bincount(np.array(self.seen, dtype=np.intp), minlength=1)
        bins[0] = 0
        self.seen = []
        return Counter({self.words[n]: int(bins[n]) for n in np.flatnonzero(bins)})

    def number(self, word: str) -> int:
        found = self.numbers.get(word)
        if found is None:
            found = self.numbers[word] = len(self.words)
            self.words.append(word)
        return found

    def _long(self, text: str) -> set[int]:
        """The numbers of words_of(text).

        Lower case leaves Korean alone, and a Hangul syllable, like a space, is neither cased
        nor case-ignorable (the context of a final sigma): lowering the text with its Korean
        blanked out gives the same Latin tokens from a far shorter, usually ASCII, text.
        """
        points = _code_points(text)
        hangul = _hangul(points)
        lower = _code_points(_text(np.where(hangul, 32, points)).lower())
        latin = _text(np.where(_latin_table()[lower], lower, 32)).split()
        korean = _text(np.where(hangul, points, 32)).split()
        numbers = set(map(self._latin.__getitem__, latin))
        numbers.update(map(self._korean.__getitem__, korean))
        return numbers

    def _latin_number(self, token: str) -> int:
        return self.number(token) if len(token) >= 3 and not token.isdigit() else 0

    def _korean_number(self, run: str) -> int:
        return self.number(strip_particle(run)) if len(run) >= 2 else 0


class _Memo(dict[str, int]):
    """token -> the number of the word words_of keeps of it (0: none), computed at first sight."""

    def __init__(self, number: Callable[[str], int], limit: int = 1 << 17) -> None:
        super().__init__()
        self.number = number
        self.limit = limit

    def __missing__(self, token: str) -> int:
        if len(self) >= self.limit:
            self.clear()  # more distinct tokens than that (numbers, IDs): start again
        found = self[token] = self.number(token)
        return found


def _code_points(value: str) -> _Points:
    points: _Points = np.frombuffer(value.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    return points


def _text(points: npt.NDArray[np.integer]) -> str:
    return points.astype(np.uint32, copy=False).tobytes().decode("utf-32-le", "surrogatepass")


def _hangul(points: _Points) -> _Mask:
    """Which code points are Hangul syllables (HANGUL_RUN's class); below the first, the
    unsigned difference wraps round to a large number."""
    mask: _Mask = (points - _FIRST) < _SYLLABLES
    return mask


def _joined(points: _Points, starts: npt.NDArray[np.intp], size: int) -> _Points:
    """The `size`-character strings that start at `starts`, separated by spaces."""
    out = np.full((len(starts), size + 1), 32, dtype=np.uint32)
    for offset in range(size):
        out[:, offset] = points[starts + offset]
    flat: _Points = out.ravel()[:-1]
    return flat


@lru_cache(maxsize=1)
def _latin_table() -> _Mask:
    """For every code point: can it be part of a Latin (non-Korean) word token? Read from
    LATIN_TOKEN itself, so the two cannot disagree."""
    table = np.zeros(sys.maxunicode + 1, dtype=np.bool_)
    for match in LATIN_TOKEN.finditer("".join(map(chr, range(sys.maxunicode + 1)))):
        table[match.start() : match.end()] = True
    return table
