"""The graph view's model: weighted two-column graphs as networkx DiGraphs, laid out as SVG.

Pure: incidents arrive as bitsets (ints over sort_rank) and labels as strings; no DB, no HTTP.
An edge (a, b) weighs `(result & bits(a) & bits(b)).bit_count()`, the incidents in the result
tagged with both ends, so it equals the list's total for the same pair (issue #4).
The layout is layered: one kind per column, rows at fixed spacing, order chosen by barycentre
sweeps to reduce (weighted) crossings; ties fall back to count and slug, so it is deterministic.
"""

import math
import unicodedata
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
INCIDENT_KINDS = ("cause", "component")  # the tags an incident links to in the incident view

# Geometry (SVG user units). Rows are fixed, so labels in one column never collide.
ROW = 26
TOP = 40
BOTTOM = 16
PAD = 12
GAP = 380  # horizontal distance between the two columns
FONT = 13
LABEL_OFFSET = 8
SPREAD = 2.0  # the shorter column's rows may be up to this many rows apart
MAX_LABEL_CHARS = 34
R_MIN, R_MAX = 4.0, ROW / 2 - 2
W_MIN, W_MAX = 1.5, 9.0

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
    min_weight: int = 1,
) -> Built:
    """The co-occurrence graph of two kinds over the result: top `limit` nodes per side."""
    left_all, right_all = ranked(result, left), ranked(result, right)
    left_kept, right_kept = left_all[:limit], right_all[:limit]
    edges: list[tuple[Term, Term, int]] = []
    for a, _ in left_kept:
        both = result & a.bits
        for b, _ in right_kept:
            weight = (both & b.bits).bit_count()
            if weight >= min_weight:
                edges.append((a, b, weight))
    graph = build_graph(left_kept, right_kept, edges, link)
    return Built(graph, len(left_all) - len(left_kept), len(right_all) - len(right_kept))


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


# -- layout ------------------------------------------------------------------------------------
def _positions(order: Sequence[str], rows: int) -> dict[str, float]:
    """Row centres (in rows): the shorter column spread (at most SPREAD rows apart) and centred.

    Spacing is fixed within a column and at least one row, so labels never overlap.
    """
    step = min(rows / len(order), SPREAD) if order else 1.0
    offset = (rows - step * len(order)) / 2
    return {node: offset + (index + 0.5) * step for index, node in enumerate(order)}


def crossings(graph: nx.DiGraph, left: Sequence[str], right: Sequence[str]) -> int:
    """Weighted crossings (sum of w1*w2 over crossing edge pairs), by a Fenwick tree."""
    lpos = {n: i for i, n in enumerate(left)}
    rpos = {n: i for i, n in enumerate(right)}
    edges = sorted(
        (lpos[u], rpos[v], int(w)) for u, v, w in graph.edges(data="weight") if u in lpos
    )
    size = len(right) + 1
    tree = [0] * (size + 1)
    total_seen = 0
    result = 0
    for _lp, rp, weight in edges:
        # weight already seen at right positions <= rp (those do not cross this edge)
        index, below = rp + 1, 0
        while index > 0:
            below += tree[index]
            index -= index & -index
        result += weight * (total_seen - below)
        index = rp + 1
        while index <= size:
            tree[index] += weight
            index += index & -index
        total_seen += weight
    return result


def _reorder(
    graph: nx.DiGraph, moving: Sequence[str], fixed: Sequence[str], rows: int, *, incoming: bool
) -> list[str]:
    """Sort `moving` by the weighted mean position of its neighbours in the fixed column."""
    rank = {node: index for index, node in enumerate(moving)}
    own, other_pos = _positions(moving, rows), _positions(fixed, rows)
    keys: dict[str, tuple[float, int]] = {}
    for node in moving:
        edges = graph.in_edges(node, data="weight") if incoming else graph.out_edges(node, "weight")
        total = weight_sum = 0.0
        for u, v, weight in edges:
            other = u if incoming else v
            total += other_pos[other] * weight
            weight_sum += weight
        # a node without edges keeps its place
        keys[node] = (total / weight_sum if weight_sum else own[node], rank[node])
    return sorted(moving, key=lambda node: keys[node])


