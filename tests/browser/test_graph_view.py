"""The graph as a person sees it: readable labels, live links, a phone layout, the keyboard
path (skip link, one Tab stop, arrow keys), a sortable table, and no axe violations."""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

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


# -- issue #14: phones, keyboard, screen readers -----------------------------------------------
@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        locale="en-US", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()


def test_on_a_phone_the_graph_is_a_legible_list_of_tappable_links(phone: Page, server: str) -> None:
    phone.goto(f"{server}/graph")
    expect(phone.locator(".graph-wrap")).to_be_hidden()  # the 965 px picture would shrink to 4 px
    listing = phone.locator(".graph-list")
    expect(listing).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"
    links = listing.locator("a")
    assert links.count() >= 30
    for i in range(links.count()):
        link = links.nth(i)
        box = link.bounding_box()
        assert box is not None and box["height"] >= 24 and box["width"] >= 24, box
        for part in (link, *link.locator("span").all()):
            size = float(part.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
            assert size >= 12, (link.inner_text(), size)
    for control in (phone.locator("#graph-min"), phone.locator(".graph-controls button")):
        box = control.bounding_box()
        assert box is not None and box["height"] >= 24
    line = listing.locator(".graph-group-lines a").first
    expect(line).to_have_accessible_name(re.compile(r"^.+ \d+ incidents$"))
    number = line.locator(".count").inner_text().split()[0]
    line.tap()
    expect(phone.locator(".count-h .total")).to_contain_text(f"{number} incidents")


def focused(page: Page) -> dict[str, str]:
    return dict(
        page.evaluate(
            """() => { const el = document.activeElement;
                return { cls: el.getAttribute('class') || '', node: el.getAttribute('data-node') || '',
                         side: el.getAttribute('data-side') || '', inSvg: String(!!el.closest('svg')),
                         after: String(!!el.closest('#graph-after')), text: el.textContent.trim() }; }"""
        )
    )


def tab_to_skip_link(page: Page) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if "graph-skip" in focused(page)["cls"]:
            return
    raise AssertionError("Tab never reached the skip link")


def test_the_skip_link_jumps_past_the_picture(page: Page, server: str) -> None:
    page.goto(f"{server}/graph")
    tab_to_skip_link(page)
    skip = page.locator(".graph-skip")
    expect(skip).to_be_visible()
    box = skip.bounding_box()
    assert box is not None and box["x"] >= 0 and box["height"] >= 24
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    now = focused(page)
    assert now["inSvg"] == "false" and now["after"] == "true", now


def test_the_picture_is_one_tab_stop_and_arrow_keys_move_between_nodes(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/graph")
    tab_to_skip_link(page)
    page.keyboard.press("Tab")
    first = focused(page)
    assert "graph-node" in first["cls"] and first["side"] == "left", first
    info = page.locator("#graph-info")
    expect(info).to_contain_text("incidents")
    page.keyboard.press("ArrowDown")
    second = focused(page)
    assert second["side"] == "left" and second["node"] != first["node"]
    page.keyboard.press("ArrowRight")
    right = focused(page)
    assert right["side"] == "right", right
    title = page.locator(f'[data-node="{right["node"]}"] title').text_content() or ""
    expect(info).to_have_text(title)  # the full label, shown on focus
    lit = page.locator(".graph-edge.is-lit")
    assert lit.count() >= 1
    for i in range(lit.count()):
        assert right["node"] in (
            lit.nth(i).get_attribute("data-source"),
            lit.nth(i).get_attribute("data-target"),
        )
    page.keyboard.press("Home")
    assert focused(page)["side"] == "right"
    page.keyboard.press("Tab")  # one Tab leaves the picture: no stop on its other nodes or lines
    assert focused(page)["inSvg"] == "false"
    page.keyboard.press("Shift+Tab")  # and comes back to the node last visited
    back = focused(page)
    assert back["inSvg"] == "true" and back["side"] == "right"
    number = re.search(
        r"(\d+) incidents$",
        page.locator(f'[data-node="{back["node"]}"] title').text_content() or "",
    )
    assert number
    page.keyboard.press("Enter")
    expect(page.locator(".count-h .total")).to_contain_text(f"{number.group(1)} incidents")


# The middle of a line on screen, for the first line no other shape covers there: the point
# comes from the path itself (getPointAtLength, through the SVG's screen transform), so it holds
# whatever the layout and the scale of the picture.
UNCOVERED_MIDPOINT = """
() => {
  const edges = [...document.querySelectorAll("a.graph-edge")];
  for (let i = edges.length - 1; i >= 0; i--) {
    const path = edges[i].querySelector(".graph-line");
    const at = path.getPointAtLength(path.getTotalLength() / 2);
    const m = path.getScreenCTM();
    const x = at.x * m.a + at.y * m.c + m.e, y = at.x * m.b + at.y * m.d + m.f;
    const hit = document.elementFromPoint(x, y);
    if (hit && edges[i].contains(hit)) return {index: i, x, y};
  }
  return null;
}
"""


def test_hovering_a_line_lights_it_and_its_ends(page: Page, server: str) -> None:
    page.goto(f"{server}/graph")
    point = page.evaluate(UNCOVERED_MIDPOINT)
    assert point is not None, "every line is covered at its middle"
    edge = page.locator("a.graph-edge").nth(point["index"])
    page.mouse.move(point["x"], point["y"])
    line = edge.locator(".graph-line")
    expect(line).to_have_css("stroke-opacity", "0.9")
    ends = page.locator(".graph-node.is-lit")
    assert ends.count() == 2
    expect(page.locator("#graph-info")).to_have_text(edge.locator("title").text_content() or "")


def test_the_table_of_lines_sorts_and_links_like_the_picture(page: Page, server: str) -> None:
    page.goto(f"{server}/graph")
    page.locator(".graph-table summary").click()
    table = page.locator("table.graph-lines")
    weights = [int(t) for t in table.locator("tbody td:nth-child(3)").all_inner_texts()]
    assert weights == sorted(weights, reverse=True)
    table.locator("thead th").nth(0).locator("button").click()
    expect(table.locator("thead th").nth(0)).to_have_attribute("aria-sort", "ascending")
    causes = table.locator("tbody td:nth-child(1)").all_inner_texts()
    assert causes == sorted(causes, key=str.casefold) and len(set(causes)) > 1
    weight_sort = table.locator("thead th").nth(2).locator("button")
    weight_sort.click()  # numbers sort most first, then a second press flips them
    expect(table.locator("thead th").nth(2)).to_have_attribute("aria-sort", "descending")
    expect(table.locator("thead th").nth(0)).not_to_have_attribute("aria-sort", "ascending")
    weight_sort.click()
    expect(table.locator("thead th").nth(2)).to_have_attribute("aria-sort", "ascending")
    weights = [int(t) for t in table.locator("tbody td:nth-child(3)").all_inner_texts()]
    assert weights == sorted(weights)
    cell = table.locator("tbody tr").first.locator("td").nth(2).locator("a")
    expected = cell.inner_text()
    cell.click()
    expect(page.locator(".count-h .total")).to_contain_text(f"{expected} incident")


AXE_PAGES = [
    "/graph",
    "/graph?view=incident&lang=ko",
    "/graph?cause=capacity-limit&view=cause-symptom",
]


@pytest.mark.parametrize("path", AXE_PAGES)
@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_axe_finds_no_violations(
    browser: Browser, server: str, path: str, viewport: tuple[int, int]
) -> None:
    width, height = viewport
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(f"{server}{path}")
        page.locator(".graph-table summary").click()  # the table is checked too
        page.add_script_tag(url="/static/vendor/axe.min.js")
        violations = page.evaluate("async () => (await axe.run(document)).violations")
        report = [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
        assert violations == [], report
    finally:
        context.close()


def test_the_incident_view_shows_a_full_title_on_hover_and_focus(page: Page, server: str) -> None:
    page.goto(f"{server}/graph?view=incident")
    nodes = page.locator("a.graph-node.graph-incident")
    shortened = [
        i
        for i in range(nodes.count())
        if (nodes.nth(i).locator("text").text_content() or "").endswith("…")
    ]
    assert shortened, "no long title to check"
    node = nodes.nth(shortened[0])
    full = node.locator("title").text_content() or ""
    node.locator("text").hover()
    expect(page.locator("#graph-info")).to_have_text(full)
    page.mouse.move(0, 0)
    expect(page.locator("#graph-info")).to_have_text("")
    node.focus()
    expect(page.locator("#graph-info")).to_have_text(full)
    assert len(full) > len(node.locator("text").text_content() or "")
