"""Pattern pages show, per check, what kube-score, Polaris or Popeye say about the same thing."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from app.checks.patterns import library_data, load_patterns


def other_checkers(page: str, check_id: str) -> tuple[str, list[str]] | None:
    """The heading and the lines (tags stripped) of one check's "Other checkers" section."""
    found = re.search(
        rf'<div class="other-checkers" id="others-{check_id}">(.*?)</div>',
        page,
        re.S,
    )
    if found is None:
        return None
    heading = re.search(r"<h4[^>]*>(.*?)</h4>", found.group(1), re.S)
    items = re.findall(r"<li>(.*?)</li>", found.group(1), re.S)
    text = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", item)).split()) for item in items]
    return html.unescape(heading.group(1)) if heading else "", text


@pytest.mark.parametrize(
    ("lang", "heading", "verdicts"),
    [
        ("en", "Other checkers", ("agrees", "differs")),
        ("ko", "다른 점검 도구", ("같은 판단", "다른 판단")),
    ],
)
def test_every_recorded_checker_is_shown_with_its_verdict_and_why(
    client: TestClient, lang: str, heading: str, verdicts: tuple[str, str]
) -> None:
    words = dict(zip(("agrees", "differs"), verdicts, strict=True))
    for pattern in load_patterns(library_data()):
        page = client.get(f"/patterns/{pattern.slug}?lang={lang}").text
        for check in pattern.checks:
            if check.kind != "snapshot":
                continue
            shown = other_checkers(page, check.id)
            if not check.other_checkers:
                assert shown is None, (pattern.slug, check.id)
                continue
            assert shown == (
                heading,
                [
                    f"{o.checker} ({', '.join(o.checks)}): {words[o.verdict]} — {o.why.get(lang)}"
                    for o in check.other_checkers
                ],
            ), (pattern.slug, check.id)


def test_the_deliberate_opposite_of_polaris_is_on_the_page(client: TestClient) -> None:
    page = client.get("/patterns/recovery-depends-on-failed-layer").text
    shown = other_checkers(page, "pull-on-restart")
    assert shown is not None
    assert any(line.startswith("Polaris (pullPolicyNotAlways): differs — ") for line in shown[1])