def order_columns(graph: nx.DiGraph, sweeps: int = 6) -> tuple[list[str], list[str]]:
    """Barycentre ordering of both columns; starts from count order, keeps the fewest crossings."""

    def initial(side: str) -> list[str]:
        nodes = [n for n, s in graph.nodes(data="side") if s == side]
        return sorted(nodes, key=lambda n: (-graph.nodes[n]["count"], graph.nodes[n]["slug"]))

    left, right = initial("left"), initial("right")
    rows = max(len(left), len(right), 1)
    best = (crossings(graph, left, right), left, right)
    for _ in range(sweeps):
        previous = (left, right)
        right = _reorder(graph, right, left, rows, incoming=True)
        left = _reorder(graph, left, right, rows, incoming=False)
        score = crossings(graph, left, right)
        if score < best[0]:
            best = (score, left, right)
        if (left, right) == previous:
            break
    return best[1], best[2]


@dataclass(frozen=True)
class PlacedNode:
    id: str
    kind: str
    slug: str
    label: str
    short: str  # the label as drawn (long labels shortened; <title> has the full one)
    count: int
    side: str
    url: str
    x: float
    y: float
    r: float
    label_x: float
    anchor: str


@dataclass(frozen=True)
class PlacedEdge:
    source: str
    target: str
    weight: int
    url: str
    path: str
    width: float
    source_label: str
    target_label: str


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    left_x: float
    right_x: float
    nodes: tuple[PlacedNode, ...]
    edges: tuple[PlacedEdge, ...]


def text_width(text: str, font: float = FONT) -> float:
    """A generous estimate of the drawn width: wide (Hangul, CJK) glyphs count double."""
    wide = sum(1 for ch in text if unicodedata.east_asian_width(ch) in ("W", "F"))
    return (len(text) - wide) * font * 0.6 + wide * font * 1.05


def shorten(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _radius(count: int, biggest: int) -> float:
    return round(R_MIN + (R_MAX - R_MIN) * math.sqrt(count / biggest), 1) if biggest else R_MIN


def _width(weight: int, heaviest: int) -> float:
    """Weight 1 is the thinnest line, the heaviest the widest (all-equal weights stay thin)."""
    if heaviest <= 1:
        return W_MIN
    return round(W_MIN + (W_MAX - W_MIN) * (weight - 1) / (heaviest - 1), 1)


def layout(graph: nx.DiGraph) -> Picture:
    """Place the graph: left labels end at the left column, right labels start after the right."""
    left, right = order_columns(graph)
    rows = max(len(left), len(right), 1)
    shorts = {n: shorten(str(graph.nodes[n]["label"])) for n in graph.nodes}
    left_text = max((text_width(shorts[n]) for n in left), default=0.0)
    right_text = max((text_width(shorts[n]) for n in right), default=0.0)
    left_x = PAD + left_text + LABEL_OFFSET + R_MAX
    right_x = left_x + GAP
    width = math.ceil(right_x + R_MAX + LABEL_OFFSET + right_text + PAD)
    height = TOP + rows * ROW + BOTTOM
    biggest = max((int(c) for _, c in graph.nodes(data="count")), default=0)
    heaviest = max((int(w) for _, _, w in graph.edges(data="weight")), default=0)
    placed: dict[str, PlacedNode] = {}
    for column, x, sign, anchor in ((left, left_x, -1, "end"), (right, right_x, 1, "start")):
        for node, pos in _positions(column, rows).items():
            data = graph.nodes[node]
            r = _radius(int(data["count"]), biggest)
            placed[node] = PlacedNode(
                id=node,
                kind=data["kind"],
                slug=data["slug"],
                label=data["label"],
                short=shorts[node],
                count=int(data["count"]),
                side=data["side"],
                url=data["url"],
                x=round(x, 1),
                y=round(TOP + pos * ROW, 1),
                r=r,
                label_x=round(x + sign * (R_MAX + LABEL_OFFSET), 1),
                anchor=anchor,
            )
    edges = [
        _place_edge(placed[u], placed[v], int(d["weight"]), str(d["url"]), heaviest)
        for u, v, d in graph.edges(data=True)
    ]
    edges.sort(key=lambda e: (-e.weight, e.source, e.target))
    nodes = [placed[n] for n in (*left, *right)]
    return Picture(width, height, round(left_x, 1), round(right_x, 1), tuple(nodes), tuple(edges))


def _place_edge(a: PlacedNode, b: PlacedNode, weight: int, url: str, heaviest: int) -> PlacedEdge:
    """A cubic curve from the rim of a to the rim of b (edges never cover the circles)."""
    x1, x2 = a.x + a.r, b.x - b.r
    bend = (x2 - x1) / 2
    path = (
        f"M{x1:.1f} {a.y:.1f} C{x1 + bend:.1f} {a.y:.1f} {x2 - bend:.1f} {b.y:.1f}"
        f" {x2:.1f} {b.y:.1f}"
    )
    return PlacedEdge(a.id, b.id, weight, url, path, _width(weight, heaviest), a.label, b.label)
