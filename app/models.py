"""SQLModel tables. The database is a build artefact of data/: never edited by hand."""

from sqlmodel import Field, SQLModel


class Term(SQLModel, table=True):
    """One taxonomy value of one dimension (cause, component, symptom, factor)."""

    id: int | None = Field(default=None, primary_key=True)
    dimension: str = Field(index=True)
    slug: str
    position: int
    parent: str | None = None
    label_en: str
    label_ko: str
    description_en: str
    description_ko: str
    aliases_json: str = "[]"


class Incident(SQLModel, table=True):
    """One incident report. `sort_rank` 0 is the newest; bitsets use it as the bit position."""

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(index=True, unique=True)
    organization: str = Field(index=True)
    date: str
    year: int = Field(index=True)
    month: int = 0
    day: int = 0
    sort_rank: int = Field(default=0, index=True)
    title_en: str
    title_ko: str
    body_json: str  # sections {symptom: {en, ko}, ...}
    tags_json: str  # {cause: [...], component: [...], ...}
    sources_json: str
    patterns_json: str = "[]"
    duration: int | None = None  # minutes of impact, where the report gives start and end
    review_json: str | None = None  # {checked, read, part}: how the summary was checked


class IncidentTerm(SQLModel, table=True):
    """Link table: an incident carries a term."""

    incident_id: int = Field(foreign_key="incident.id", primary_key=True)
    term_id: int = Field(foreign_key="term.id", primary_key=True, index=True)


class Pattern(SQLModel, table=True):
    """A check-my-cluster pattern from data/patterns.yaml, stored whole as JSON."""

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(index=True, unique=True)
    position: int
    title_en: str
    title_ko: str
    data_json: str


class IncidentPattern(SQLModel, table=True):
    """Link table: an incident is grounding for a pattern."""

    incident_id: int = Field(foreign_key="incident.id", primary_key=True)
    pattern_id: int = Field(foreign_key="pattern.id", primary_key=True, index=True)


class Bitset(SQLModel, table=True):
    """Incidents per facet value as a bitset over sort_rank, computed at build time."""

    kind: str = Field(primary_key=True)  # cause, component, symptom, factor, org, year, pattern
    key: str = Field(primary_key=True)
    count: int
    bits: bytes


class Meta(SQLModel, table=True):
    """Build facts: incident count, build time."""

    key: str = Field(primary_key=True)
    value: str


class SearchWord(SQLModel, table=True):
    """A word of the indexed text and how many incidents use it: the typo corrector's list."""

    word: str = Field(primary_key=True)
    docs: int


class SearchSynonym(SQLModel, table=True):
    """One entry of a synonym group from data/synonyms.yaml (group and position in the file)."""

    group_id: int = Field(primary_key=True)
    position: int = Field(primary_key=True)
    entry: str
