"""The graph view's model: weighted two-column graphs as networkx DiGraphs, laid out as SVG.

Pure: incidents arrive as bitsets (ints over sort_rank) and labels as strings; no DB, no HTTP.
An edge (a, b) weighs `(result & bits(a) & bits(b)).bit_count()`, the incidents in the result
tagged with both ends, so it equals the list's total for the same pair (issue #4).
The layout is layered: one kind per column, rows at fixed spacing, order chosen to reduce
(weighted) crossings by barycentre sweeps, sifting and seeded restarts, so it is deterministic.
Unless a minimum is asked for, the lines drawn are those of at least `legible_min` incidents:
at most MAX_LINES lines, so the default picture stays readable (issue #14).
"""

import math
import random
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np

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
SIDES = ("left", "right")
RESTARTS = 8  # shuffled starts for the crossing minimiser (seeded: the same picture each time)
RESTART_SEED = 14
RESTART_MAX_CELLS = 2500  # no restarts past this many left x right pairs (the incident view)

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
    """The smallest minimum weight that leaves at most `max_lines` lines (1 if all fit)."""
    heaviest = sorted(weights, reverse=True)
    if len(heaviest) <= max_lines:
        return 1
    # lines of weight >= w must be at most max_lines: w just above the (max_lines+1)-th weight
    return heaviest[max_lines] + 1


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


def _pair_costs(
    graph: nx.DiGraph, moving: Sequence[str], fixed: Sequence[str], *, incoming: bool
) -> "np.ndarray[Any, np.dtype[np.int64]]":
    """cost[i, j]: weighted crossings between the lines of moving[i] and moving[j] when i is
    drawn above j, the other column held in its order: sum of w(i, p) * w(j, q) over q < p."""
    pos = {node: index for index, node in enumerate(fixed)}
    weights = np.zeros((len(moving), len(fixed) + 1), dtype=np.int64)
    for i, node in enumerate(moving):
        edges = graph.in_edges(node, "weight") if incoming else graph.out_edges(node, "weight")
        for u, v, w in edges:
            weights[i, pos[u if incoming else v] + 1] = int(w)
    below = np.cumsum(weights, axis=1)[:, :-1]  # below[j, p]: j's weight at positions < p
    cost: np.ndarray[Any, np.dtype[np.int64]] = weights[:, 1:] @ below.T
    return cost


def _sift(order: list[int], cost: "np.ndarray[Any, np.dtype[np.int64]]") -> list[int]:
    """Move each node to the place in its column with the fewest crossings, until none moves.

    (Sifting: each move only removes crossings, so it ends; restarts escape its local minima.)
    """
    improved = True
    while improved:
        improved = False
        for node in sorted(order):
            at = order.index(node)
            rest = np.array([n for n in order if n != node], dtype=np.intp)
            # crossings with node at place k: cost[rest[:k], node] + cost[node, rest[k:]]
            gains = cost[rest, node] - cost[node, rest]
            totals = np.concatenate(([0], np.cumsum(gains))) + cost[node, rest].sum()
            best_at = int(np.argmin(totals))
            if totals[best_at] < totals[at]:
                order = [int(n) for n in rest]
                order.insert(best_at, node)
                improved = True
    return order


def _barycentre(
    graph: nx.DiGraph, moving: Sequence[str], fixed: Sequence[str], rows: int, *, incoming: bool
) -> list[str]:
    """Sort `moving` by the weighted mean position of its neighbours in the fixed column."""
    rank = {node: index for index, node in enumerate(moving)}
    own, other_pos = _positions(moving, rows), _positions(fixed, rows)
    keys: dict[str, tuple[float, int]] = {}
    for node in moving:
        edges = graph.in_edges(node, "weight") if incoming else graph.out_edges(node, "weight")
        total = weight_sum = 0.0
        for u, v, weight in edges:
            total += other_pos[u if incoming else v] * weight
            weight_sum += weight
        # a node without lines keeps its place
        keys[node] = (total / weight_sum if weight_sum else own[node], rank[node])
    return sorted(moving, key=lambda node: keys[node])


