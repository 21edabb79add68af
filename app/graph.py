"""The graph view's model: weighted two-column graphs as networkx DiGraphs.

Pure: incidents arrive as bitsets (ints over sort_rank) and labels as strings; no DB, no HTTP.
An edge (a, b) weighs `(result & bits(a) & bits(b)).bit_count()`, the incidents in the result
tagged with both ends, so it equals the list's total for the same pair (issue #4).
Unless a minimum is asked for, the lines drawn are those of at least `legible_min` incidents:
at most MAX_LINES lines, so the default picture stays readable (issue #14). The order of the
columns is app/graph_order.py; the placement as SVG, app/graph_layout.py.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import networkx as nx

VIEWS: dict[str, tuple[str, str]] = {
    "cause-component": ("cause", "component"),
    "cause-factor": ("cause", "factor"),
    "cause-symptom": ("cause", "symptom"),
    "factor-component": ("factor", "component"),
    "component-symptom": ("component", "symptom"),
    "incident": ("incident", "term"),
}
DEFAULT_VIEW = "cause-component"
DEFAULT_LIMIT = 25
MAX_LINES = 60  # the default threshold keeps at most this many lines (issue #14)
INCIDENT_KINDS = ("cause", "component")  # the tags an incident links to in the incident view
# kinds, slugs -> the list URL for those values (plus the current filters)
Linker = Callable[[Sequence[tuple[str, str]]], str]


@dataclass(frozen=True)
class Term:
    """A candidate node: a taxonomy value (or an incident) and its incidents as a bitset."""

    kind: str
    slug: str
    label: str
    bits: int


@dataclass(frozen=True)
class Built:
    graph: nx.DiGraph
    hidden_left: int
    hidden_right: int
    min_weight: int = 1  # the threshold the lines were drawn with
    lines_below: int = 0  # lines left out for weighing less than that


def node_id(kind: str, slug: str) -> str:
    return f"{kind}:{slug}"


def ranked(result: int, terms: Sequence[Term]) -> list[tuple[Term, int]]:
    """Terms present in the result with their counts, most first, ties by slug."""
    counted = [(t, (result & t.bits).bit_count()) for t in terms]
    present = [(t, c) for t, c in counted if c]
    present.sort(key=lambda pair: (-pair[1], pair[0].slug))
    return present


def build_graph(
    left: Sequence[tuple[Term, int]],
    right: Sequence[tuple[Term, int]],
    edges: Sequence[tuple[Term, Term, int]],
    link: Linker,
) -> nx.DiGraph:
    """A DiGraph left to right: nodes carry kind, slug, label, count, side, url."""
    graph = nx.DiGraph()
    for side, nodes in (("left", left), ("right", right)):
        for term, count in nodes:
            graph.add_node(
                node_id(term.kind, term.slug),
                kind=term.kind,
                slug=term.slug,
                label=term.label,
                count=count,
                side=side,
                url=link([(term.kind, term.slug)]),
            )
    for a, b, weight in edges:
        graph.add_edge(
            node_id(a.kind, a.slug),
            node_id(b.kind, b.slug),
            weight=weight,
            url=link([(a.kind, a.slug), (b.kind, b.slug)]),
        )
    return graph


def pair_graph(
    result: int,
    left: Sequence[Term],
    right: Sequence[Term],
    *,
    link: Linker,
    limit: int | None = DEFAULT_LIMIT,
    min_weight: int | None = 1,
    max_lines: int = MAX_LINES,
) -> Built:
    """The co-occurrence graph of two kinds over the result: top `limit` nodes per side.

    `min_weight=None` draws the lines of at least `legible_min` incidents.
    """
    left_all, right_all = ranked(result, left), ranked(result, right)
    left_kept, right_kept = left_all[:limit], right_all[:limit]
    pairs: list[tuple[Term, Term, int]] = []
    for a, _ in left_kept:
        both = result & a.bits
        for b, _ in right_kept:
            weight = (both & b.bits).bit_count()
            if weight:
                pairs.append((a, b, weight))
    weights = [w for _, _, w in pairs]
    threshold = legible_min(weights, max_lines) if min_weight is None else min_weight
    edges = [pair for pair in pairs if pair[2] >= threshold]
    graph = build_graph(left_kept, right_kept, edges, link)
    hidden = (len(left_all) - len(left_kept), len(right_all) - len(right_kept))
    return Built(graph, *hidden, min_weight=threshold, lines_below=len(pairs) - len(edges))


def linked_only(graph: nx.DiGraph) -> nx.DiGraph:
    """A copy without the nodes no line meets (the list page's preview draws only lines)."""
    kept = graph.copy()
    kept.remove_nodes_from([n for n in graph.nodes if graph.degree(n) == 0])
    return kept


def legible_min(weights: Sequence[int], max_lines: int = MAX_LINES) -> int:
    """The smallest minimum weight that leaves at most `max_lines` lines (1 if all fit).

    Never above the heaviest weight: when the heaviest lines alone are too many (all tied), they
    are drawn all the same, rather than an empty picture.
    """
    heaviest = sorted(weights, reverse=True)
    if len(heaviest) <= max_lines:
        return 1
    # lines of weight >= w must be at most max_lines: w just above the (max_lines+1)-th weight
    return min(heaviest[max_lines] + 1, heaviest[0])


def incident_graph(
    result: int,
    incidents: Sequence[tuple[Term, Sequence[tuple[str, str]]]],
    terms: Sequence[Term],
    *,
    link: Linker,
    hidden: int,
) -> Built:
    """Incidents (left) linked to their tags (right); a tag's count is over the whole result."""
    by_key = {(t.kind, t.slug): t for t in terms}
    counts = dict(ranked(result, terms))
    edges: list[tuple[Term, Term, int]] = []
    used: dict[tuple[str, str], Term] = {}
    for incident, tags in incidents:
        for key in tags:
            term = by_key.get(key)
            if term is not None and term in counts:
                used[key] = term
                edges.append((incident, term, 1))
    right = sorted(((t, counts[t]) for t in used.values()), key=lambda p: (-p[1], p[0].slug))
    graph = build_graph([(i, 1) for i, _ in incidents], right, edges, link)
    return Built(graph, hidden, 0)
