"""A two-column graph placed as SVG: rows at fixed spacing, labels outside the columns.

The order of each column comes from app/graph_order.py; this module turns it into positions,
sizes, hit targets and curve paths (app/routes/graph.py and templates/graph*.html draw them).
"""

import math
import unicodedata
from dataclasses import dataclass

import networkx as nx

from app.graph_order import RESTARTS, line_crossings, order_columns, positions

# Geometry (SVG user units). Rows are fixed, so labels in one column never collide.
ROW = 26
TOP = 40
BOTTOM = 16
PAD = 12
GAP = 380  # horizontal distance between the two columns
FONT = 13
LABEL_OFFSET = 8
MAX_LABEL_CHARS = 34
R_MIN, R_MAX = 4.0, ROW / 2 - 2
W_MIN, W_MAX = 1.5, 9.0


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
        for node, pos in positions(column, rows).items():
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
