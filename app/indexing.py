"""What `build` writes for search, the same as app/search.py's `index_text` and `words_of` say,
in fewer passes.

Profiled on the benchmark's 100,000 incidents, these two were most of a build's Python time:
Python's regex engine tested each of an incident's ~1,900 section characters against the Hangul
and word classes four times over, and stripped particles from every Korean word. Here long text
is read once as an array of code points (numpy) for the index, each class one vectorised
comparison; its words come from one str.split, each distinct piece made a word (lowered,
particle stripped, too short dropped) once per build. Short text gains nothing from numpy's
set-up and goes through app/search.py; texts met in every incident (organisations, the
taxonomy's labels) are worked out once per build (`indexed`). tests/test_indexing.py checks all
of it against app/search.py on generated text.
"""

from collections import Counter
from collections.abc import Callable, Iterable
from typing import NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from app.search import index_parts, index_text, words_of

Key = TypeVar("Key")
Value = TypeVar("Value")

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


def joined(texts: list[Indexed]) -> str:
    """index_text of the texts joined by spaces, from each text's parts (words_of the whole
    is the union of their words).

    Nothing Korean spans the joining space, so index_text's parts of the whole are each
    text's parts in order: the same characters.
    """
    latin = " ".join([t.latin for t in texts])
    pairs = " ".join([t.pairs for t in texts if t.pairs])
    singles = " ".join([t.singles for t in texts if t.singles])
    return f"{latin} {pairs} {singles}"


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

    A text's words are its whitespace-separated pieces' words: no token of words_of holds a
    space, and lowering a piece alone lowers it as in the whole text (the one context-dependent
    mapping, a final sigma, looks past case-ignorable characters only, and no whitespace is
    one: tests/test_indexing.py checks every code point). So a text is one str.split, and each
    distinct piece is worked out once per build: the number of its one word, 0 when it has
    none, or (rarely: kube-proxy, WARM_IP_TARGET) a number standing for several.
    """

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {"": 0}  # 0: not a word
        self.words = [""]
        self.seen: list[int] = []
        self._pieces: _Memo[str, int] = _Memo(self._piece_number)
        # Pieces of several words have negative numbers, which stand for their words' numbers.
        self._several: dict[int, tuple[int, ...]] = {}
        self._several_numbers: dict[tuple[int, ...], int] = {}
        self._sets: _Memo[frozenset[str], tuple[int, ...]] = _Memo(
            lambda words: tuple(map(self.number, words))
        )

    def add(self, text: str, sets: Iterable[frozenset[str]] = ()) -> None:
        """One incident: the words of this text, and the words in these sets (each met in many
        incidents: an organisation's, a term's; `indexed`)."""
        numbers = set(map(self._pieces.__getitem__, text.split()))
        if not numbers.isdisjoint(self._several):
            for several in numbers.intersection(self._several):
                numbers.discard(several)
                numbers.update(self._several[several])
        for words in sets:
            numbers.update(self._sets[words])
        self.seen.extend(numbers)

    def counts(self) -> Counter[str]:
        """Incidents per word since the last call."""
        seen = np.fromiter(self.seen, dtype=np.intp, count=len(self.seen))
        bins = np.bincount(seen, minlength=1)
        bins[0] = 0
        self.seen = []
        return Counter({self.words[n]: int(bins[n]) for n in np.flatnonzero(bins)})

    def number(self, word: str) -> int:
        found = self.numbers.get(word)
        if found is None:
            found = self.numbers[word] = len(self.words)
            self.words.append(word)
        return found

    def _piece_number(self, piece: str) -> int:
        words = words_of(piece)
        if len(words) <= 1:
            return self.number(words.pop()) if words else 0
        numbers = tuple(sorted(map(self.number, words)))
        several = self._several_numbers.get(numbers)
        if several is None:
            several = self._several_numbers[numbers] = -1 - len(self._several)
            self._several[several] = numbers
        return several


class _Memo(dict[Key, Value]):
    """key -> number(key), computed at first sight (WordCounter: a piece's number, a word
    set's numbers)."""

    LIMIT = 1 << 17

    def __init__(self, number: Callable[[Key], Value]) -> None:
        super().__init__()
        self.number = number

    def __missing__(self, key: Key) -> Value:
        if len(self) >= self.LIMIT:
            self.clear()  # more distinct keys than that (numbers, IDs): start again
        found = self[key] = self.number(key)
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
