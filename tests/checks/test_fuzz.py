"""Any input whatsoever ends in exit 0, 1 or 2, with at most one line on stderr.

A property test puts arbitrary JSON/YAML values into every position of the objects of a real
snapshot, in both formats, and runs the `check` command on the result. No check may fail
internally either: the typed reading must skip what a check could not handle.

CI runs a few hundred examples; for a thorough run (locally, not in CI):
    CHECK_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/checks/test_fuzz.py
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.checks import cli
from app.checks.documents import parse_documents
from app.checks.snapshot import RESOURCES

from .conftest import SNAPSHOTS

BASE: list[dict[str, Any]] = parse_documents((SNAPSHOTS / "cluster-with-gaps.json").read_text())  # type: ignore[assignment]
ITEMS = [(d, i) for d, document in enumerate(BASE) for i in range(len(document["items"]))]
EXAMPLES = int(os.environ.get("CHECK_FUZZ_EXAMPLES", "250"))

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["", "100m", "1Gi", "-1", "1e400", "2025-05-01T08:00:00", "10.0.0.0/33"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def positions(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in an object that holds a value: dict keys and list indexes, at any depth."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += positions(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += positions(inner, (*path, index))
    return found


def put(target: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


@st.composite
def mutated_snapshots(draw: st.DrawFn) -> tuple[str, str]:
    documents = json.loads(json.dumps(BASE))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        d, i = draw(st.sampled_from(ITEMS))
        item = documents[d]["items"][i]
        path = draw(st.sampled_from(positions(item)))
        put(item, path, draw(json_values))
    if draw(st.booleans()):
        return "json", "\n".join(json.dumps(doc) for doc in documents)
    return "yaml", yaml.safe_dump_all(documents, allow_unicode=True)


def run_check(text: str, suffix: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / f"snapshot.{suffix}"
        path.write_text(text, encoding="utf-8")
        code = cli.main(["--snapshot", str(path), "--format", "json"])
    out, err = capsys.readouterr()
    return code, out, err


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(mutated_snapshots())
def test_any_value_in_any_position_ends_in_0_1_or_2_without_a_traceback(
    capsys: pytest.CaptureFixture[str], packaged: None, case: tuple[str, str]
) -> None:
    suffix, text = case
    code, out, err = run_check(text, suffix, capsys)
    assert code in (0, 1, 2)
    assert err.count("\n") <= 1 and "Traceback" not in err
    if out:
        report = json.loads(out)
        assert report["exit_code"] == code
        failed = [n for n in report["not_evaluable"] if "the check failed" in n["reason"]["en"]]
        assert not failed, failed


KINDS = sorted({resource.kind for resource in RESOURCES})
FIELDS = ["metadata", "spec", "status", "items", "kind", "apiVersion"]
documents = st.one_of(
    json_values,
    st.builds(lambda items: {"kind": "List", "items": items}, st.lists(json_values, max_size=4)),
    st.builds(
        lambda kind, body: {**body, "kind": kind},
        st.sampled_from(KINDS) | st.sampled_from([f"{k}List" for k in KINDS]),
        st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=4),
    ),
)


@st.composite
def arbitrary_inputs(draw: st.DrawFn) -> tuple[str, bytes]:
    """Whole inputs: bytes, text, or documents of any shape as JSON or YAML."""
    form = draw(st.sampled_from(["bytes", "text", "json", "yaml"]))
    if form == "bytes":
        return "json", draw(st.binary(max_size=300))
    if form == "text":
        return "yaml", draw(st.text(max_size=300)).encode()
    drawn = draw(st.lists(documents, min_size=1, max_size=3))
    if form == "json":
        return "json", "\n".join(json.dumps(d) for d in drawn).encode()
    return "yaml", yaml.safe_dump_all(drawn, allow_unicode=True).encode()


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(arbitrary_inputs())
def test_any_input_whatsoever_ends_in_0_1_or_2_without_a_traceback(
    capsys: pytest.CaptureFixture[str], packaged: None, case: tuple[str, bytes]
) -> None:
    suffix, raw = case
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / f"snapshot.{suffix}"
        path.write_bytes(raw)
        code = cli.main(["--snapshot", str(path), "--format", "json"])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2)
    assert err.count("\n") <= 1 and "Traceback" not in err
    assert "internal error" not in err
    if out:
        report = json.loads(out)
        assert report["exit_code"] == code
        failed = [n for n in report["not_evaluable"] if "the check failed" in n["reason"]["en"]]
        assert not failed, failed


@pytest.mark.parametrize(
    ("kind", "where", "value", "skipped"),
    [
        ("Node", ("status", "allocatable", "memory"), "12 GB", True),
        ("Pod", ("spec", "overhead"), {"cpu": "lots"}, True),
        ("Job", ("spec", "backoffLimit"), None, False),
        ("Pod", ("metadata", "creationTimestamp"), "2025-05-01T08:00:00", False),
        ("Deployment", ("metadata", "labels"), {"version": 3}, True),
        ("Node", ("spec", "podCIDR"), "10.0.0.0/99", True),
        ("Deployment", ("spec", "replicas"), "three", True),
        ("Node", ("status", "conditions"), "Ready", True),
    ],
)
def test_known_crashers_are_skipped_with_a_warning_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
    packaged: None,
    kind: str,
    where: tuple[str, ...],
    value: object,
    skipped: bool,
) -> None:
    """Each of these aborted the whole report once (issue 15)."""
    documents = json.loads(json.dumps(BASE))
    [listed] = [d for d in documents if d["kind"] == f"{kind}List"]
    for item in listed["items"]:
        put(item, where, value)
    code, out, err = run_check("\n".join(json.dumps(d) for d in documents), "json", capsys)
    assert code in (0, 1) and err == ""
    report = json.loads(out)
    assert len(report["warnings"]) == (len(listed["items"]) if skipped else 0)
    assert not [n for n in report["not_evaluable"] if "the check failed" in n["reason"]["en"]]


def test_mixed_timestamps_with_and_without_a_zone_are_compared() -> None:
    from app.checks.registry import CHECKS

    from .factories import make_snapshot, node

    nodes = [
        node(f"n{i}", ready_since=f"2025-04-01T10:0{i}:00{'Z' if i % 2 else ''}") for i in range(4)
    ]
    gaps = CHECKS[("synchronized-node-changes", "synchronized-ready-transitions")].function(
        make_snapshot(*nodes)
    )
    assert [gap.scope for gap in gaps] == ["cluster"]


def test_deep_nesting_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], packaged: None
) -> None:
    for text, suffix in (("[" * 200_000, "json"), ("a: " + "[" * 100_000, "yaml")):
        code, out, err = run_check(text, suffix, capsys)
        assert (code, out) == (2, "") and err.count("\n") == 1
        assert "nested too deeply" in err
