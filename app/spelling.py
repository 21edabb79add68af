"""Typo correction against the library's own vocabulary (the words `build` writes).

A query word that matches no incident at all is replaced by the nearest vocabulary word, by
optimal-string-alignment distance (a swap of two letters counts once), computed by rapidfuzz:
at most 1 edit for words of 4-7 letters, 2 from 8 letters; Korean words are compared letter by
letter (jamo, 쿠버네티즈 -> 쿠버네티스 is one edit) and need two syllables. Ties go to the word
found in more incidents. Identifiers (anything with a digit, `_`, `-`, `.` or capitals after
the first letter: WARM_IP_TARGET, us-east-1, IL-0129, kube-proxy, EKS), quoted words and words
of three letters or fewer are never corrected.
"""

import unicodedata
from collections.abc import Mapping

from rapidfuzz import process
from rapidfuzz.distance import OSA

from app.search import HANGUL_RUN, Word

MIN_LATIN = 4
MIN_KOREAN = 2


def jamo(word: str) -> str:
    """Hangul syllables decomposed into their letters (NFD), so one wrong letter is one edit."""
    return unicodedata.normalize("NFD", word)


class Speller:
    """Nearest vocabulary word for a word the index does not know."""

    def __init__(self, docs: Mapping[str, int]) -> None:
        self.docs = dict(docs)
        self.latin = [w for w in self.docs if not HANGUL_RUN.search(w)]
        self.korean = [w for w in self.docs if HANGUL_RUN.fullmatch(w)]
        self.korean_jamo = [jamo(w) for w in self.korean]

    def correct(self, word: Word) -> str | None:
        """The vocabulary word to search instead of `word`, or None to keep it."""
        if word.fixed or word.parts > 1 or word.key in self.docs:
            return None
        if word.korean:
            if len(word.key) < MIN_KOREAN:
                return None
            return self._nearest(jamo(word.key), self.korean_jamo, self.korean, 1)
        if len(word.key) < MIN_LATIN or not word.key.isalpha():
            return None
        limit = 1 if len(word.key) < 8 else 2
        return self._nearest(word.key, self.latin, self.latin, limit)

    def _nearest(self, key: str, choices: list[str], words: list[str], limit: int) -> str | None:
        found = process.extract(key, choices, scorer=OSA.distance, score_cutoff=limit, limit=None)
        if not found:
            return None
        best = min(found, key=lambda f: (f[1], -self.docs[words[f[2]]], words[f[2]]))
        return words[best[2]]