def _sifted(
    graph: nx.DiGraph, moving: Sequence[str], fixed: Sequence[str], *, incoming: bool
) -> list[str]:
    cost = _pair_costs(graph, moving, fixed, incoming=incoming)
    return [moving[i] for i in _sift(list(range(len(moving))), cost)]


def order_columns(
    graph: nx.DiGraph, sweeps: int = 8, restarts: int = RESTARTS
) -> tuple[list[str], list[str]]:
    """Both columns ordered for few (weighted) crossings, deterministically.

    Starts: barycentre sweeps from count order and from taxonomy order, and a few shuffles from
    a fixed seed (sifting has many local minima: restarts find far better ones on dense
    graphs). From each, sift one column against the other until neither improves; keep the
    best. Nodes without lines go last, by count.
    """

    def column(side: str) -> list[str]:
        return [n for n, s in graph.nodes(data="side") if s == side]

    def by_count(nodes: list[str]) -> list[str]:
        return sorted(nodes, key=lambda n: (-graph.nodes[n]["count"], graph.nodes[n]["slug"]))

    lonely = {n for n in graph.nodes if graph.degree(n) == 0}
    rows = max(len(column("left")), len(column("right")), 1)
    starts: list[tuple[list[str], list[str]]] = []
    for arrange in (by_count, list):  # list: the order nodes were added in (taxonomy order)
        left, right = (arrange([n for n in column(s) if n not in lonely]) for s in SIDES)
        start = (crossings(graph, left, right), left, right)
        for _ in range(sweeps):
            previous = (left, right)
            right = _barycentre(graph, right, left, rows, incoming=True)
            left = _barycentre(graph, left, right, rows, incoming=False)
            score = crossings(graph, left, right)
            if score < start[0]:
                start = (score, left, right)
            if (left, right) == previous:
                break
        starts.append((start[1], start[2]))
    left, right = starts[0]
    if len(left) * len(right) <= RESTART_MAX_CELLS:
        shuffler = random.Random(RESTART_SEED)
        for _ in range(restarts):
            left, right = left[:], right[:]
            shuffler.shuffle(left)
            shuffler.shuffle(right)
            starts.append((left, right))
    best: tuple[int, list[str], list[str]] | None = None
    for left, right in starts:
        score = crossings(graph, left, right)
        while True:
            right = _sifted(graph, right, left, incoming=True)
            left = _sifted(graph, left, right, incoming=False)
            now = crossings(graph, left, right)
            if now >= score:
                break
            score = now
        if best is None or score < best[0]:
            best = (score, left, right)
    assert best is not None
    tail = {s: by_count([n for n in column(s) if n in lonely]) for s in SIDES}
    return [*best[1], *tail["left"]], [*best[2], *tail["right"]]


def line_crossings(graph: nx.DiGraph, left: Sequence[str], right: Sequence[str]) -> int:
    """How many pairs of lines cross (each pair once, whatever the widths)."""
    flat = nx.DiGraph()
    flat.add_edges_from((u, v, {"weight": 1}) for u, v in graph.edges)
    return crossings(flat, left, right)


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
    lines: int = 0  # how many lines meet it
    hit_x: float = 0.0  # the link's target: circle and label, one row high
    hit_w: float = 0.0
    hit_h: float = 0.0


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
    source_url: str = ""
    target_url: str = ""


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    left_x: float
    right_x: float
    nodes: tuple[PlacedNode, ...]
    edges: tuple[PlacedEdge, ...]
    crossings: int = 0  # pairs of lines that cross
    font: float = FONT


@dataclass(frozen=True)
class Geometry:
    """Sizes in SVG user units: the full page's picture, the incident view's, the preview's."""

    row: float = ROW
    top: float = TOP
    gap: float = GAP
    font: float = FONT
    max_label: int = MAX_LABEL_CHARS

    @property
    def r_max(self) -> float:
        return self.row / 2 - 2


FULL = Geometry()
INCIDENTS = Geometry(gap=300, max_label=56)  # incident titles need room; the other column is short
PREVIEW = Geometry(row=22, top=30, gap=240, font=FONT, max_label=26)


