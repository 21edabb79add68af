"""The data contract: typed, validated shapes of data/taxonomy.yaml and data/incidents/*."""

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

DIMENSIONS: tuple[str, ...] = ("cause", "component", "symptom", "factor")
Dimension = Literal["cause", "component", "symptom", "factor"]
HANGUL = re.compile(r"[\uac00-\ud7a3]")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
INCIDENT_ID = re.compile(r"^IL-\d{4,}$")
DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")


def _nonblank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


def _korean(value: str) -> str:
    if not HANGUL.search(value):
        raise ValueError("Korean text expected (no Hangul found)")
    return value


Text = Annotated[str, AfterValidator(_nonblank)]
KoText = Annotated[str, AfterValidator(_nonblank)]  # labels may be Latin (etcd, DNS)
KoProse = Annotated[str, AfterValidator(_nonblank), AfterValidator(_korean)]
Slug = Annotated[str, Field(pattern=SLUG.pattern)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Label(Strict):
    en: Text
    ko: KoText


class Prose(Strict):
    en: Text
    ko: KoProse


class ProseList(Strict):
    en: list[Text] = Field(min_length=1)
    ko: list[KoProse] = Field(min_length=1)

    def model_post_init(self, _context: Any) -> None:
        if len(self.en) != len(self.ko):
            raise ValueError("en and ko must have the same number of items")


class ActionList(ProseList):
    """What was done; empty lists when the report (or the part of it read) does not say.

    Never fill it with notes about the reading: those belong in review.part."""

    en: list[Text] = Field(min_length=0)
    ko: list[KoProse] = Field(min_length=0)


class TermFile(Strict):
    slug: Slug
    label: Label
    description: Prose
    aliases: list[Text] = []
    parent: Slug | None = None
    # terms of the same dimension an incident may not carry together with this one
    excludes: list[Slug] = []


class TaxonomyFile(Strict):
    cause: list[TermFile] = Field(min_length=1)
    component: list[TermFile] = Field(min_length=1)
    symptom: list[TermFile] = Field(min_length=1)
    factor: list[TermFile] = Field(min_length=1)


class Tags(Strict):
    cause: list[Slug] = Field(min_length=1)
    component: list[Slug] = Field(min_length=1)
    symptom: list[Slug] = Field(min_length=1)
    # A report may name no contributing factor; an empty list beats a guessed one.
    factor: list[Slug] = Field(min_length=0)


class Source(Strict):
    """A report the incident is told from: the original first, then any mirror or archive copy.

    `kind: copy` marks a mirror or archive of the original (its publisher says whose copy it
    is); `note` says anything a reader needs, such as "the original page is no longer online".
    """

    url: Annotated[str, Field(pattern=r"^https?://[^\s]+$")]
    title: Text
    publisher: Text
    kind: Literal["original", "copy"] = "original"
    note: Text | None = None


class Review(Strict):
    """When the summary was last compared, sentence by sentence, with its report, and how much
    of the report could be read: `full`; `partial` with `part` saying which part; or `none`
    with `part` saying why the report could not be read for this check (the text then stands
    as an earlier reading left it, and the page says so)."""

    checked: dt.date
    read: Literal["full", "partial", "none"]
    part: Prose | None = None

    @field_validator("checked", mode="before")
    @classmethod
    def _checked(cls, value: Any) -> Any:
        if isinstance(value, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise ValueError("checked must be a date YYYY-MM-DD")
        return value

    def model_post_init(self, _context: Any) -> None:
        if self.read == "partial" and self.part is None:
            raise ValueError("a partial reading needs `part`: which part of the report was read")
        if self.read == "none" and self.part is None:
            raise ValueError("read: none needs `part`: why the report could not be read")
        if self.read == "full" and self.part is not None:
            raise ValueError("`part` is only for read: partial")


class IncidentFile(Strict):
    """One incident as written in data/incidents/IL-NNNN.yaml or a line of *.jsonl."""

    id: Annotated[str, Field(pattern=INCIDENT_ID.pattern)]
    organization: Text
    date: int | str
    title: Prose
    tags: Tags
    symptom: Prose
    trigger: Prose
    detection: Prose | None = None
    actions: ActionList
    follow_ups: ProseList | None = None
    lessons: Prose
    sources: list[Source] = Field(min_length=1)
    patterns: list[Slug] = []
    duration: Annotated[int, Field(gt=0, le=60 * 24 * 366)] | None = None  # minutes of impact
    review: Review | None = None

    @field_validator("sources")
    @classmethod
    def _original_first(cls, value: list[Source]) -> list[Source]:
        if value and value[0].kind != "original":
            raise ValueError("the first source must be the original report (kind: original)")
        return value

    @field_validator("date", mode="before")
    @classmethod
    def _date_from_yaml(cls, value: Any) -> Any:
        # YAML reads an unquoted 2019-01-22 as a date; the contract means the same day.
        if isinstance(value, dt.date):
            return value.isoformat()
        return value

    @field_validator("date")
    @classmethod
    def _date(cls, value: int | str) -> int | str:
        parse_date(value)
        return value

    @property
    def date_parts(self) -> tuple[int, int, int]:
        return parse_date(self.date)


def parse_date(value: int | str) -> tuple[int, int, int]:
    """(year, month, day) with 0 for unknown parts; raises ValueError for anything else."""
    match = DATE.match(str(value))
    if not match:
        raise ValueError("date must be YYYY, YYYY-MM or YYYY-MM-DD")
    year, month, day = (int(part) if part else 0 for part in match.groups())
    if not 1900 <= year <= 2100:
        raise ValueError("year out of range 1900-2100")
    if month:
        dt.date(year, month, day or 1)  # raises ValueError for 2019-13 or 2019-02-30
    return year, month, day


class SynonymsFile(Strict):
    """data/synonyms.yaml: groups of words and phrases that a search treats as the same.

    Each group lists two or more entries in either language (k8s, kubernetes, 쿠버네티스); an
    entry may be several words ("out of memory", "인증서 만료"). An entry belongs to one group.
    """

    groups: list[Annotated[list[Text], Field(min_length=2)]] = Field(min_length=1)
