"""The incident list as a new user meets it (issue 13): the search box, history, focus and
announcements after a swap, the phone layout, exclusion, nested components, the empty state."""

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def total(page: Page) -> int:
    return int(re.sub(r"\D", "", page.locator(".count-h .total").inner_text()))


def history_length(page: Page) -> int:
    return int(page.evaluate("history.length"))


def first_card_top(page: Page) -> float:
    box = page.locator(".cards .card").first.bounding_box()
    assert box is not None
    return float(box["y"]) + float(page.evaluate("scrollY"))


# -- the search box, the URL and the results agree ------------------------------------------
def test_typing_makes_one_history_entry_and_back_restores_box_and_results(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/incidents")
    everything = total(page)
    before = history_length(page)
    box = page.locator("#q")
    box.press_sequentially("et", delay=30)
    page.wait_for_timeout(700)  # a pause long enough for a swap
    box.press_sequentially("cd", delay=30)
    expect(page).to_have_url(f"{server}/incidents?q=etcd")
    page.wait_for_timeout(700)
    box.press("Enter")
    page.wait_for_timeout(500)
    searched = total(page)
    assert 0 < searched < everything
    assert history_length(page) == before + 1, "one entry for one search, however it was typed"

    page.go_back()
    expect(page).to_have_url(f"{server}/incidents")
    expect(box).to_have_value("")
    expect(page.locator(".count-h .total")).to_have_text(f"{everything} incidents")
    page.go_forward()
    expect(page).to_have_url(f"{server}/incidents?q=etcd")
    expect(box).to_have_value("etcd")
    expect(page.locator(".count-h .total")).to_have_text(f"{searched} incidents")


def test_clear_all_and_chip_removal_empty_the_search_box(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?q=etcd&cause=capacity-limit")
    box = page.locator("#q")
    expect(box).to_have_value("etcd")
    page.locator(".applied .clear-all").click()
    expect(page).to_have_url(f"{server}/incidents")
    expect(box).to_have_value("")
    # the next form sent (here the year range's Apply) no longer carries the old search
    page.locator(".year-range input[name=from]").fill("2020")
    page.locator(".year-range button").click()
    expect(page).to_have_url(f"{server}/incidents?from=2020")

    page.goto(f"{server}/incidents?q=etcd&cause=capacity-limit")
    page.locator(".applied .chip-q").click()
    expect(page).to_have_url(f"{server}/incidents?cause=capacity-limit")
    expect(box).to_have_value("")


# -- after a swap: focus, announcement, scroll; the skip link --------------------------------
def test_a_filter_click_focuses_the_results_heading_and_announces_the_count(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/incidents")
    cause = page.locator("#facet-cause ~ .facet-list a.facet-value").first
    expected = int(cause.locator(".count").inner_text())
    cause.click()
    expect(page.locator(".count-h .total")).to_have_text(f"{expected} incidents")
    expect(page.locator("#results-h")).to_be_focused()
    expect(page.locator("#results-status")).to_have_text(re.compile(rf"^{expected} incidents"))


def test_next_page_brings_the_results_into_view(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents")
    page.locator(".pagination a[rel=next]").scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 1000
    page.locator(".pagination a[rel=next]").click()
    expect(page.locator(".range")).to_contain_text("21–40")
    expect(page.locator("#results-h")).to_be_focused()
    expect(page.locator("#results-h")).to_be_in_viewport()
    expect(page.locator(".cards .card").first).to_be_in_viewport()


def test_skip_link_reaches_the_first_result_in_two_tab_presses(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents")
    page.keyboard.press("Tab")
    expect(page.locator(".skip").first).to_be_focused()
    expect(page.locator(".skip").first).to_be_visible()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.closest('.card') !== null")
    assert focused, "the next Tab after the skip link lands in the first incident"


# -- the first screen --------------------------------------------------------------------------
@pytest.mark.parametrize("query", ["", "?cause=capacity-limit&factor=untested-assumption"])
def test_first_result_is_near_the_top_on_desktop(page: Page, server: str, query: str) -> None:
    page.goto(f"{server}/incidents{query}")
    assert first_card_top(page) <= 400


@pytest.mark.parametrize("query", ["", "?q=etcd&cause=capacity-limit&lang=ko"])
def test_first_result_is_on_the_first_phone_screen(phone: Page, server: str, query: str) -> None:
    phone.goto(f"{server}/incidents{query}")
    assert first_card_top(phone) < 844 - 60  # its ID and title show, not just its border
    expect(phone.locator("#filters")).to_be_hidden()


def test_phone_filters_panel_opens_at_the_top_and_stays_open_while_filtering(
    phone: Page, server: str
) -> None:
    phone.goto(f"{server}/incidents")
    toggle = phone.locator(".filters-toggle")
    expect(toggle).to_be_in_viewport()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    panel = phone.locator("#filters")
    expect(panel).to_be_visible()
    expect(phone.locator("#filters-h")).to_be_in_viewport()
    cause = panel.locator("#facet-cause ~ .facet-list a.facet-value").first
    expected = int(cause.locator(".count").inner_text())
    cause.click()
    expect(phone).to_have_url(re.compile(r"/incidents\?cause=[a-z-]+$"))
    expect(panel).to_be_visible()  # still open for the next filter
    done = panel.locator(".filters-done a")
    expect(done).to_have_text(f"Show {expected} incidents")
    done.click()
    expect(panel).to_be_hidden()
    expect(phone.locator("#results-h")).to_be_focused()
    expect(phone.locator(".count-h .total")).to_have_text(f"{expected} incidents")


def test_skip_to_filters_opens_the_phone_panel(phone: Page, server: str) -> None:
    phone.goto(f"{server}/incidents")
    phone.keyboard.press("Tab")
    phone.keyboard.press("Tab")
    expect(phone.locator('a.skip[href="#filters"]')).to_be_focused()
    phone.keyboard.press("Enter")
    expect(phone.locator("#filters")).to_be_visible()
    expect(phone.locator("#filters-h")).to_be_focused()
    expect(phone.locator(".filters-toggle")).to_have_attribute("aria-expanded", "true")


def test_phone_filters_work_without_javascript(new_page: Callable[..., Page], server: str) -> None:
    page = new_page(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page.goto(f"{server}/incidents")
    panel = page.locator("#filters")
    expect(panel).to_be_hidden()
    page.locator(".filters-toggle").click()
    expect(page).to_have_url(f"{server}/incidents#filters")
    expect(panel).to_be_visible()
    expect(page.locator("#filters-h")).to_be_in_viewport()
    panel.locator("#facet-cause ~ .facet-list a.facet-value").first.click()
    expect(page).to_have_url(re.compile(r"/incidents\?cause=[a-z-]+$"))
    expect(panel).to_be_hidden()
    assert first_card_top(page) < 844


# -- facets: what the numbers mean, exclusion, nesting ---------------------------------------
def test_exclude_shrinks_the_list_by_the_promised_count_then_reload_and_back(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/incidents")
    everything = total(page)
    row = page.locator("#facet-cause ~ .facet-list .facet-row", has_text="Configuration change")
    exclude = row.locator("a.facet-exclude")
    tip = exclude.locator(".tip")
    label = tip.inner_text()
    promised = re.fullmatch(r"Exclude Configuration change \((\d+) left\)", label)
    assert promised, label
    left = int(promised.group(1))

    def shown() -> bool:
        box = tip.bounding_box()
        return box is not None and box["width"] > 40

    assert not shown(), "the label shows on hover and focus only"
    exclude.hover()
    expect(tip).to_be_in_viewport()
    assert shown()
    page.mouse.move(0, 0)
    assert not shown()
    exclude.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # reached with the keyboard, it shows its label too
    expect(exclude).to_be_focused()
    assert shown()
    page.keyboard.press("Enter")

    expect(page).to_have_url(f"{server}/incidents?cause=-config-change")
    expect(page.locator(".count-h .total")).to_have_text(f"{left} incidents")
    assert 0 < left < everything
    chip = page.locator(".applied .chip.removable")
    expect(chip).to_contain_text("not Configuration change")
    excluded = page.locator("#facet-cause ~ .facet-list a.facet-value.excluded")
    expect(excluded).to_contain_text("Configuration change")

    page.reload()
    expect(page).to_have_url(f"{server}/incidents?cause=-config-change")
    assert total(page) == left
    expect(chip).to_contain_text("not Configuration change")
    page.go_back()
    expect(page).to_have_url(f"{server}/incidents")
    expect(page.locator(".count-h .total")).to_have_text(f"{everything} incidents")


def test_excluded_value_clicked_again_is_included_again(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?cause=capacity-limit&factor=-untested-assumption")
    page.locator("#facet-factor ~ .facet-list a.facet-value.excluded").first.click()
    expect(page).to_have_url(f"{server}/incidents?cause=capacity-limit")


def test_widening_values_show_plus_n_and_add_exactly_that(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?cause=capacity-limit")
    base = total(page)
    expect(page.locator(".facet-legend")).to_contain_text("+N")
    other = page.locator("#facet-cause ~ .facet-list a.facet-value:not(.selected)").first
    text = other.locator(".count").inner_text()
    assert text.startswith("+"), text
    other.click()
    expect(page.locator(".count-h .total")).to_have_text(f"{base + int(text[1:])} incidents")


def test_child_components_sit_under_their_parent_collapsed(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents")
    facet = page.locator("#facet-component ~ .facet-tree")
    group = facet.locator(":scope > li", has=page.locator("details.members")).filter(
        has_text="Kubernetes"
    )
    kubelet = group.locator("details.members a.facet-value", has_text="Kubelet")
    expect(kubelet).to_be_hidden()
    group.locator("details.members summary").first.click()
    expect(kubelet).to_be_visible()
    kubelet.click()
    expect(page).to_have_url(f"{server}/incidents?component=kubelet")
    open_group = page.locator("#facet-component ~ .facet-tree details.members[open]")
    expect(open_group.locator("a.facet-value.selected")).to_contain_text("Kubelet")


# -- the empty state -----------------------------------------------------------------------------
def test_empty_list_suggests_the_filter_to_drop_with_its_count(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?cause=capacity-limit")
    expected = total(page)
    page.goto(f"{server}/incidents?q=qqzxqv&cause=capacity-limit")
    expect(page.locator(".count-h .total")).to_have_text("0 incidents")
    suggestion = page.locator(".empty-result .suggestions li")
    expect(suggestion).to_have_count(1)  # dropping the cause still finds nothing
    expect(suggestion).to_contain_text(f"qqzxqv → {expected} incidents")
    suggestion.locator("a").click()
    expect(page).to_have_url(f"{server}/incidents?cause=capacity-limit")
    expect(page.locator(".count-h .total")).to_have_text(f"{expected} incidents")
    expect(page.locator("#q")).to_have_value("")
