"""Take the README's screenshot: start the app on a free port, ask 「賓為什麼說旨？」 in headless
Chromium, and save docs/screenshot.png (or the path given).

    python scripts/screenshot.py [OUT.png]

Needs Debian's chromium and fonts-noto-cjk (`apt-get install -y chromium fonts-noto-cjk`);
never `playwright install`. Uses the index of the current settings (QA_INDEX_DIR ...).
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from qa.settings import PROJECT_ROOT, Settings
from qa.webapp import serve

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]


#: scroll only the chat's own scroll box so the question is at its top (the page stays put)
_SCROLL_CHAT_TO = """e => {
  let p = e.parentElement;
  while (p && p.scrollHeight <= p.clientHeight + 1) p = p.parentElement;
  if (p) p.scrollTop += e.getBoundingClientRect().top - p.getBoundingClientRect().top - 48;
  window.scrollTo(0, 0);
}"""


def main(out: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    demo = serve(Settings.from_env(host="127.0.0.1", port=port), block=False)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 1150}, device_scale_factor=1)
            page.goto(f"http://127.0.0.1:{port}/")
            page.locator("#qa-input textarea").fill("賓為什麼說旨？")
            page.click("#qa-send")
            page.locator("#qa-chat .qa-answer").first.wait_for(timeout=60_000)
            page.wait_for_timeout(800)
            # show the question, the cited answer and the first cards
            page.locator("#qa-chat .qa-user").first.evaluate(_SCROLL_CHAT_TO)
            page.wait_for_timeout(300)
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
            browser.close()
    finally:
        demo.close()
    print(out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT_ROOT / "docs" / "screenshot.png")
