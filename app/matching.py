"""Graceful matching: which incidents a search selects, and in which order.

The rule (Elasticsearch's `minimum_should_match`, with the number chosen from the search text):

1. The query's clauses are its words (an identifier, a quoted phrase, ``a OR b`` and a
   multi-word synonym such as "ran out" are one clause each). Stopwords ("the", "after",
   "후", "때문에") were left out when the text was read; a word found in more than half of the
   library ("outage", "장애") is *common*: it orders the results but does not decide them.
   The other n clauses are the *deciding* words.
2. m is the largest number such that at least ENOUGH incidents match m of the n deciding
   words (m = n when ENOUGH incidents have them all); when no m reaches ENOUGH, m = 1. The
   result is every incident that matches at least m deciding words, has every quoted phrase,
   and has none of the excluded words; when m < n it also keeps the incidents whose matched
   words weigh (by rarity, see 3.) as much as the ENOUGH-th best, so two rare words are not
   dropped for three common ones.
3. Order: the deciding words matched first, each counted by how rare it is in the library
   (its inverse document frequency, so "monzo linkerd" outweighs "traffic pods"); then the
   sum over the clauses of FTS5's bm25
   with field weights (title, organisation, tags with their aliases, body), raised for the
   first incidents where two query words stand together or a word is found as typed rather
   than only as a stem; then newest first, which only breaks ties.

The choice depends on the search text alone, never on the facet filters, so that the search
is one bitset per text: every facet count ("click this value -> this many results"), the
page, the API, the feed, the export and the graph all AND the same set with their filters.
Each clause's own bitset and scores are computed once and cached (app/store.py), so a query
costs a few numpy passes over per-word arrays, and no FTS5 query ranks the whole OR.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

ENOUGH = 10  # fewer incidents than this with all the words: relax to the most of them
COMMON = 0.5  # share of the library above which a word orders results but does not decide
RERANK = 60  # how many of the first results are raised for phrases and exact words
PHRASE_BOOST = 0.3  # per pair of query words found next to each other
EXACT_BOOST = 0.1  # per query word found as typed, not only as a stem


@dataclass(frozen=True)
class TermHits:
    """One clause's incidents: sort ranks (each once) with their bm25 scores (higher is better)."""

    ranks: np.ndarray
    scores: np.ndarray

    @property
    def count(self) -> int:
        return int(len(self.ranks))


@dataclass(frozen=True)
class Selection:
    """The outcome of the rule: the set as a boolean mask, its order, and how it was chosen."""

    mask: np.ndarray
    order: np.ndarray
    matched: np.ndarray  # deciding words matched, per sort rank
    score: np.ndarray  # summed bm25 scores, per sort rank
    weight: np.ndarray  # the matched deciding words' summed rarity (idf), per sort rank
    deciding: tuple[int, ...]  # indexes of the deciding clauses
    needed: int  # m
    with_all: int  # incidents (allowed ones) with every deciding word


def select(
    total: int,
    clauses: Sequence[TermHits],
    *,
    required: Sequence[int] = (),
    excluded: Sequence[TermHits] = (),
) -> Selection:
    """Apply the rule to per-clause hits over a library of `total` incidents."""
    deciding = tuple(i for i, c in enumerate(clauses) if c.count <= COMMON * total)
    if not deciding:
        deciding = tuple(range(len(clauses)))
    matched = np.zeros(total, dtype=np.int16)
    score = np.zeros(total, dtype=np.float64)
    weight = np.zeros(total, dtype=np.float64)
    for index, clause in enumerate(clauses):
        if index in deciding:
            matched[clause.ranks] += 1
            weight[clause.ranks] += rarity(total, clause.count)
        score[clause.ranks] += clause.scores
    allowed = np.ones(total, dtype=bool)
    for index in required:
        allowed &= _mask(total, clauses[index])
    for clause in excluded:
        allowed[clause.ranks] = False
    n = len(deciding)
    if not clauses:
        # Only exclusions: everything without them, newest first.
        order = np.flatnonzero(allowed)
        return Selection(allowed, order, matched, score, weight, (), 0, int(len(order)))
    counts = np.bincount(matched[allowed], minlength=n + 1)
    at_least = np.cumsum(counts[::-1])[::-1]  # at_least[m]: allowed incidents with >= m words
    needed = next((m for m in range(n, 0, -1) if at_least[m] >= ENOUGH), 1)
    mask = allowed & (matched >= needed)
    if needed < n:
        # Relaxed: a word's worth is its rarity, so two rare words ("monzo linkerd") count for
        # more than three common ones. Keep every incident whose matched words weigh at least
        # the ENOUGH-th best weight (the same number of results or a few more, never fewer).
        weights = np.sort(weight[allowed & (matched > 0)])[::-1]
        if len(weights) >= ENOUGH:
            floor = weights[ENOUGH - 1] - 1e-9
            mask = allowed & (matched > 0) & ((weight >= floor) | (matched >= needed))
    picked = np.flatnonzero(mask)
    if len(picked):
        # The rarity floor can admit an incident with fewer words: say what every result has.
        needed = int(matched[picked].min())
    # lexsort: the last key is the primary one. Ranks ascend, so ties go to the newest.
    # Rarity is rounded so that bm25, not float noise, orders incidents with the same words.
    worth = np.round(weight[picked], 3)
    order = picked[np.lexsort((picked, -score[picked], -worth))]
    return Selection(mask, order, matched, score, weight, deciding, needed, int(at_least[n]))


def rarity(total: int, count: int) -> float:
    """A word's worth in a relaxed search: the rarer in a library of `total`, the more."""
    return float(np.log((total + 1) / (count + 0.5)))


def _mask(total: int, clause: TermHits) -> np.ndarray:
    mask = np.zeros(total, dtype=bool)
    mask[clause.ranks] = True
    return mask


def rerank(
    selection: Selection,
    texts: Mapping[int, str],
    typed: Sequence[str],
) -> np.ndarray:
    """The order with its first RERANK incidents raised for phrases and exact words.

    Only among incidents with the same words matched: the rule's first key is never overridden.
    `typed` are the deciding words as typed, in query order; `texts` the head's text by rank.
    """
    head = selection.order[:RERANK]
    if len(head) < 2 or not typed:
        return selection.order
    exact = [re.compile(rf"(?<![^\W_]){re.escape(w)}(?![^\W_])", re.IGNORECASE) for w in typed]
    pairs = [
        re.compile(rf"(?<![^\W_]){re.escape(a)}\w*[\s\-_]+{re.escape(b)}", re.IGNORECASE)
        for a, b in zip(typed, typed[1:], strict=False)
    ]
    keys = []
    for rank in head:
        text = texts.get(int(rank), "")
        boost = 1.0
        boost += PHRASE_BOOST * sum(1 for p in pairs if p.search(text))
        boost += EXACT_BOOST * sum(1 for p in exact if p.search(text))
        rarity = -round(float(selection.weight[rank]), 3)
        keys.append((rarity, -float(selection.score[rank]) * boost, rank))
    keys.sort()
    raised = np.array([k[2] for k in keys], dtype=selection.order.dtype)
    return np.concatenate((raised, selection.order[RERANK:]))
