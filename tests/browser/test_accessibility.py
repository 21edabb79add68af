"""axe-core (from npm, pinned by package-lock.json) finds no violation on any of our page types,
on a desktop and a phone, in light and dark colours, including the states a click opens."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from app.config import ROOT

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"  # copied by scripts/setup.sh --test
SNAPSHOTS = ROOT / "tests" / "checks" / "snapshots"

PAGES = [
    "/incidents",
    "/incidents?q=etcd&cause=capacity-limit",  # chips, recommendations, snippets, +N counts
    "/incidents?cause=-config-change&component=kubelet&lang=ko",  # excluded, nested open, Korean
    "/incidents?q=qqzxqv&cause=capacity-limit",  # the empty state with its suggestion
    "/incidents/IL-0129",
    "/incidents/IL-0094?lang=ko",
    "/patterns",
    "/patterns/replicas-colocated",
    "/check",
    "/docs",
    "/docs?lang=ko",
    "/graph?cause=capacity-limit",
    "/no/such/page",
]
MODES = {
    "desktop-light": {"viewport": {"width": 1280, "height": 900}, "color_scheme": "light"},
    "desktop-dark": {"viewport": {"width": 1280, "height": 900}, "color_scheme": "dark"},
    "phone-light": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "color_scheme": "light",
    },
    "phone-dark": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "color_scheme": "dark",
    },
}


def violations(page: Page) -> list[str]:
    """axe's violations on the page as it is now, one line each (rule, impact, first nodes)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # evaluated over DevTools, so our Content-Security-Policy (script-src 'self') stays on
        page.evaluate(AXE.read_text())
    found: list[dict[str, Any]] = page.evaluate(
        """axe.run(document).then(r => r.violations.map(v => ({
            id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))})))"""
    )
    return [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'])}" for v in found]


@pytest.mark.parametrize("mode", MODES)
def test_no_axe_violations_on_any_page(
    new_page: Callable[..., Page], server: str, mode: str
) -> None:
    page = new_page(**MODES[mode])
    problems: dict[str, list[str]] = {}

    def check(label: str) -> None:
        if found := violations(page):
            problems[label] = found

    assert AXE.exists(), "run scripts/setup.sh --test (it copies axe-core from node_modules)"
    for path in PAGES:
        page.goto(server + path)
        check(path)

    # states a click opens: the phone's filter panel, an exclude button's label, the checker's
    # error (with the pasted text kept) and its findings
    page.goto(f"{server}/incidents?cause=capacity-limit")
    if page.locator(".filters-toggle").is_visible():
        page.locator(".filters-toggle").click()
    page.locator("a.facet-exclude").first.hover()
    check("/incidents?cause=capacity-limit (filters open, exclude label shown)")
    page.goto(f"{server}/check")
    page.locator("#snapshot").fill('{"kind": "List", "items": [')
    page.locator(".check-form button[type=submit]").click()
    check("/check (bad paste)")
    page.locator("#snapshot").fill((SNAPSHOTS / "cluster-with-gaps.json").read_text())
    page.locator(".check-form button[type=submit]").click()
    page.wait_for_selector(".findings")
    check("/check (findings)")

    assert not problems, "\n".join(f"{where}: {'; '.join(v)}" for where, v in problems.items())
