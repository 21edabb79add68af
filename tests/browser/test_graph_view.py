"""The graph as a person sees it: an SVG with readable, non-overlapping labels and live links."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_graph_renders_with_visible_labels_that_do_not_overlap(
    page: Page, server: str, tmp_path: Path
) -> None:
    page.goto(f"{server}/graph")
    svg = page.locator("svg.graph")
    expect(svg).to_be_visible()
    labels = page.locator("svg.graph .graph-nodes text")
    assert labels.count() >= 10
    boxes = []
    for i in range(labels.count()):
        box = labels.nth(i).bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0
        assert (labels.nth(i).text_content() or "").strip()
        boxes.append(box)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap_x = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            overlap_y = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            assert overlap_x <= 1 or overlap_y <= 1, "two labels overlap"
    shot = tmp_path / "graph.png"
    svg.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000  # a real picture, not a blank box


def test_graph_node_leads_to_the_filtered_list(page: Page, server: str) -> None:
    page.goto(f"{server}/graph")
    node = page.locator("svg.graph a.graph-node.graph-component").first
    title = node.locator("title").text_content() or ""
    number = re.search(r"(\d+) incidents$", title)
    assert number, title
    node.click()
    expect(page).to_have_url(re.compile(r"/incidents\?component=[a-z-]+$"))
    expect(page.locator(".count-h .total")).to_contain_text(f"{number.group(1)} incidents")
