"""The CHECKS registry: one plain function per (pattern slug, check id)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.checks.snapshot import Snapshot


@dataclass(frozen=True, order=True)
class ObjectRef:
    """A Kubernetes object named in a finding."""

    kind: str
    namespace: str
    name: str

    def __str__(self) -> str:
        where = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind} {where}{self.name}"


@dataclass(frozen=True)
class Text:
    """One sentence in English and Korean."""

    en: str
    ko: str

    def get(self, lang: str) -> str:
        return self.ko if lang == "ko" else self.en


@dataclass(frozen=True)
class Gap:
    """One place where a check found its gap; severity overrides the check's own."""

    objects: tuple[ObjectRef, ...]
    why: Text
    severity: str | None = None


class NotEvaluable(Exception):
    """Raised by a check that cannot judge this snapshot (the reason is the message)."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason.en)
        self.reason = reason


CheckFn = Callable[[Snapshot], list[Gap]]


@dataclass(frozen=True)
class RegisteredCheck:
    """A check function with the kinds it cannot do without."""

    pattern: str
    check_id: str
    requires: tuple[str, ...]
    function: CheckFn = field(compare=False)


CHECKS: dict[tuple[str, str], RegisteredCheck] = {}


def check(
    pattern: str, check_id: str, *, requires: tuple[str, ...]
) -> Callable[[CheckFn], CheckFn]:
    """Register a check function for (pattern, check id); the function is returned unchanged.

    :raises ValueError: if the pair is registered twice.
    """

    def register(function: CheckFn) -> CheckFn:
        key = (pattern, check_id)
        if key in CHECKS:
            raise ValueError(f"check {pattern}/{check_id} is registered twice")
        CHECKS[key] = RegisteredCheck(pattern, check_id, requires, function)
        return function

    return register
