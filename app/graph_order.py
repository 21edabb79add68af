"""The order of a two-column graph's nodes, chosen for few crossings (issue #14).

Deterministic: barycentre sweeps from count order and from taxonomy order, then sifting (each
node moved to its best place in its column) from those and from a few seeded shuffles; the
order with the fewest weighted crossings wins. Nodes without lines go last, by count.
"""

import random
from collections.abc import Sequence
from typing import Any

import networkx as nx
import numpy as np

SIDES = ("left", "right")
SPREAD = 2.0  # the shorter column's rows may be up to this many rows apart
RESTARTS = 8  # shuffled starts (seeded: the same picture every time)
RESTART_SEED = 14
RESTART_MAX_CELLS = 2500  # no restarts past this many left x right pairs (incident view)


def positions(order: Sequence[str], rows: int) -> dict[str, float]:
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
    own, other_pos = positions(moving, rows), positions(fixed, rows)
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
