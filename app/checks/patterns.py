"""Patterns from data/patterns.yaml, validated, and the incidents that ground each one."""

from __future__ import annotations

import json
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from app.checks.readonly import read_only_problem
from app.config import bundled
from app.datafiles import StrictLoader

SEVERITIES = ("high", "medium", "low", "info")
TAG_DIMENSIONS = ("cause", "component", "factor")
_SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Data = Path | Traversable


def library_data() -> Data:
    """The patterns, taxonomy and incidents that ship with the package (app.config.bundled):
    inside an installed wheel, or the checkout's data/ — never the working directory's."""
    return bundled("data")


class PatternsError(Exception):
    """An invalid patterns or incidents file; the message names the file, pattern and field."""


class Localized(BaseModel):
    """Text in English and Korean."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    en: str = Field(min_length=1)
    ko: str = Field(min_length=1)

    def get(self, lang: str) -> str:
        return self.ko if lang == "ko" else self.en


class PatternTags(BaseModel):
    """The taxonomy terms that identify a pattern."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    cause: tuple[str, ...] = ()
    component: tuple[str, ...] = ()
    factor: tuple[str, ...] = ()


class OtherChecker(BaseModel):
    """What a well-known checker says about the same thing: that we agree, or why we differ."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    checker: str = Field(min_length=1)  # "kube-score", "Polaris", "Popeye"
    # Its checks as its users name them: kube-score IDs (pod-probes), Polaris checks
    # (cpuRequestsMissing), Popeye codes (POP-1109).
    checks: tuple[str, ...] = Field(min_length=1)
    verdict: Literal["agrees", "differs"]
    why: Localized


# Words for the "Other checkers" section of a pattern page (the route passes them in).
OTHER_CHECKERS_WORDS = {
    "heading": Localized(en="Other checkers", ko="다른 점검 도구"),
    "agrees": Localized(en="agrees", ko="같은 판단"),
    "differs": Localized(en="differs", ko="다른 판단"),
}


class Check(BaseModel):
    """One read-only check: evaluated from a snapshot, or a manual checklist item."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str = Field(pattern=_SLUG)
    kind: Literal["snapshot", "manual"]
    severity: Literal["high", "medium", "low", "info"]
    title: Localized
    reads: tuple[str, ...] = ()
    condition: Localized
    command: str | None = None
    how_to_read: Localized | None = None
    fix: Localized
    # Where a well-known checker looks at the same thing: that we agree, or why we deliberately
    # differ (scripts/measure_checker_agreement.py reads the `differs` entries).
    other_checkers: tuple[OtherChecker, ...] = ()

    @field_validator("command")
    @classmethod
    def command_is_read_only(cls, command: str | None) -> str | None:
        if command is not None and (problem := read_only_problem(command)):
            raise ValueError(f"command is not read-only kubectl: {problem}")
        return command

    @model_validator(mode="after")
    def snapshot_check_is_complete(self) -> Check:
        if self.kind == "snapshot" and not (self.command and self.how_to_read and self.reads):
            raise ValueError("a snapshot check needs reads, command and how_to_read")
        return self


