"""Whether a shell command only reads: kubectl read verbs piped through text filters."""

from __future__ import annotations

import shlex

READ_VERBS = frozenset(
    {"get", "describe", "logs", "top", "api-resources", "api-versions", "version", "cluster-info"}
)
# Tools allowed after a pipe; none of them can reach the cluster or write files.
FILTERS = frozenset(
    {"jq", "grep", "sort", "uniq", "head", "tail", "wc", "awk", "column", "cut", "tr", "sed"}
)
_SEPARATORS = frozenset({"|", "||", "&&", ";"})
_FORBIDDEN = frozenset({">", ">>", "<", "&", "(", ")", "`", "$("})
_VALUE_FLAGS = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-l", "--selector"})


def read_only_problem(command: str) -> str | None:
    """None when the command is read-only, else the reason it is not."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError as error:
        return f"cannot parse: {error}"
    if not tokens:
        return "empty command"
    for segment in _segments(tokens):
        if problem := _segment_problem(segment):
            return problem
    return None


def _segments(tokens: list[str]) -> list[list[str]]:
    segments: list[list[str]] = [[]]
    for token in tokens:
        if token in _SEPARATORS:
            segments.append([])
        else:
            segments[-1].append(token)
    return segments


def _segment_problem(segment: list[str]) -> str | None:
    if not segment:
        return "empty pipeline step"
    if any(token in _FORBIDDEN for token in segment):
        return "redirection or subshell"
    if segment[0] in FILTERS:
        return "sed -i edits files" if segment[0] == "sed" and "-i" in segment else None
    if segment[0] != "kubectl":
        return f"{segment[0]} is not kubectl or a text filter"
    return _kubectl_problem(segment[1:])


def _kubectl_problem(arguments: list[str]) -> str | None:
    words = _positional(arguments)
    if not words:
        return "kubectl without a verb"
    verb = words[0]
    if verb == "auth":
        if words[1:2] != ["can-i"]:
            return "only `kubectl auth can-i` is read-only"
    elif verb not in READ_VERBS:
        return f"kubectl {verb} is not a read verb"
    for token in arguments:
        pieces = token.lower().replace("/", ",").replace("=", ",").split(",")
        if "secret" in pieces or "secrets" in pieces:
            return "reads secrets"
    return None


def _positional(arguments: list[str]) -> list[str]:
    words: list[str] = []
    skip = False
    for token in arguments:
        if skip:
            skip = False
        elif token in _VALUE_FLAGS:
            skip = True
        elif not token.startswith("-"):
            words.append(token)
    return words