def text_width(text: str, font: float = FONT) -> float:
    """A generous estimate of the drawn width: wide (Hangul, CJK) glyphs count double."""
    wide = sum(1 for ch in text if unicodedata.east_asian_width(ch) in ("W", "F"))
    return (len(text) - wide) * font * 0.6 + wide * font * 1.05


def shorten(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _radius(count: int, biggest: int, r_max: float = R_MAX) -> float:
    return round(R_MIN + (r_max - R_MIN) * math.sqrt(count / biggest), 1) if biggest else R_MIN


def _width(weight: int, heaviest: int) -> float:
    """Weight 1 is the thinnest line, the heaviest the widest (all-equal weights stay thin)."""
    if heaviest <= 1:
        return W_MIN
    return round(W_MIN + (W_MAX - W_MIN) * (weight - 1) / (heaviest - 1), 1)


def layout(graph: nx.DiGraph, geometry: Geometry = FULL, *, restarts: int = RESTARTS) -> Picture:
    """Place the graph: left labels end at the left column, right labels start after the right.

    Counts are drawn after the labels, so their width is reserved too. `restarts=0` is enough
    for a small graph (the list page's preview) and costs a fraction.
    """
    left, right = order_columns(graph, restarts=restarts)
    rows = max(len(left), len(right), 1)
    shorts = {n: shorten(str(graph.nodes[n]["label"]), geometry.max_label) for n in graph.nodes}

    def drawn(node: str) -> float:
        count = f" {graph.nodes[node]['count']}" if graph.nodes[node]["kind"] != "incident" else ""
        return text_width(shorts[node] + count, geometry.font)

    left_text = max((drawn(n) for n in left), default=0.0)
    right_text = max((drawn(n) for n in right), default=0.0)
    r_max = geometry.r_max
    left_x = PAD + left_text + LABEL_OFFSET + r_max
    right_x = left_x + geometry.gap
    width = math.ceil(right_x + r_max + LABEL_OFFSET + right_text + PAD)
    height = math.ceil(geometry.top + rows * geometry.row + BOTTOM)
    biggest = max((int(c) for _, c in graph.nodes(data="count")), default=0)
    heaviest = max((int(w) for _, _, w in graph.edges(data="weight")), default=0)
    placed: dict[str, PlacedNode] = {}
    for column, x, sign, anchor in ((left, left_x, -1, "end"), (right, right_x, 1, "start")):
        for node, pos in _positions(column, rows).items():
            data = graph.nodes[node]
            label_x = x + sign * (r_max + LABEL_OFFSET)
            far = label_x + sign * (drawn(node) + 2)
            near = x - sign * (r_max + 2)
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
                y=round(geometry.top + pos * geometry.row, 1),
                r=_radius(int(data["count"]), biggest, r_max),
                label_x=round(label_x, 1),
                anchor=anchor,
                lines=graph.degree(node),
                hit_x=round(min(far, near), 1),
                hit_w=round(abs(far - near), 1),
                hit_h=geometry.row - 2,
            )
    edges = [
        _place_edge(placed[u], placed[v], int(d["weight"]), str(d["url"]), heaviest)
        for u, v, d in graph.edges(data=True)
    ]
    edges.sort(key=lambda e: (-e.weight, e.source, e.target))
    nodes = [placed[n] for n in (*left, *right)]
    return Picture(
        width,
        height,
        round(left_x, 1),
        round(right_x, 1),
        tuple(nodes),
        tuple(edges),
        crossings=line_crossings(graph, left, right),
        font=geometry.font,
    )


def _place_edge(a: PlacedNode, b: PlacedNode, weight: int, url: str, heaviest: int) -> PlacedEdge:
    """A cubic curve from the rim of a to the rim of b (edges never cover the circles)."""
    x1, x2 = a.x + a.r, b.x - b.r
    bend = (x2 - x1) / 2
    path = (
        f"M{x1:.1f} {a.y:.1f} C{x1 + bend:.1f} {a.y:.1f} {x2 - bend:.1f} {b.y:.1f}"
        f" {x2:.1f} {b.y:.1f}"
    )
    return PlacedEdge(
        a.id, b.id, weight, url, path, _width(weight, heaviest), a.label, b.label, a.url, b.url
    )
