"""What the inspector's browser tests share: one Chromium per module, a page per test, signing in, screenshots
(to a temporary folder, or TIERMEM_UI_SHOTS), and the checks every page must pass (axe-core, no horizontal
overflow, named controls).

Without a browser the tests skip locally and fail in CI (``CI`` set). conftest offers the fixtures to every
test module: ``browser`` (a Chromium per module), ``served`` (a server per module with the seeded data) and
``page`` (a fresh browser context per test on that server).
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from live_server import LiveServer, live_server
from ui_fixtures import Seeded, chromium_path, launch_args, seed

# A test run never changes the checkout: the screenshots go to a temporary folder unless TIERMEM_UI_SHOTS names
# one (`TIERMEM_UI_SHOTS=docs/ui` refreshes the documentation's).
SHOTS = Path(os.environ.get("TIERMEM_UI_SHOTS") or Path(tempfile.gettempdir()) / "tiermem-ui-shots").resolve()
INSTALL = "no Chromium could be started; install one with `apt-get install chromium` (or set TIERMEM_CHROMIUM)"
CONTROLS = {"button", "link", "textbox", "searchbox", "combobox", "spinbutton", "checkbox", "radio", "listbox"}
WIDE, NARROW = 1280, 390


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if chromium_path() is None:
        if os.environ.get("CI"):
            pytest.fail(INSTALL)
        pytest.skip(INSTALL)
    with sync_api.sync_playwright() as p:
        try:
            launched = p.chromium.launch(**launch_args())
        except sync_api.Error as exc:
            if os.environ.get("CI"):
                pytest.fail(f"{INSTALL}: {exc}")
            pytest.skip(f"{INSTALL}: {exc}")
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Seeded]]:
    with live_server(tmp_path_factory.mktemp("ui") / "ui.db") as server:
        yield server, seed(server)


@pytest.fixture
def page(browser: Any, served: tuple[LiveServer, Seeded]) -> Iterator[Any]:
    opened = new_page(browser, served[0].url)
    yield opened
    opened.context.close()


class Watch:
    """Dialogs, page errors and console errors seen by a page (each is a failure of inertness or of the CSP)."""

    def __init__(self, page: Any) -> None:
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.accept = False  # dialogs are dismissed unless a test says otherwise
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.accept() if self.accept else d.dismiss()))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)


def new_page(browser: Any, url: str, width: int = WIDE) -> Any:
    """A page in a fresh context (its own cookies) of ``width`` pixels, watched."""
    context = browser.new_context(viewport={"width": width, "height": 860}, base_url=url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.watch = Watch(page)
    return page


def sign_in(page: Any, key: str) -> None:
    page.goto("/ui/login")
    page.get_by_label("API key or token").fill(key)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/ui/memories**")


def shot(page: Any, name: str, share: float = 0.005) -> None:
    """Save a screenshot to SHOTS, unless it differs from the one there only in a few pixels (a latency bar)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    png = page.screenshot(full_page=True)
    if not path.exists() or not nearly_same(path.read_bytes(), png, share):
        path.write_bytes(png)


def nearly_same(old: bytes, new: bytes, share: float = 0.005) -> bool:
    """Same size, and under ``share`` of the pixels differ (without Pillow: only identical bytes)."""
    if old == new:
        return True
    try:
        from PIL import Image, ImageChops
    except ImportError:
        return False
    a, b = Image.open(io.BytesIO(old)).convert("RGB"), Image.open(io.BytesIO(new)).convert("RGB")
    if a.size != b.size:
        return False
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0)
    changed = diff.histogram()[255]
    return changed < share * a.size[0] * a.size[1]


def unnamed_controls(page: Any) -> list[str]:
    """Controls in the page's accessibility tree (Chromium's, over CDP) that have no accessible name."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    bad = []
    for node in nodes:
        role = node.get("role", {}).get("value")
        if role in CONTROLS and not node.get("ignored") and not (node.get("name", {}).get("value") or "").strip():
            bad.append(f"{role} {node.get('backendDOMNodeId')}")
    return bad


def axe_violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it is now (every rule axe runs by default), one line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}" for v in found]


def overflows(page: Any) -> bool:
    """Whether the page is wider than the window (a horizontal scroll bar)."""
    return bool(page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth"))
