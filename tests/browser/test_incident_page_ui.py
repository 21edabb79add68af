"""One incident as a reader uses it: back to the filtered list, copy link, section anchors,
printing; and the pattern cards that lead there."""

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_back_to_the_list_keeps_the_filters(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?cause=capacity-limit")
    page.locator(
        "#facet-factor ~ .facet-list a.facet-value", has_text="Untested assumption"
    ).click()
    filtered = f"{server}/incidents?cause=capacity-limit&factor=untested-assumption"
    expect(page).to_have_url(filtered)
    page.locator(".cards .card-title a").first.click()
    expect(page).to_have_url(re.compile(r"/incidents/IL-\d+$"))
    # a related incident first: the way back still leads to the same list
    page.locator(".related a").first.click()
    expect(page).to_have_url(re.compile(r"/incidents/IL-\d+$"))
    page.locator("[data-back-to-list]").click()
    expect(page).to_have_url(filtered)
    expect(page.locator(".applied")).to_contain_text("Untested assumption")


def test_back_to_the_list_without_javascript_is_the_plain_list(
    page_without_js: Page, server: str
) -> None:
    page_without_js.goto(f"{server}/incidents/IL-0129")
    page_without_js.locator("[data-back-to-list]").click()
    expect(page_without_js).to_have_url(f"{server}/incidents")


def test_copy_link_puts_the_page_address_on_the_clipboard(
    new_page: Callable[..., Page], server: str
) -> None:
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{server}/incidents/IL-0129")
    button = page.locator("[data-copy-link]")
    expect(button).to_have_text("Copy link")
    button.click()
    expect(button).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == f"{server}/incidents/IL-0129"
    expect(page.locator("[data-copy-status]")).to_have_text("Link copied")
    # the list's button copies the filtered view, also after a swap
    page.goto(f"{server}/incidents")
    page.locator("#facet-cause ~ .facet-list a.facet-value").first.click()
    expect(page).to_have_url(re.compile(r"\?cause="))
    page.locator("[data-copy-link]").click()
    assert page.evaluate("navigator.clipboard.readText()") == page.url


def test_copy_link_is_not_offered_without_javascript(page_without_js: Page, server: str) -> None:
    page_without_js.goto(f"{server}/incidents/IL-0129")
    expect(page_without_js.locator("[data-copy-link]")).to_be_hidden()


def test_every_section_has_an_anchor_to_link_to(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents/IL-0129")
    page.locator('a.anchor[href="#lessons"]').click()
    expect(page).to_have_url(f"{server}/incidents/IL-0129#lessons")
    page.goto(f"{server}/incidents/IL-0129?lang=ko#sources")
    expect(page.locator("#sources")).to_be_in_viewport()
    expect(page.locator("#sources")).to_contain_text("출처")
    ids = page.locator("dl.sections dt").evaluate_all("dts => dts.map(d => d.id)")
    assert {"symptom", "trigger", "cause", "detection", "actions", "lessons"} <= set(ids)


def test_printing_an_incident_leaves_out_the_controls(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents/IL-0129")
    source = page.locator(".sources li").first
    url = source.locator("a").get_attribute("href") or ""
    expect(source.locator(".print-url")).to_be_hidden()
    page.emulate_media(media="print")
    for control in (".site-header nav", ".lang-switch", ".back", ".site-footer"):
        expect(page.locator(control)).to_be_hidden()
    expect(page.locator("h1")).to_be_visible()
    expect(source.locator(".print-url")).to_be_visible()
    expect(source.locator(".print-url")).to_have_text(url)
    assert len(page.pdf()) > 10_000  # Chromium prints it


def test_pattern_cards_stand_apart_and_their_titles_look_like_links(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/patterns")
    cards = page.locator(".pattern-list > li.card")
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert first and second and second["y"] - (first["y"] + first["height"]) >= 8
    title = cards.first.locator(".card-title a")
    assert "underline" in title.evaluate("a => getComputedStyle(a).textDecorationLine")
    body = cards.first.locator("p").first.evaluate("p => getComputedStyle(p).color")
    assert title.evaluate("a => getComputedStyle(a).color") != body
