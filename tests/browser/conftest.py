"""A real server on loopback and Debian's Chromium driven by Playwright."""

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, sync_playwright

CHROMIUM = os.environ.get("IL_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium package")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    yield browser
    browser.close()


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield page
    context.close()
    assert not errors, f"the page reported errors: {errors}"


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture()
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages in contexts of their own (phone, dark, no JavaScript ...); errors fail the test."""
    contexts = []
    errors: list[str] = []

    def make(**options: Any) -> Page:
        context = browser.new_context(**{"locale": "en-US", **options})
        contexts.append(context)
        page = context.new_page()

        def on_console(msg: ConsoleMessage) -> None:
            # An error page the test opened on purpose (404, a rejected form) logs its own
            # status; anything else failing to load is an error.
            own = msg.location.get("url") == page.url and msg.text.startswith("Failed to load")
            if msg.type == "error" and not own:
                errors.append(msg.text)

        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", on_console)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"the page reported errors: {errors}"


@pytest.fixture()
def phone(new_page: Callable[..., Page]) -> Page:
    """Chromium as a 390×844 phone."""
    return new_page(**PHONE)


@pytest.fixture()
def page_without_js(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(java_script_enabled=False, locale="en-US")
    yield context.new_page()
    context.close()