class Pattern(BaseModel):
    """A recurring gap behind incidents, with the checks that find it in a cluster."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    slug: str = Field(pattern=_SLUG)
    title: Localized
    summary: Localized
    explanation: Localized
    tags: PatternTags
    fix: Localized
    checks: tuple[Check, ...] = Field(min_length=1)

    def check(self, check_id: str) -> Check | None:
        return next((item for item in self.checks if item.id == check_id), None)


def load_patterns(data_dir: Data) -> list[Pattern]:
    """Read data_dir/patterns.yaml; a missing file means no patterns.

    :raises PatternsError: naming the file, the pattern and the field that is wrong.
    """
    path = data_dir.joinpath("patterns.yaml")
    if not path.is_file():
        return []
    raw = _read_yaml(path)
    if not isinstance(raw, list):
        raise PatternsError(f"{path}: expected a list of patterns at the top level")
    terms = _taxonomy_terms(data_dir)
    patterns = [_parse_pattern(path, index, entry, terms) for index, entry in enumerate(raw)]
    _check_unique(path, patterns)
    return patterns


def _read_yaml(path: Data) -> object:
    try:
        # libyaml when present; a key written twice is an error
        return yaml.load(path.read_text(encoding="utf-8"), Loader=StrictLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise PatternsError(f"{path}: cannot read YAML: {error}") from None


def _parse_pattern(
    path: Data, index: int, entry: object, terms: dict[str, set[str]] | None
) -> Pattern:
    label = f"pattern #{index + 1}"
    if isinstance(entry, dict) and isinstance(entry.get("slug"), str):
        label = f"pattern {entry['slug']!r}"
    try:
        pattern = Pattern.model_validate(entry)
    except ValidationError as error:
        first = error.errors()[0]
        field = _field_path(entry, first["loc"])
        raise PatternsError(f"{path}: {label}: {field}: {first['msg']}") from None
    if terms is not None:
        for dimension in TAG_DIMENSIONS:
            for slug in getattr(pattern.tags, dimension):
                if slug not in terms.get(dimension, set()):
                    raise PatternsError(
                        f"{path}: {label}: tags.{dimension}: {slug!r} is not in taxonomy.yaml"
                    )
    return pattern


def _field_path(entry: object, loc: tuple[int | str, ...]) -> str:
    """tags.cause or checks[no-spread-policy].command rather than checks.0.command."""
    parts: list[str] = []
    node = entry
    for step in loc:
        if isinstance(step, int):
            item = node[step] if isinstance(node, list) and step < len(node) else None
            item_id = item.get("id") if isinstance(item, dict) else None
            parts[-1] += f"[{item_id or step}]"
            node = item
        else:
            parts.append(step)
            node = node.get(step) if isinstance(node, dict) else None
    return ".".join(parts) or "(pattern)"


def _check_unique(path: Data, patterns: list[Pattern]) -> None:
    slugs: set[str] = set()
    for pattern in patterns:
        if pattern.slug in slugs:
            raise PatternsError(f"{path}: pattern {pattern.slug!r}: slug: duplicated")
        slugs.add(pattern.slug)
        ids = [item.id for item in pattern.checks]
        for check_id in ids:
            if ids.count(check_id) > 1:
                raise PatternsError(
                    f"{path}: pattern {pattern.slug!r}: checks[{check_id}].id: duplicated"
                )


def _taxonomy_terms(data_dir: Data) -> dict[str, set[str]] | None:
    path = data_dir.joinpath("taxonomy.yaml")
    if not path.is_file():
        return None
    raw = _read_yaml(path)
    if not isinstance(raw, dict):
        raise PatternsError(f"{path}: expected a mapping of dimensions")
    return {
        str(dimension): {str(term.get("slug")) for term in terms or [] if isinstance(term, dict)}
        for dimension, terms in raw.items()
    }


# --- grounding: incidents name their patterns -----------------------------------------------

Grounding = dict[str, tuple[str, ...]]


def load_grounding(data_dir: Data) -> Grounding:
    """Pattern slug -> IDs of the incidents whose `patterns` field names it, sorted.

    :raises PatternsError: for an incident file that is not valid YAML or JSON Lines.
    """
    found: dict[str, set[str]] = {}
    directory = data_dir.joinpath("incidents")
    if not directory.is_dir():
        return {}
    for incident in _incidents(directory):
        incident_id = incident.get("id")
        slugs = incident.get("patterns") or []
        if not isinstance(incident_id, str) or not isinstance(slugs, list):
            continue
        for slug in slugs:
            found.setdefault(str(slug), set()).add(incident_id)
    return {slug: tuple(sorted(ids)) for slug, ids in sorted(found.items())}


def _incidents(directory: Data) -> list[dict[str, object]]:
    incidents: list[dict[str, object]] = []
    for path in sorted(directory.iterdir(), key=lambda item: item.name):
        if path.name.endswith((".yaml", ".yml")):
            document = _read_yaml(path)
            if isinstance(document, dict):
                incidents.append(document)
        elif path.name.endswith(".jsonl"):
            incidents.extend(_read_jsonl(path))
    return incidents


def _read_jsonl(path: Data) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise PatternsError(f"{path}: cannot read: {error}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise PatternsError(f"{path}:{number}: not valid JSON: {error.msg}") from None
        if isinstance(row, dict):
            rows.append(row)
    return rows
