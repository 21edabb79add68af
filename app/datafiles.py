"""YAML and JSON as data/ is read: a key written twice is an error, not a silent overwrite.

PyYAML and json keep the last of two equal keys, so `duration: 90` followed later by
`duration: 30` would build without a word; validate must say so instead.
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class StrictLoader(_Loader):  # type: ignore[misc,valid-type]
    """The safe loader (libyaml's when present), refusing duplicate mapping keys."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _value in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # an unhashable key: the base constructor reports it
                break
            if duplicate:
                raise ConstructorError(
                    "while reading a mapping",
                    node.start_mark,
                    f"found the key {key!r} twice",
                    key_node.start_mark,
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]


def load_yaml(text: str) -> Any:
    """:raises yaml.YAMLError: also for a key written twice in one mapping."""
    return yaml.load(text, Loader=StrictLoader)  # noqa: S506 - a safe loader


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)  # a key written twice leaves fewer keys than pairs
    if len(out) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"found the key {key!r} twice")
            seen.add(key)
    return out


def load_json(text: str) -> Any:
    """:raises ValueError: for invalid JSON (json.JSONDecodeError) or a key written twice."""
    return json.loads(text, object_pairs_hook=_pairs)
