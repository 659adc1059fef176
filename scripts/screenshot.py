"""Take the README's screenshots: start the app on a free port, ask 「賓為什麼說旨？」 in headless
Chromium at 1366×768 and 390×844, and open the reading view of the answering unit.

    python scripts/screenshot.py [OUT_DIR]      # default docs/

Writes answer-, answer-en- (an English question: the plain-English reading aid under the answer),
reading- and outline-1366.png and -390.png. Needs Debian's
chromium and fonts-noto-cjk (`apt-get install -y chromium fonts-noto-cjk`); never
`playwright install`. Uses the index of the current settings (QA_INDEX_DIR ...).
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from qa.settings import PROJECT_ROOT, Settings
from qa.webapp import serve

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = {"1366": {"width": 1366, "height": 768}, "390": {"width": 390, "height": 844}}
QUESTION = "賓為什麼說旨？"
#: An English question, for the plain-English reading aid and the English glosses under its answer.
QUESTION_EN = "Why do they take their shoes off before sitting?"
UNIT = "zhushu.xiangyin.038"
#: A stage of 賈疏's outline, opened in the outline picture.
STAGE = "主人盥洗獻賓"


def ask(page, url: str, question: str) -> None:
    page.goto(url, wait_until="load")
    box = page.locator("#qa-input textarea")
    box.wait_for(timeout=30_000)
    box.fill(question)
    page.click("#qa-send")
    page.locator("#qa-chat .qa-reply.qa-turn-1 .qa-ev").first.wait_for(timeout=60_000)
    page.wait_for_timeout(600)


def shoot(browser, url: str, out: Path, name: str, size: dict) -> None:
    mobile = size["width"] < 600
    page = browser.new_page(viewport=size, device_scale_factor=1, is_mobile=mobile, has_touch=mobile)
    ask(page, url, QUESTION)
    page.screenshot(path=str(out / f"answer-{name}.png"))
    ask(page, url, QUESTION_EN)
    page.locator("#qa-chat .qa-reply.qa-turn-1 .qa-aid").wait_for(timeout=30_000)
    page.screenshot(path=str(out / f"answer-en-{name}.png"))
    page.goto(f"{url}?unit={UNIT}", wait_until="load")
    page.locator("#qa-reading .qa-read summary.qa-head", has_text=UNIT).wait_for(timeout=30_000)
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / f"reading-{name}.png"))
    page.goto(url, wait_until="load")
    page.get_by_role("tab", name="閱讀 Read").click()
    outline = page.locator("#qa-outline-panel")
    stage = outline.locator("summary", has_text=STAGE).first
    stage.wait_for(timeout=30_000)
    stage.click()
    stage.evaluate("e => e.scrollIntoView({block: 'start'})")  # the opened stage at the top
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / f"outline-{name}.png"))
    page.close()


def main(out: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    demo = serve(Settings.from_env(host="127.0.0.1", port=port), block=False)
    out.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
            try:
                for name, size in SIZES.items():
                    shoot(browser, f"http://127.0.0.1:{port}/", out, name, size)
            finally:
                browser.close()
    finally:
        demo.close()
    for name in SIZES:
        print(out / f"answer-{name}.png", out / f"answer-en-{name}.png", out / f"reading-{name}.png", out / f"outline-{name}.png")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / "docs")
