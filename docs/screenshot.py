"""Re-make ``docs/demo.png``: the demo on the default model with an example processed.

    python docs/screenshot.py                      # bundled model, docs/demo.png
    python docs/screenshot.py --model PATH --out /tmp/demo.png

Starts the demo of ``app.py`` on a free localhost port, opens it in headless Chromium
(Playwright with Debian's ``/usr/bin/chromium``), processes one of the demo's fictional
examples and saves a screenshot of the whole page.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import app  # noqa: E402
from hf_anon.apply.anonymize import Anonymizer  # noqa: E402
from hf_anon.model.model_folder import default_model  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="screenshot of the demo")
    parser.add_argument("--model", default=None, help="model folder or hub id")
    parser.add_argument("--out", default=str(ROOT / "docs" / "demo.png"))
    parser.add_argument("--example", default="Verkehrsunfall", choices=list(app.EXAMPLES))
    parser.add_argument("--mode", default="label", choices=[v for _, v in app.MODES])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)

    from playwright.sync_api import expect, sync_playwright

    anonymizer = Anonymizer.from_pretrained(args.model or default_model())
    demo = app.build_demo(anonymizer)
    _, url, _ = app.launch(demo, "127.0.0.1", free_port(), prevent_thread_lock=True, quiet=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=args.chromium,
                headless=True,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.get_by_role("button", name=args.example).click()  # the example's button
            expect(page.locator("#input-text textarea")).not_to_have_value("")
            mode_label = dict((v, k) for k, v in app.MODES)[args.mode]
            page.locator("#mode").get_by_text(mode_label).click()
            page.locator("#anonymize").click()
            expect(page.locator("#output-text textarea")).not_to_have_value("", timeout=120_000)
            expect(page.locator("#summary")).to_contain_text("Stellen erkannt")
            page.wait_for_timeout(500)  # let the highlights settle
            page.screenshot(path=args.out, full_page=True)
            browser.close()
    finally:
        demo.close()
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
