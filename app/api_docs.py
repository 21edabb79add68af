"""The /docs page's view of the OpenAPI schema: endpoints, their parameters and answers, shapes.

Rendered by our own template (inside the site's frame, readable without JavaScript) from the
same /openapi.json that tools read, so the page and the schema cannot disagree.
"""

from dataclasses import dataclass
from typing import Any

SHOWN_VALUES = 16  # enum values listed in a parameter's row; the rest are counted


@dataclass(frozen=True)
class Parameter:
    name: str
    where: str  # query, path
    required: bool
    type: str
    description: str
    values: tuple[str, ...] = ()  # the first SHOWN_VALUES plain values of an enum
    more_values: int = 0


@dataclass(frozen=True)
class Answer:
    status: str
    description: str
    media_types: tuple[str, ...]
    shape: str = ""  # the schema name of the body, when it has one


@dataclass(frozen=True)
class Operation:
    anchor: str
    method: str
    path: str
    summary: str
    description: str
    parameters: tuple[Parameter, ...]
    answers: tuple[Answer, ...]
    open_url: str = ""  # the path itself when it needs no path parameter


@dataclass(frozen=True)
class Field:
    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class Shape:
    name: str
    description: str
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class ApiDocs:
    title: str
    version: str
    description: str
    operations: tuple[Operation, ...]
    shapes: tuple[Shape, ...]


def type_name(schema: dict[str, Any]) -> str:
    """A short name for a JSON schema: `IncidentSummary`, `array of string`, `integer or null`."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(dict.fromkeys(type_name(s) for s in schema[key]))
    kind = schema.get("type")
    if kind == "array":
        return f"array of {type_name(schema.get('items', {}))}"
    if kind == "object" and "additionalProperties" in schema:
        extra = schema["additionalProperties"]
        return f"object of {type_name(extra)}" if isinstance(extra, dict) else "object"
    return str(kind or "any")


def _values(schema: dict[str, Any]) -> tuple[tuple[str, ...], int]:
    enum = schema.get("enum") or schema.get("items", {}).get("enum") or []
    plain = [str(v) for v in enum if not str(v).startswith(("+", "-"))]
    return tuple(plain[:SHOWN_VALUES]), max(0, len(plain) - SHOWN_VALUES)


def _parameter(raw: dict[str, Any]) -> Parameter:
    schema = raw.get("schema", {})
    values, more = _values(schema)
    return Parameter(
        name=raw["name"],
        where=raw.get("in", ""),
        required=bool(raw.get("required")),
        type=type_name(schema),
        description=raw.get("description") or schema.get("description", ""),
        values=values,
        more_values=more,
    )


def _answers(responses: dict[str, Any]) -> tuple[Answer, ...]:
    def order(status: str) -> tuple[int, str]:
        return (1, status) if status == "default" else (0, status)

    out = []
    for status in sorted(responses, key=order):
        answer = responses[status]
        content = answer.get("content", {})
        shapes = [type_name(c["schema"]) for c in content.values() if "$ref" in c.get("schema", {})]
        shape = shapes[0] if shapes else ""
        out.append(Answer(status, answer.get("description", ""), tuple(content), shape))
    return tuple(out)


def build(schema: dict[str, Any]) -> ApiDocs:
    """The page's model of an OpenAPI document, endpoints in the schema's order."""
    operations = []
    for path, item in schema.get("paths", {}).items():
        for method, operation in item.items():
            anchor = operation.get("operationId") or f"{method}-{path}"
            operations.append(
                Operation(
                    anchor="op-" + "".join(c if c.isalnum() else "-" for c in anchor),
                    method=method.upper(),
                    path=path,
                    summary=operation.get("summary", ""),
                    description=operation.get("description", ""),
                    parameters=tuple(_parameter(p) for p in operation.get("parameters", [])),
                    answers=_answers(operation.get("responses", {})),
                    open_url="" if "{" in path or method != "get" else path,
                )
            )
    shapes = []
    for name, shape in schema.get("components", {}).get("schemas", {}).items():
        required = set(shape.get("required", []))
        fields = tuple(
            Field(key, type_name(value), key in required, value.get("description", ""))
            for key, value in shape.get("properties", {}).items()
        )
        shapes.append(Shape(name, shape.get("description", ""), fields))
    info = schema.get("info", {})
    return ApiDocs(
        title=info.get("title", ""),
        version=info.get("version", ""),
        description=info.get("description", ""),
        operations=tuple(operations),
        shapes=tuple(shapes),
    )
