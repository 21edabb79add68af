"""From the bytes of one input to its documents: JSON (a stream of values) or YAML.

Input is untrusted. Text is UTF-8, or UTF-16/32 with a byte order mark (PowerShell's `>`
writes UTF-16). JSON may hold NaN, Infinity or numbers too long for Python to convert, YAML
may nest without end, refer to itself through an alias, or expand a few lines of aliases into
billions of values (the "billion laughs"). Each of these ends in a SnapshotError with one line
of English and Korean, never in a traceback and never in the expansion itself: the aliases of
a YAML input are measured over its distinct values, not by expanding them.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any

import yaml

from app.checks.text import Text

# Values that aliases may add to an input beyond the ones it writes out: far above any real
# use of anchors in a manifest, far below what an alias bomb expands to.
MAX_ALIAS_EXPANSION = 1_000_000


class SnapshotError(Exception):
    """Input that cannot be used; the message is one line, in English and Korean."""

    def __init__(self, message: Text | str) -> None:
        self.text = message if isinstance(message, Text) else Text(message, message)
        super().__init__(self.text.en)

    def within(self, label: str) -> SnapshotError:
        """The same error, prefixed with the file it came from."""
        return SnapshotError(Text(f"{label}: {self.text.en}", f"{label}: {self.text.ko}"))


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML that keeps timestamps as text, the way the API sends them."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode(raw: str | bytes) -> str:
    """UTF-8, or the encoding its byte order mark names; UTF-16 without one is recognised by
    its zero bytes (JSON and YAML start with ASCII).

    :raises SnapshotError: for bytes that are not text in any of these.
    """
    if isinstance(raw, str):
        return raw
    encoding = next((name for bom, name in _BOMS if raw.startswith(bom)), "utf-8")
    if encoding == "utf-8" and len(raw) >= 4 and raw[1] == 0 and raw[3] == 0 and raw[0]:
        encoding = "utf-16-le"
    elif encoding == "utf-8" and len(raw) >= 4 and raw[0] == 0 and raw[2] == 0 and raw[1]:
        encoding = "utf-16-be"
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:
        raise SnapshotError(
            Text(
                "the snapshot is not text (UTF-8, or UTF-16 with a byte order mark)",
                "스냅숏이 텍스트(UTF-8, 또는 바이트 순서 표시가 있는 UTF-16)가 아니다",
            )
        ) from None


def parse_documents(raw: str | bytes) -> list[object]:
    """The documents of one input: a JSON stream, or else YAML (one or more documents).

    :raises SnapshotError: for empty input, input that is neither JSON nor YAML, nesting too
        deep to read, a number too long to convert, or YAML aliases that contain themselves or
        expand beyond MAX_ALIAS_EXPANSION values.
    """
    text = decode(raw)
    if not text.strip():
        raise SnapshotError(Text("the snapshot is empty", "스냅숏이 비어 있다"))
    try:
        return _valid_text(_json_documents(text), text)
    except json.JSONDecodeError as error:
        json_error = error
    except RecursionError:
        raise _too_deep() from None
    except ValueError:  # int() refuses more than 4300 digits
        raise _too_long() from None
    try:
        documents = [doc for doc in yaml.load_all(text, Loader=_Loader) if doc is not None]
    except RecursionError:
        raise _too_deep() from None
    except yaml.YAMLError as error:
        raise _not_yaml(error, text, json_error) from None
    except ValueError:
        raise _too_long() from None
    if "&" in text and "*" in text:  # an alias needs both an anchor and a reference
        _check_aliases(documents)
    return _valid_text(documents, text)


def _json_documents(text: str) -> list[object]:
    decoder = json.JSONDecoder()
    documents: list[object] = []
    position = _skip_space(text, 0)
    while position < len(text):
        document, position = decoder.raw_decode(text, position)
        documents.append(document)
        position = _skip_space(text, position)
    return documents


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _not_yaml(error: yaml.YAMLError, text: str, json_error: json.JSONDecodeError) -> SnapshotError:
    if "nesting depth" in str(error):
        return _too_deep()
    if text.lstrip()[:1] in ("{", "["):
        where = f"line {json_error.lineno}, column {json_error.colno}: {json_error.msg}"
        return SnapshotError(
            Text(
                f"the snapshot is not valid JSON ({where})",
                f"스냅숏이 올바른 JSON 이 아니다 ({where})",
            )
        )
    if isinstance(error, yaml.reader.ReaderError):  # a control character, say
        where, reason = f"character {error.position + 1}: ", error.reason
    else:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        reason = getattr(error, "problem", None) or type(error).__name__
    return SnapshotError(
        Text(
            f"the snapshot is neither JSON nor YAML ({where}{reason})",
            f"스냅숏이 JSON 도 YAML 도 아니다 ({where}{reason})",
        )
    )


def _check_aliases(documents: list[object]) -> None:
    """Refuse aliases that contain themselves or expand too far, without expanding them.

    Each distinct list or mapping is visited once (depth first, without recursion); its
    expanded size is 1 plus that of its children, counted once per reference.
    """
    sizes: dict[int, int] = {}
    entered: set[int] = set()
    distinct = 0
    for document in documents:
        if not isinstance(document, dict | list):
            continue
        stack: list[tuple[Any, bool]] = [(document, False)]
        while stack:
            node, finished = stack.pop()
            children = list(node.values()) if isinstance(node, dict) else node
            if finished:
                sizes[id(node)] = 1 + sum(
                    sizes[id(child)] if isinstance(child, dict | list) else 1 for child in children
                )
                continue
            if id(node) in sizes:
                continue
            if id(node) in entered:
                raise SnapshotError(
                    Text(
                        "the snapshot's YAML contains itself through an alias (*name inside "
                        "its own &name)",
                        "스냅숏의 YAML 이 별칭으로 자기 자신을 담고 있다 (&name 안에 *name)",
                    )
                )
            entered.add(id(node))
            distinct += 1
            stack.append((node, True))
            stack.extend((child, False) for child in children if isinstance(child, dict | list))
    expanded = sum(sizes[id(d)] for d in documents if isinstance(d, dict | list))
    if expanded - distinct > MAX_ALIAS_EXPANSION:
        raise SnapshotError(
            Text(
                f"the snapshot's YAML aliases expand to {expanded:,} values from {distinct:,} "
                "written out; refused as an alias bomb",
                f"스냅숏 YAML 의 별칭이 적힌 값 {distinct:,}개를 {expanded:,}개로 불린다. 별칭 "
                "폭탄으로 보고 거부한다",
            )
        )


# A \\u escape of a UTF-16 surrogate: paired, it is one character; alone, no UTF-8 can hold it.
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _valid_text(documents: list[object], text: str) -> list[object]:
    """Replace lone surrogates (from \\ud800-style escapes) with U+FFFD, so that names made of
    them can still be printed and shown; looked for only when the text has such an escape."""
    if not _SURROGATE_ESCAPE.search(text):
        return documents
    stack: list[Any] = [documents]
    while stack:
        node = stack.pop()
        pairs = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        for key, value in pairs:
            if isinstance(value, str) and _LONE_SURROGATE.search(value):
                node[key] = _LONE_SURROGATE.sub("\ufffd", value)
            elif isinstance(value, dict | list):
                stack.append(value)
            if isinstance(key, str) and _LONE_SURROGATE.search(key):
                node[_LONE_SURROGATE.sub("\ufffd", key)] = node.pop(key)
    return documents


def _too_deep() -> SnapshotError:
    return SnapshotError(
        Text("the snapshot is nested too deeply to read", "스냅숏의 중첩이 너무 깊어 읽을 수 없다")
    )


def _too_long() -> SnapshotError:
    return SnapshotError(
        Text(
            "the snapshot holds a number too long to read (more than 4300 digits)",
            "스냅숏에 읽을 수 없을 만큼 긴 숫자가 있다 (4300자리 초과)",
        )
    )
