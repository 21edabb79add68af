"""The CHECKS registry: one plain function per (pattern slug, check id)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.checks.snapshot import Snapshot
from app.checks.text import Text

__all__ = ["CHECKS", "Gap", "NotEvaluable", "ObjectRef", "RegisteredCheck", "Text", "check"]


@dataclass(frozen=True, order=True)
class ObjectRef:
    """A Kubernetes object named in a finding."""

    kind: str
    namespace: str
    name: str

    def __str__(self) -> str:
        where = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind} {where}{self.name}"


# What a finding is about when it is not a list of objects: the whole cluster, a node pool,
# a storage source shared by many pods. `subject` names it ("pool-a", "nfs:10.0.0.5:/data").
SCOPES = ("objects", "cluster", "node-pool", "storage")


@dataclass(frozen=True)
class Gap:
    """One place where a check found its gap; severity overrides the check's own."""

    objects: tuple[ObjectRef, ...]
    why: Text
    severity: str | None = None
    scope: str = "objects"
    subject: str = ""


class NotEvaluable(Exception):
    """Raised by a check that cannot judge this snapshot (the reason is the message)."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason.en)
        self.reason = reason


CheckFn = Callable[[Snapshot], list[Gap]]


@dataclass(frozen=True)
class RegisteredCheck:
    """A check function and the kinds it reads.

    requires: every one must have been read, or the check is not evaluable (its answer would
        be wrong without them). covers: the kinds it judges; at least one must have been read,
        and those that were not are named ("StatefulSets not in the snapshot"). optional: kinds
        that refine the answer; when absent the check still runs and says so.
    """

    pattern: str
    check_id: str
    requires: tuple[str, ...]
    function: CheckFn = field(compare=False)
    covers: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()

    @property
    def reads(self) -> tuple[str, ...]:
        return self.requires + self.covers + self.optional


CHECKS: dict[tuple[str, str], RegisteredCheck] = {}


def check(
    pattern: str,
    check_id: str,
    *,
    requires: tuple[str, ...] = (),
    covers: tuple[str, ...] = (),
    optional: tuple[str, ...] = (),
) -> Callable[[CheckFn], CheckFn]:
    """Register a check function for (pattern, check id); the function is returned unchanged.

    :raises ValueError: if the pair is registered twice, or reads no kind at all.
    """

    def register(function: CheckFn) -> CheckFn:
        key = (pattern, check_id)
        if key in CHECKS:
            raise ValueError(f"check {pattern}/{check_id} is registered twice")
        if not requires and not covers:
            raise ValueError(f"check {pattern}/{check_id} reads no kind")
        CHECKS[key] = RegisteredCheck(
            pattern, check_id, requires, function, covers=covers, optional=optional
        )
        return function

    return register
