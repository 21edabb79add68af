"""/openapi.json that states every rule the API enforces, from the loaded library.

FastAPI describes the routes; this adds what only the data knows: the slugs of each dimension
(with their `+slug` and `-slug` forms), the organisations, and the bounds the Filter enforces.
The schema is made once per built database, so a term added to data/ appears in /docs after a
rebuild, with no code change.
"""

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app import graph as g
from app.facets import LANGS, MAX_Q, MAX_VALUES, SORTS, YEAR_MAX, YEAR_MIN
from app.schema import DIMENSIONS
from app.store import Store, StoreHolder

MAX_PAGE = 10**6
GRAPH_MAX_LIMIT = 500
ERROR_REF = {"$ref": "#/components/schemas/ErrorBody"}


def install(app: FastAPI, stores: StoreHolder) -> None:
    """Replace app.openapi with one that fills in the library's vocabulary."""
    made: dict[str, dict[str, Any]] = {}

    def openapi() -> dict[str, Any]:
        store = stores.get() if stores.path.exists() else None
        key = store.content_id if store else ""
        if key not in made:
            made.clear()
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            made[key] = describe(schema, store)
        return made[key]

    app.openapi = openapi  # type: ignore[method-assign]


def value_forms(slugs: list[str]) -> list[str]:
    """Every value a key accepts: `slug` (any of), `+slug` (also required), `-slug` (not)."""
    return [*slugs, *(f"+{s}" for s in slugs), *(f"-{s}" for s in slugs)]


def parameter_schemas(store: Store | None) -> dict[str, Callable[[], dict[str, Any]]]:
    def values(slugs: list[str], what: str) -> Callable[[], dict[str, Any]]:
        def make() -> dict[str, Any]:
            items: dict[str, Any] = {"type": "string", "maxLength": 200}
            if store is not None:
                items["enum"] = value_forms(slugs)
            return {"type": "array", "items": items, "maxItems": MAX_VALUES, "title": what}

        return make

    slugs = {
        dim: [t.slug for t in store.taxonomy.terms[dim]] if store else [] for dim in DIMENSIONS
    }
    orgs = list(store.orgs) if store else []
    year = {"type": "integer", "minimum": YEAR_MIN, "maximum": YEAR_MAX}
    return {
        **{dim: values(slugs[dim], f"{dim} slugs") for dim in DIMENSIONS},
        "org": values(orgs, "organisations"),
        "q": lambda: {"type": "string", "maxLength": MAX_Q},
        "from": lambda: dict(year),
        "to": lambda: dict(year),
        "sort": lambda: {"type": "string", "enum": list(SORTS)},
        "page": lambda: {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
        "lang": lambda: {"type": "string", "enum": list(LANGS)},
        "view": lambda: {"type": "string", "enum": list(g.VIEWS)},
        "limit": lambda: {
            "anyOf": [
                {"type": "integer", "minimum": 1, "maximum": GRAPH_MAX_LIMIT},
                {"type": "string", "enum": ["all"]},
            ]
        },
        "min": lambda: {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
    }


DESCRIPTIONS = {
    "cause": "Cause slugs: plain values match any of them; `+slug` must also match; "
    "`-slug` excludes.",
    "org": "Organisations, as /api/facets names them; `-name` excludes.",
    "q": 'Search text (English or Korean): `-word` excludes, `OR` between words, `"exact phrase"`.',
    "sort": "relevance (the default with q), recent (the default without), oldest, longest.",
}


def describe(schema: dict[str, Any], store: Store | None) -> dict[str, Any]:
    """The schema with every query parameter's enum and bounds, and the error body on 4xx."""
    makers = parameter_schemas(store)
    examples = _examples(store)
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            for parameter in operation.get("parameters", []):
                name = parameter.get("name")
                if parameter.get("in") != "query" or name not in makers:
                    continue
                parameter["schema"] = makers[name]()
                if name in examples:
                    parameter["example"] = examples[name]
                if name in DIMENSIONS:
                    parameter["style"], parameter["explode"] = "form", True
                    parameter["description"] = DESCRIPTIONS["cause"].replace("Cause", name)
                elif name in DESCRIPTIONS:
                    parameter["description"] = DESCRIPTIONS[name]
            _document_errors(operation)
    return schema


def _examples(store: Store | None) -> dict[str, Any]:
    """Examples that work on this library: its most used value of each dimension."""
    if store is None:
        return {}
    found: dict[str, Any] = {"q": "etcd", "sort": "recent", "lang": "ko"}
    for dim in DIMENSIONS:
        used = [t.slug for t in store.taxonomy.terms[dim] if store.counts.get((dim, t.slug))]
        if used:
            found[dim] = [max(used, key=lambda s: store.counts.get((dim, s), 0))]
    if store.years:
        found["from"], found["to"] = store.years[0], store.years[-1]
    return found


def _document_errors(operation: dict[str, Any]) -> None:
    """Every operation names its error answers: JSON ErrorBody, or the route's own error page."""
    responses = operation.setdefault("responses", {})
    json_error = {"content": {"application/json": {"schema": ERROR_REF}}}
    same_as_default = {"content": responses.get("default", json_error).get("content", {})}
    for status, description in (
        ("400", "A malformed parameter."),
        ("405", "Method not allowed; the Allow header lists the methods."),
        ("default", "Any other error."),
    ):
        if status not in responses:
            responses[status] = {"description": description, **same_as_default}
    responses.setdefault("304", {"description": "Not modified (If-None-Match matched)."})
