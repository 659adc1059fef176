"""qa.webapp: the chat service on the real corpus, the `ask` API endpoint, and the page in a real browser."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from qa.answering.compose import error_row
from qa.webapp import ChatService

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def service(real_retriever) -> ChatService:
    return ChatService(real_retriever)


def test_the_gaozhi_question_is_answered_with_the_gloss(service):
    t = service.turn("賓為什麼說旨？", [])
    assert t.error is None and t.answer.found
    assert "旨，美也。" in t.answer.text
    assert t.answer.evidence[0].lines[0] == t.answer.evidence[0].lines[1]  # the sentence's own line
    html = service.render([t], "original")[1]["content"]
    assert "旨，美也" in html.replace("<mark>", "").replace("</mark>", "")
    assert "告旨" in html.replace("<mark>", "").replace("</mark>", "")


def test_user_text_is_escaped_in_the_chat(service):
    t = service.turn(XSS, [])
    messages = service.render([t], "original")
    assert messages[0]["content"] == '<div class="qa-user">&lt;img src=x onerror=alert(1)&gt;</div>'
    assert all("<img" not in m["content"] for m in messages)


def test_errors_become_a_message_not_a_traceback(service):
    t = service.turn("   ", [])
    assert t.answer is None and "empty question" in t.error
    body = service.render([t], "original")[1]["content"]
    assert "empty question" in body and "Traceback" not in body


def test_follow_up_carries_the_grounded_term(service):
    first = service.turn("賓為什麼說旨？", [])
    assert "告旨" in first.answer.grounded  # the 經's word for what the user called 說旨
    second = service.turn("那介呢？", [first])
    assert second.answer is not None and "介" in second.answer.terms.chars
    assert {"告", "旨"} <= second.answer.terms.context
    # the unit where the 介 does not 告旨 is reached
    assert any("介" in h.unit.jing and "不告旨" in h.unit.jing for h in second.answer.hits)


def test_grounding_needs_an_answer(service):
    t = service.turn("asdf", [])
    assert t.answer is not None and not t.answer.found  # noise: "no passage answers"
    assert t.answer.grounded == ()  # so nothing is carried into a follow-up


def test_ask_row_matches_batch_rows(service):
    row = service.ask_row("賓為什麼說旨？", 3)
    assert set(row) == set(error_row(None, "", ""))
    assert len(row["hits"]) == 3 and row["error"] is None
    bad = service.ask_row("")
    assert bad["error"] and bad["hits"] == []


def test_script_toggle_rerenders(service):
    t = service.turn("賓為什麼說旨？", [])
    original = service.render([t], "original")[1]["content"]
    hans = service.render([t], "hans")[1]["content"]
    assert "執爵" in original and "执爵" not in original
    assert "执爵" in hans and "執爵" not in hans
    assert "zhushu.xiangyin." in hans  # ids and citations are not converted


# ---------------------------------------------------------------- the running app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def app_url(real_retriever):
    from qa.webapp import serve

    settings = real_retriever.settings.replace(host="127.0.0.1", port=_free_port())
    demo = serve(settings, retriever=real_retriever, block=False)
    try:
        yield f"http://127.0.0.1:{settings.port}/"
    finally:
        demo.close()


@pytest.mark.slow
def test_ask_endpoint_returns_a_batch_row(app_url):
    from gradio_client import Client

    client = Client(app_url, verbose=False)
    row = client.predict("賓為什麼說旨？", 5, api_name="/ask")
    assert set(row) == set(error_row(None, "", ""))
    assert "旨，美也" in row["answer"] and row["hits"][0]["id"].startswith("zhushu.")


@pytest.mark.slow
@pytest.mark.browser
def test_browser_chat(app_url, tmp_path):
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():  # CI installs it (scripts/setup.sh test): there, missing is a failure
        message = "needs Debian's chromium: apt-get install -y chromium fonts-noto-cjk"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1300})
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(app_url)
            box = page.locator("#qa-input textarea")
            box.wait_for(timeout=30_000)

            box.fill("賓為什麼說旨？")
            page.click("#qa-send")
            page.locator("#qa-chat .qa-answer").first.wait_for(timeout=60_000)
            chat = page.inner_text("#qa-chat")
            assert "旨，美也" in chat
            assert page.locator("#qa-chat .qa-jing", has_text="告旨").count() >= 1
            assert page.locator("#qa-chat details.qa-shu").count() >= 1
            page.screenshot(path=str(tmp_path / "answer.png"))

            box.fill(XSS)
            page.click("#qa-send")
            page.locator("#qa-chat .qa-user", has_text=XSS).wait_for(timeout=60_000)
            page.wait_for_timeout(500)
            assert page.locator("#qa-chat img[src='x']").count() == 0
            assert page.locator("img[onerror]").count() == 0
            assert dialogs == []
            page.screenshot(path=str(tmp_path / "xss.png"))
        finally:
            browser.close()
    assert (tmp_path / "answer.png").stat().st_size > 10_000
