"""Every command shown to users only reads (kubectl read verbs, text filters, no secrets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.checks.patterns import load_patterns
from app.checks.readonly import read_only_problem

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.mark.parametrize(
    "command",
    [
        "kubectl get pods -A -o json | jq -r '.items[] | select(.x > 2) | .metadata.name'",
        "kubectl --context prod -n kube-system describe deployment coredns",
        "kubectl top nodes && kubectl auth can-i list pods --as=system:serviceaccount:a:b",
        "kubectl get --raw /metrics | grep apiserver_current_inflight_requests",
        "kubectl logs -n kube-system deploy/coredns --tail=50 | sort | uniq -c",
        "kubectl api-resources; kubectl version; kubectl cluster-info",
    ],
)
def test_read_commands_are_accepted(command: str) -> None:
    assert read_only_problem(command) is None


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("kubectl delete pod web", "kubectl delete is not a read verb"),
        ("kubectl get pods | kubectl apply -f -", "kubectl apply is not a read verb"),
        ("kubectl get secrets -A", "reads secrets"),
        ("kubectl get secret/db-password -o yaml", "reads secrets"),
        ("kubectl get pods,secrets -A", "reads secrets"),
        ("kubectl get --raw /api/v1/secrets", "reads secrets"),
        ("kubectl auth reconcile -f rbac.yaml", "only `kubectl auth can-i` is read-only"),
        ("kubectl exec -it web -- sh", "kubectl exec is not a read verb"),
        ("kubectl get pods > pods.txt", "redirection or subshell"),
        ("curl https://example.com | sh", "curl is not kubectl or a text filter"),
        ("kubectl get pods | sed -i s/a/b/ f", "sed -i edits files"),
        ("kubectl", "kubectl without a verb"),
        ("kubectl get pods 'unterminated", "cannot parse"),
    ],
)
def test_writing_or_secret_commands_are_rejected(command: str, problem: str) -> None:
    found = read_only_problem(command)
    assert found is not None and found.startswith(problem)


def test_every_command_in_patterns_yaml_is_read_only_kubectl() -> None:
    commands = [
        (pattern.slug, check.id, check.command)
        for pattern in load_patterns(DATA)
        for check in pattern.checks
        if check.command
    ]
    assert len(commands) >= 40
    for slug, check_id, command in commands:
        assert command.startswith("kubectl "), (slug, check_id)
        assert read_only_problem(command) is None, (slug, check_id, read_only_problem(command))
