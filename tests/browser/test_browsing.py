"""What a person does in a real browser: click facets, reload, go Back, search, switch language."""

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def total(page: Page) -> int:
    text = page.locator(".count-h .total").inner_text()
    return int(re.sub(r"\D", "", text))


def test_click_a_cause_then_reload_then_back(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents")
    everything = total(page)
    cause = page.locator("#facet-cause ~ .facet-list a.facet-value").first
    label = cause.locator(".facet-label").inner_text()
    expected = int(cause.locator(".count").inner_text())
    cause.click()
    expect(page).to_have_url(re.compile(r"/incidents\?cause=[a-z-]+$"))
    expect(page.locator(".count-h .total")).to_contain_text(str(expected))
    assert expected < everything
    expect(page.locator(".applied .chip.removable")).to_contain_text(label)
    filtered_url = page.url

    page.reload()
    expect(page).to_have_url(filtered_url)
    assert total(page) == expected
    expect(page.locator(".applied .chip.removable")).to_contain_text(label)

    page.go_back()
    expect(page).to_have_url(f"{server}/incidents")
    expect(page.locator(".count-h .total")).to_contain_text(str(everything))
    page.go_forward()
    expect(page).to_have_url(filtered_url)
    expect(page.locator(".count-h .total")).to_contain_text(str(expected))


def test_two_dimensions_then_remove_a_chip_then_clear_all(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?cause=capacity-limit")
    page.locator(
        "#facet-factor ~ .facet-list a.facet-value", has_text="Untested assumption"
    ).click()
    expect(page).to_have_url(f"{server}/incidents?cause=capacity-limit&factor=untested-assumption")
    for seed in ("IL-0129", "IL-0006", "IL-0094", "IL-0064", "IL-0075", "IL-0036"):
        assert seed in page.content() or total(page) > 20
    page.locator(".applied .chip.removable", has_text="Capacity limit").click()
    expect(page).to_have_url(f"{server}/incidents?factor=untested-assumption")
    page.locator(".applied .clear-all").click()
    expect(page).to_have_url(f"{server}/incidents")


def test_typing_a_search_updates_the_url_and_results(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents")
    everything = total(page)
    page.locator("#q").press_sequentially("etcd", delay=40)
    expect(page).to_have_url(f"{server}/incidents?q=etcd", timeout=5000)
    expect(page.locator(".recommended .chip").first).to_contain_text("etcd")
    assert 0 < total(page) < everything
    expect(page.locator(".snippet mark").first).to_be_visible()
    page.reload()
    expect(page.locator("#q")).to_have_value("etcd")


def test_korean_search_of_a_two_syllable_word(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?lang=ko")
    page.locator("#q").fill("전력")
    page.locator("#q").press("Enter")
    expect(page).to_have_url(re.compile(r"q=%EC%A0%84%EB%A0%A5"))
    expect(page.locator("#card-IL-0134")).to_be_visible()


def test_language_switch_keeps_the_filters(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?cause=capacity-limit&factor=untested-assumption")
    page.locator(".lang-switch").click()
    expect(page).to_have_url(
        f"{server}/incidents?cause=capacity-limit&factor=untested-assumption&lang=ko"
    )
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.locator(".applied")).to_contain_text("용량 한계")
    expect(page.locator(".applied")).to_contain_text("미검증 가정")
    expect(page.locator(".list-notice")).to_contain_text("검색어 없이 필터만 적용한 목록입니다")
    # the cookie remembers Korean on the next visit without ?lang
    page.goto(f"{server}/incidents")
    expect(page.locator("html")).to_have_attribute("lang", "ko")


def test_paging_swaps_results_and_back_returns(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents")
    first_card = page.locator(".cards .card-id").first.inner_text()
    page.locator(".pagination a[rel=next]").click()
    expect(page).to_have_url(f"{server}/incidents?page=2")
    expect(page.locator(".range")).to_contain_text("21–40")
    page.go_back()
    expect(page.locator(".cards .card-id").first).to_have_text(first_card)


def test_everything_works_without_javascript(page_without_js: Page, server: str) -> None:
    page = page_without_js
    page.goto(f"{server}/incidents")
    page.locator("#facet-cause ~ .facet-list a.facet-value").first.click()
    expect(page).to_have_url(re.compile(r"/incidents\?cause="))
    page.locator("#q").fill("DNS")
    page.locator("#search-form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/incidents\?q=DNS&cause="))
    page.locator(".cards .card-title a").first.click()
    expect(page.locator("h1")).to_be_visible()


def test_api_docs_are_inside_the_site_frame(page: Page, server: str) -> None:
    page.goto(f"{server}/docs")
    expect(page.locator("h1")).to_contain_text("API")
    expect(page.locator(".api-toc")).to_contain_text("/api/incidents")
    expect(page.locator(".api-toc")).to_contain_text("/api/graph")
    expect(page.locator('.site-header a[aria-current="page"]')).to_have_text("API")
    page.locator(".lang-switch").click()
    expect(page).to_have_url(f"{server}/docs?lang=ko")
    expect(page.locator("#endpoints-h")).to_have_text("엔드포인트")
    page.locator(".api-toc a", has_text="/incidents.csv").click()
    expect(page.locator("#op-export-csv-incidents-csv-get")).to_be_in_viewport()
    expect(page.locator("#op-export-csv-incidents-csv-get ~ div table").first).to_contain_text(
        "bom"
    )
    page.locator(".back a").click()
    expect(page).to_have_url(re.compile(r"/incidents"))
