"""A corpus of malformed and hostile inputs: every one ends in exit 0, 1 or 2 with at most one
line on stderr, and the ones that cannot be used say why in that line.

The corpus is built here rather than stored: deep nesting, numbers too long or not finite,
wrong types, byte order marks and UTF-16, CRLF line ends, YAML tags, and YAML aliases that
refer to themselves or expand into billions of values.
"""

from __future__ import annotations

import codecs
import html
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from app.checks import cli
from app.config import Settings

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "web", "namespace": "shop", "uid": "u-1", "labels": {"app": "web"}},
    "spec": {
        "nodeName": "node-a",
        "containers": [
            {"name": "app", "image": "app:1.2", "resources": {"limits": {"memory": "256Mi"}}}
        ],
    },
    "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]},
}
DEPLOYMENT = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "shop", "uid": "u-2"},
    "spec": {
        "replicas": 3,
        "selector": {"matchLabels": {"app": "web"}},
        "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "app", "image": "app:1.2"}]},
        },
    },
}
PODS = json.dumps({"kind": "PodList", "items": [POD]})


def laughs(levels: int = 9) -> str:
    """The billion laughs: each level is nine aliases of the one before."""
    lines = ['  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, levels):
        this, before = chr(ord("a") + level), chr(ord("a") + level - 1)
        lines.append(f"  {this}: &{this} [{', '.join(f'*{before}' for _ in range(9))}]")
    return "kind: ConfigMap\nmetadata: {name: lol, namespace: kube-system}\ndata:\n" + "\n".join(
        lines
    )


def deployment_with(**spec: object) -> str:
    return json.dumps({**DEPLOYMENT, "spec": {**DEPLOYMENT["spec"], **spec}})  # type: ignore[dict-item]


# name -> (the input, the exit code, a part of the stderr line; "" for none)
CORPUS: dict[str, tuple[Callable[[], str | bytes], int, str]] = {
    "deep JSON objects": (lambda: '{"a":' * 100_000 + "1" + "}" * 100_000, 2, "nested too deeply"),
    "deep JSON in an item": (
        lambda: PODS[:-3] + ', "x": ' + "[" * 50_000 + "]" * 50_000 + "}]}",
        2,
        "nested too deeply",
    ),
    "deep YAML blocks": (
        lambda: "".join("  " * i + f"k{i}:\n" for i in range(5000)) + "  " * 5000 + "v",
        2,
        "nested too deeply",
    ),
    "deep YAML flow": (
        lambda: "kind: Pod\nspec: " + "{a: " * 20_000 + "1" + "}" * 20_000,
        2,
        "nested too deeply",
    ),
    "a 5000-digit integer in JSON": (
        lambda: deployment_with(replicas=0).replace('"replicas": 0', '"replicas": ' + "9" * 5000),
        2,
        "a number too long to read",
    ),
    "a 5000-digit integer in YAML": (
        lambda: (
            "kind: Deployment\nmetadata: {name: a, namespace: x}\nspec: {replicas: "
            + "9" * 5000
            + "}\n"
        ),
        2,
        "a number too long to read",
    ),
    "1e400 replicas": (lambda: deployment_with(replicas=0).replace(": 0", ": 1e400"), 2, "nothing"),
    "NaN replicas and requests": (
        lambda: deployment_with(replicas=0).replace(": 0", ": NaN"),
        2,
        "nothing in this snapshot could be checked",
    ),
    "Infinity allocatable": (
        lambda: (
            '{"kind":"Node","metadata":{"name":"n"},"status":{"allocatable":'
            '{"cpu":Infinity,"memory":-Infinity}}}'
        ),
        2,
        "nothing in this snapshot could be checked",
    ),
    "YAML .nan and .inf": (
        lambda: "kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: .inf, memory: .nan}}",
        2,
        "nothing in this snapshot could be checked",
    ),
    "metadata a list, spec a string": (
        lambda: json.dumps({"kind": "Pod", "metadata": [1, 2], "spec": "x"}),
        2,
        "nothing in this snapshot could be checked",
    ),
    "items a string": (lambda: '{"kind":"PodList","items":"x"}', 2, "the PodList has no items"),
    "kind a number": (lambda: '{"kind":5,"metadata":{"name":"a"}}', 2, "the object has no kind"),
    "items of numbers": (lambda: '{"kind":"List","items":[1,"two",null,[3]]}', 2, "nothing"),
    "replicas true, 2.5 and -5": (
        lambda: "\n".join(deployment_with(replicas=v) for v in (True, 2.5, -5)),
        2,
        "nothing in this snapshot could be checked",
    ),
    "labels with number, bool and null keys": (
        lambda: (
            "kind: Pod\nmetadata: {name: a, namespace: x, labels: {1: 2, true: null, null: x}}"
            "\nspec: {containers: [{name: c, image: i}], nodeName: 5}\n"
        ),
        2,
        "nothing in this snapshot could be checked",
    ),
    "YAML !!binary, !!set and !!timestamp": (
        lambda: (
            "kind: Pod\nmetadata: {name: !!binary aGVsbG8=, namespace: x, labels: !!set {a},"
            " creationTimestamp: !!timestamp 2001-12-14}\nspec: {containers: [{name: c, image: i}]}"
        ),
        2,
        "nothing in this snapshot could be checked",
    ),
    "a Python tag": (
        lambda: "kind: Pod\nmetadata: !!python/object:os.system {name: a}\n",
        2,
        "neither JSON nor YAML (line 2, column 11: could not determine a constructor",
    ),
    "an unhashable key": (lambda: "kind: Pod\nmetadata:\n  ? [a, b]\n  : c\n", 2, "unhashable key"),
    "a control character": (lambda: "kind: Pod\x00\n", 2, "control characters are not allowed"),
    "a tab for indentation": (lambda: "kind: Pod\nmetadata:\n\tname: a\n", 2, "cannot start any"),
    "invalid UTF-8": (lambda: b'{"kind":"Pod","metadata":{"name":"\xff\xfe"}}', 2, "is not text"),
    "a lone surrogate in a name that is reported": (
        lambda: json.dumps(DEPLOYMENT).replace('"web", "namespace"', '"web\\ud800", "namespace"'),
        1,
        "",
    ),
    "a UTF-8 byte order mark": (lambda: "\ufeff" + PODS, 0, ""),
    "UTF-16 with a byte order mark (PowerShell)": (
        lambda: codecs.BOM_UTF16_LE + PODS.encode("utf-16-le"),
        0,
        "",
    ),
    "UTF-16 without a byte order mark": (lambda: PODS.encode("utf-16-le"), 0, ""),
    "UTF-16 big-endian": (lambda: PODS.encode("utf-16"), 0, ""),
    "CRLF YAML": (lambda: yaml.safe_dump_all([POD, DEPLOYMENT]).replace("\n", "\r\n"), 1, ""),
    "CR-only YAML": (lambda: yaml.safe_dump(POD).replace("\n", "\r"), 0, ""),
    "duplicate keys (the last one wins)": (
        lambda: '{"kind":"Pod","kind":"Deployment","metadata":{"name":"a"}}',
        0,
        "",
    ),
    "100,000 empty YAML documents": (lambda: "---\n" * 100_000, 2, "no Kubernetes object"),
    "a scalar document": (lambda: "42\n", 2, "not a Kubernetes object"),
    "an anchor shared by three fields": (
        lambda: (
            "kind: Deployment\nmetadata: {name: a, namespace: x, uid: u, labels: &l {app: a}}"
            "\nspec:\n  replicas: 2\n  selector: {matchLabels: *l}\n  template:\n"
            "    metadata: {labels: *l}\n    spec: {containers: [{name: c, image: i:1}]}\n"
        ),
        1,
        "",
    ),
    "a scalar document beside anchors' characters": (
        lambda: "false\n---\n'&': null\n'*': null\n",
        2,
        "no Kubernetes object or List in the input",
    ),
    "a merge key": (
        lambda: (
            "base: &b {name: a, namespace: x}\nkind: Pod\nmetadata:\n  <<: *b\n"
            "spec: {containers: [{name: c, image: i, resources: {limits: {memory: 1Gi}}}]}\n"
        ),
        0,
        "",
    ),
    "an alias inside its own anchor": (
        lambda: "kind: Pod\nmetadata: &m {name: a, namespace: x, self: *m}\n",
        2,
        "contains itself through an alias",
    ),
    "a list that contains itself": (
        lambda: "kind: Pod\nmetadata: {name: a}\nspec:\n  containers: &c [*c]\n",
        2,
        "contains itself through an alias",
    ),
    "the billion laughs": (laughs, 2, "refused as an alias bomb"),
}


@pytest.mark.parametrize("name", list(CORPUS))
def test_malformed_input_exits_0_1_or_2_with_at_most_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], packaged: None
) -> None:
    make, expected, said = CORPUS[name]
    content = make()
    path = tmp_path / "snapshot"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    code = cli.main(["--snapshot", str(path)])
    out, err = capsys.readouterr()
    assert code == expected, (out[-400:], err)
    assert err.count("\n") <= 1 and "Traceback" not in err
    assert said in err
    if code == 2 and said:
        assert err.startswith("incident-library check: ")


def test_the_billion_laughs_is_refused_without_being_expanded(tmp_path: Path) -> None:
    """Twelve levels would be 282 billion values: refused at once in a fresh process, or the
    subprocess timeout (a guard against hanging, not a speed claim) ends the test."""
    path = tmp_path / "lol.yaml"
    path.write_text(laughs(12))
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "check", "--snapshot", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "alias bomb" in done.stderr


@pytest.mark.parametrize("name", list(CORPUS))
def test_malformed_upload_gets_a_page_never_a_500(name: str, client: TestClient) -> None:
    make, expected, said = CORPUS[name]
    content = make()
    raw = content if isinstance(content, bytes) else content.encode()
    response = client.post("/check", files={"upload": ("snapshot.yaml", raw, "text/plain")})
    # Input that cannot be used gets its error beside the box; input with nothing to check
    # gets the report page, like any other result.
    refused = expected == 2 and said and "nothing" not in said
    status = 413 if len(raw) > Settings().max_check_upload_bytes else 400 if refused else 200
    assert response.status_code == status
    if response.status_code == 400:
        assert html.escape(said, quote=False) in response.text
