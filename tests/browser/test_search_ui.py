"""Search syntax as a person uses it in Chromium: tips, -word, OR, quotes, a typo, Korean."""

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def search(page: Page, text: str) -> None:
    page.locator("#q").fill(text)
    page.locator("#q").press("Enter")


def total(page: Page) -> int:
    return int(re.sub(r"\D", "", page.locator(".count-h .total").inner_text()))


def test_search_tips_open_and_the_syntax_works(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents")
    tips = page.locator(".search-tips")
    expect(tips.locator("li").first).to_be_hidden()
    tips.locator("summary").click()
    expect(tips.locator("li").first).to_contain_text("-etcd")

    search(page, "dns")
    expect(page).to_have_url(f"{server}/incidents?q=dns")
    dns = total(page)
    search(page, "dns -bgp")
    expect(page.locator(".search-explained")).to_contain_text(
        "Leaving out incidents that mention bgp"
    )
    fewer = total(page)
    search(page, "dns OR bgp")
    expect(page).to_have_url(f"{server}/incidents?q=dns%20OR%20bgp")
    more = total(page)
    assert fewer < dns < more
    search(page, '"kernel panic"')
    expect(page.locator("#card-IL-0064")).to_be_visible()


def test_a_typo_is_corrected_and_the_original_spelling_is_one_click_away(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/incidents")
    search(page, "kubrnetes")
    note = page.locator(".search-explained")
    expect(note).to_contain_text("Showing results for kubernetes")
    assert total(page) > 0
    note.get_by_role("link", name="kubrnetes").click()
    expect(page).to_have_url(f"{server}/incidents?q=%22kubrnetes%22")
    expect(page.locator(".empty-result")).to_be_visible()


def test_korean_search_with_particles_and_a_word_nobody_uses(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents?lang=ko")
    search(page, "노드가 먹통된 뒤 커널 패닉 때문에 장애")
    expect(page.locator(".cards > li").first.locator(".card-id")).to_have_text("IL-0064")
    expect(page.locator(".search-explained")).to_contain_text("뒤")


def test_why_matched_names_the_tag_alias(page: Page, server: str) -> None:
    page.goto(f"{server}/incidents")
    search(page, "weka")
    why = page.locator("#card-IL-0137 .why")
    expect(why).to_contain_text("matched the tag Shared network filesystem (alias weka)")
    expect(page.locator("#card-IL-0129 .snippet mark").first).to_have_text("Weka")
