"""Search quality on judged queries: hit@1, hit@5, MRR and zero-result share, by group.

A judged set (tests/search_eval/*.yaml) lists queries, each with the incident it should find,
its language, its style (organisation, technology, failure) and whether it has a typo. Every
query goes through the one query path (`list_incidents` with `Filter(q=...)`), as on the page.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.facets import Filter
from app.incidents import ordered_ranks, result_bits
from app.store import Store

DEPTH = 10  # how far down the list a hit still counts for MRR


class Judged(BaseModel):
    """One judged query."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    q: str = Field(min_length=1)
    lang: str
    style: str
    typo: bool = False
    expect: str


class EvalError(ValueError):
    """The judged set cannot be read; the message says where and why."""


def load_set(path: Path) -> list[Judged]:
    """:raises EvalError: when the file is missing or not a list of judged queries."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise EvalError(f"{path}: {exc}") from None
    if not isinstance(raw, list):
        raise EvalError(f"{path}: expected a list of queries")
    out = []
    for number, item in enumerate(raw):
        try:
            out.append(Judged.model_validate(item))
        except ValidationError as exc:
            raise EvalError(f"{path}: item {number}: {exc.errors()[0]['msg']}") from None
    return out


def held(store: Store, judged: list[Judged]) -> tuple[list[Judged], list[Judged]]:
    """(queries naming an incident of this library, queries naming one it does not hold)."""
    present = {row["slug"] for row in store.rows_by_rank(list(range(store.total)), light=True)}
    return [j for j in judged if j.expect in present], [
        j for j in judged if j.expect not in present
    ]


@dataclass(frozen=True)
class Outcome:
    judged: Judged
    position: int | None  # 1-based place of the expected incident within DEPTH, or None
    total: int


def run(store: Store, judged: Iterable[Judged]) -> list[Outcome]:
    """Each query through the one query path; where its expected incident came."""
    out = []
    for item in judged:
        filters = Filter(q=" ".join(item.q.split()))
        bits = result_bits(store, filters)
        ranks = [int(r) for r in ordered_ranks(store, filters, bits)[:DEPTH]]
        slugs = [row["slug"] for row in store.rows_by_rank(ranks, light=True)]
        position = slugs.index(item.expect) + 1 if item.expect in slugs else None
        out.append(Outcome(item, position, bits.bit_count()))
    return out


@dataclass(frozen=True)
class Figures:
    queries: int
    hit1: float
    hit5: float
    mrr: float
    zero: float

    @classmethod
    def of(cls, outcomes: list[Outcome]) -> "Figures":
        n = len(outcomes) or 1
        return cls(
            queries=len(outcomes),
            hit1=sum(o.position == 1 for o in outcomes) / n,
            hit5=sum(o.position is not None and o.position <= 5 for o in outcomes) / n,
            mrr=sum(1 / o.position for o in outcomes if o.position) / n,
            zero=sum(o.total == 0 for o in outcomes) / n,
        )


def groups(outcomes: list[Outcome]) -> dict[str, Figures]:
    """Figures overall, by language, by style, by typo, in a stable order."""
    named: dict[str, list[Outcome]] = {"overall": outcomes}
    for label, key in (
        ("lang", lambda o: o.judged.lang),
        ("style", lambda o: o.judged.style),
        ("typo", lambda o: "yes" if o.judged.typo else "no"),
    ):
        for value in sorted({key(o) for o in outcomes}):
            named[f"{label}={value}"] = [o for o in outcomes if key(o) == value]
    named.update(
        {
            f"lang={lang} typo=yes": [
                o for o in outcomes if o.judged.lang == lang and o.judged.typo
            ]
            for lang in sorted({o.judged.lang for o in outcomes})
        }
    )
    return {name: Figures.of(items) for name, items in named.items() if items}


def report(outcomes: list[Outcome], *, misses: bool = False) -> str:
    lines = [f"{'group':<20} {'queries':>7} {'hit@1':>7} {'hit@5':>7} {'MRR':>7} {'zero':>7}"]
    for name, f in groups(outcomes).items():
        lines.append(
            f"{name:<20} {f.queries:>7} {f.hit1:>7.1%} {f.hit5:>7.1%} {f.mrr:>7.3f} {f.zero:>7.1%}"
        )
    if misses:
        lines.append("")
        lines.append("not in the first five:")
        for o in outcomes:
            if o.position is None or o.position > 5:
                where = o.position or "-"
                lines.append(f"  {o.judged.expect} at {where} of {o.total}: {o.judged.q}")
    return "\n".join(lines)
