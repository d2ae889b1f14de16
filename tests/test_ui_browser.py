"""The inspector in a real Chromium (Playwright, sync API) against a real server on a loopback port.

One browser for the module; each test gets a fresh context (its own cookies). Screenshots of every page go to
docs/ui/, so docs/ui.md shows the UI as it is. Without a browser the tests skip locally and fail in CI.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from live_server import LiveServer
from tiermem.types import Scope
from ui_browser import Watch, shot, sign_in, unnamed_controls
from ui_fixtures import TENANT, Seeded


def test_sign_in_search_and_read_score_parts(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    _server, data = served
    shot_login = page.goto("/ui/login")
    assert shot_login is not None
    shot(page, "login")
    sign_in(page, data.ann)
    assert page.get_by_role("link", name="Ann takes her tea with honey now").is_visible()
    shot(page, "memories")
    page.get_by_role("searchbox", name="Search").fill("tea with honey")
    page.get_by_role("button", name="Apply").click()
    first = page.locator("li.hit").first
    assert "honey" in first.locator("a").inner_text()
    parts = first.locator("tr.part")
    names = [parts.nth(i).get_attribute("data-part") for i in range(parts.count())]
    assert "keyword" in names and "vector" in names
    bar = first.locator("tr.part[data-part=keyword] rect.bar-fill")
    assert 0 < float(bar.get_attribute("width")) <= 100
    assert first.locator("tr.part[data-part=keyword] td.contribution").inner_text().startswith("+ ")
    assert float(first.locator("tr.part[data-part=keyword] td.after").inner_text()) > 0
    shot(page, "search")
    assert page.watch.dialogs == [] and page.watch.errors == []


def test_as_of_moves_across_a_supersession_then_edit_and_roll_back(
    page: Any, served: tuple[LiveServer, Seeded]
) -> None:
    _server, data = served
    sign_in(page, data.ann)
    page.goto(f"/ui/records/{data.new_tea}")
    assert page.locator("ol.chain li").count() == 2
    page.get_by_label("What was believed on").fill("2026-02-01")
    page.get_by_role("button", name="Show").click()
    assert "lemon" in page.locator("#believed").inner_text()
    page.get_by_label("What was believed on").fill("2026-04-01")
    page.get_by_role("button", name="Show").click()
    assert "honey" in page.locator("#believed").inner_text()
    page.get_by_label("What was believed on").fill("2025-12-01")
    page.get_by_role("button", name="Show").click()
    assert "nothing" in page.locator("#believed").inner_text()
    page.get_by_label("What was believed on").fill("2026-02-01")
    page.get_by_role("button", name="Show").click()
    shot(page, "record")
    page.get_by_text("Edit the text").click()
    page.get_by_label("New text").fill("Ann takes her tea with honey and mint")
    page.get_by_role("button", name="Save new version").click()
    assert page.get_by_role("status").first.inner_text() == "Saved as a new version."
    assert "version 2" in page.locator("#h-content").inner_text()
    assert "mint" in page.locator("blockquote.content").inner_text()
    page.get_by_label("Roll back to version").select_option("1")
    page.get_by_role("button", name="Roll back").click()
    assert page.locator("blockquote.content").inner_text() == "Ann takes her tea with honey now"
    ops = page.locator("table.audit tbody tr td:nth-child(2)").all_inner_texts()
    assert "edit" in ops and "rollback" in ops
    assert page.watch.dialogs == [] and page.watch.errors == []


def test_forget_asks_first_and_then_deletes(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    ann = Scope(TENANT, "ann")
    rid = server.runtime.memory.remember(ann, "The spare key is under the blue flowerpot").record.id
    sign_in(page, data.ann)
    page.goto(f"/ui/records/{rid}")
    page.get_by_role("button", name="Forget").click()
    assert page.watch.dialogs == ["Forget this memory for good?"]
    assert server.runtime.memory.store.get(ann, rid) is not None  # dismissed: nothing was sent
    page.watch.accept = True
    page.get_by_role("button", name="Forget").click()
    page.wait_for_url("**/ui/memories")
    assert server.runtime.memory.store.get(ann, rid) is None


def test_release_a_quarantined_note_and_approve_a_held_write(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    sign_in(page, data.ann)
    page.get_by_role("link", name="Review").click()
    assert "light rain" in page.locator("li.note").first.inner_text()
    assert "override of earlier instructions" in page.locator("li.note ul.reasons").first.inner_text()
    assert "slogan" in page.locator("li.pending").first.inner_text()
    shot(page, "review")
    page.get_by_role("button", name="Release note 1").click()
    page.get_by_role("button", name="Yes, release 1").click()
    assert page.get_by_role("status").inner_text() == "Released."
    assert "light rain" not in page.locator("#main").inner_text()
    page.get_by_role("button", name="Approve held write 1").click()
    page.get_by_role("button", name="Yes, approve 1").click()
    assert page.get_by_role("status").inner_text() == "Approved and stored."
    scope = Scope(TENANT, "ann")
    mem = server.runtime.memory
    assert mem.pending(scope) == []
    assert "quarantined" not in mem.get(scope, data.quarantined).tags
    assert any("slogan" in r.content for r in mem.list(scope, limit=100).records)


def test_context_bar_shows_the_window_composition(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    _server, data = served
    sign_in(page, data.ann)
    page.goto("/ui/context?session=s1&window=1200&system=100&retrieval=200&output=200")
    segments = page.locator("svg.stack rect")
    names = [segments.nth(i).get_attribute("class").split()[1] for i in range(segments.count())]
    assert names == [f"seg-{n}" for n in ("system", "core", "summary", "messages", "retrieved", "output", "free")]
    widths = sum(float(segments.nth(i).get_attribute("width")) for i in range(segments.count()))
    assert widths == pytest.approx(100, abs=0.05)
    messages = int(page.locator("li[data-segment=messages] .tokens").inner_text())
    assert 0 < messages <= 1200 - 100 - 300 - 200 - 200  # the window the seed's agent kept is within M
    assert page.locator("ol.paged li").count() > 1  # older turns were paged out to recall
    assert "turn 0" in page.locator("ol.paged").inner_text()
    shot(page, "context")
    page.get_by_label("persona").fill("A patient, brief assistant for Ann.")
    page.get_by_role("button", name="Save persona").click()
    assert page.get_by_role("status").inner_text() == "Core block saved as a new version."
    assert "version 2" in page.get_by_label("persona").evaluate("e => e.labels[0].innerText")


def test_admin_erases_a_user_with_typed_confirmation(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    cy = Scope(TENANT, "cy")
    server.runtime.memory.remember(cy, "Cy keeps bees on the allotment")
    cy_key = server.key(TENANT, "cy")
    sign_in(page, data.admin)
    page.get_by_role("link", name="Erase").click()
    page.get_by_label("User to erase").select_option("cy")
    page.get_by_label("Type the user's name to confirm").fill("c")
    page.get_by_role("button", name="Erase user").click()
    assert "Type the user's name exactly" in page.get_by_role("alert").inner_text()
    assert server.runtime.memory.store.count(cy) == 1
    page.get_by_label("User to erase").select_option("cy")
    page.get_by_label("Type the user's name to confirm").fill("cy")
    page.get_by_role("button", name="Erase user").click()
    verify = page.locator("#verify").inner_text()
    assert "records left\t0" in verify
    assert "of 1 texts of the user, found in the database file\t0" in verify
    assert server.runtime.memory.store.count(cy) == 0
    assert server.client(cy_key).get("/v1/whoami").status_code == 401
    shot(page, "erase")


def test_charts_draw_records_per_day_and_recall_latency(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    _server, data = served
    sign_in(page, data.admin)
    page.get_by_role("link", name="Charts").click()
    page.get_by_label("Viewing user").select_option("bob")  # bob's records are all seeded: a stable picture
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**/ui/charts?user=bob")
    assert page.locator("svg#per-day rect").count() >= 2
    ticks = page.locator("section[aria-labelledby=h-per-day] .y-axis li").all_inner_texts()
    assert ticks[-1] == "0" and int(ticks[0]) >= 2  # counts up the side, from 0
    assert page.locator("section[aria-labelledby=h-per-day] .x-axis span").count() == 3  # days along the bottom
    assert "of this credential" in page.locator("#h-latency").inner_text()  # the caller's own requests only
    shot(page, "charts", share=0.03)  # the latency histograms move with the machine's load
    assert page.watch.errors == []


def test_hostile_memory_text_renders_inert(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    _server, data = served
    sign_in(page, data.ann)
    for path in ["/ui/memories", "/ui/memories?q=alert", *(f"/ui/records/{rid}" for rid in data.hostile)]:
        page.goto(path)
        page.wait_for_load_state("load")
    assert page.watch.dialogs == [] and page.watch.errors == []
    page.goto("/ui/memories")
    assert page.locator("main script, main img").count() == 0
    assert page.locator("main a[href^='javascript:']").count() == 0
    assert page.get_by_text("<script>alert('script')</script>").count() == 1
    assert page.evaluate("document.cookie") == ""  # HttpOnly: script cannot read the session


def test_a_form_without_its_csrf_token_is_refused_in_the_browser(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    sign_in(page, data.ann)
    page.goto(f"/ui/records/{data.new_tea}")
    page.locator("form[action$='/edit'] input[name=csrf]").evaluate("e => e.remove()")
    page.get_by_text("Edit the text").click()
    page.get_by_label("New text").fill("posted without a token")
    with page.expect_response(lambda r: r.url.endswith("/edit")) as posted:
        page.get_by_role("button", name="Save new version").click()
    assert posted.value.status == 403
    assert "posted without" not in server.runtime.memory.get(Scope(TENANT, "ann"), data.new_tea).content


def test_user_a_gets_404_for_user_bs_record(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    _server, data = served
    sign_in(page, data.ann)
    response = page.goto(f"/ui/records/{data.bob_note}")
    assert response is not None and response.status == 404
    assert "postcards" not in page.content()


def test_every_control_has_an_accessible_name(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    _server, data = served
    page.goto("/ui/login")
    assert unnamed_controls(page) == []
    sign_in(page, data.admin)
    for path in (
        "/ui/memories?user=ann",
        "/ui/memories?user=ann&q=tea",
        f"/ui/records/{data.old_tea}?user=ann",
        "/ui/review?user=ann",
        "/ui/context?user=ann&session=s1",
        "/ui/sessions?user=ann",
        "/ui/sessions/s1?user=ann",
        "/ui/overview?user=ann",
        "/ui/erase?user=ann",
        "/ui/charts?user=ann",
    ):
        page.goto(path)
        assert unnamed_controls(page) == [], path


def test_pages_work_by_keyboard_alone(page: Any, served: tuple[LiveServer, Seeded]) -> None:
    _server, data = served
    page.goto("/ui/login")
    # The key field has focus on arrival: autofocus may land just after the load event, so wait for it rather
    # than type into nothing (on a busy machine the keys were lost and the test sat on the login page).
    # Playwright's own focus check: a string predicate would be compiled in the page, which its CSP refuses.
    expect = pytest.importorskip("playwright.sync_api").expect
    expect(page.locator("#credential")).to_be_focused(timeout=5000)
    page.keyboard.type(data.ann)
    page.keyboard.press("Enter")
    page.wait_for_url("**/ui/memories**")

    def tab_to(name: str, limit: int = 80) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            focused = page.evaluate("document.activeElement.innerText || document.activeElement.value || ''")
            if re.fullmatch(rf"{name}(\s+\d+)?", focused.strip()):  # a link may carry its count ("Review 2")
                return
        raise AssertionError(f"{name!r} cannot be reached with Tab")

    tab_to("Review")
    page.keyboard.press("Enter")
    page.wait_for_url("**/ui/review**")
    tab_to("Context")
    page.keyboard.press("Enter")
    page.wait_for_url("**/ui/context**")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"  # the first stop skips the navigation
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    tab_to("Sign out")
    page.keyboard.press("Enter")
    page.wait_for_url("**/ui/login")


def test_the_api_docs_render_in_chromium_with_no_network(browser: Any, served: tuple[LiveServer, Seeded]) -> None:
    server = served[0]
    context = browser.new_context(base_url=server.url)
    context.set_default_timeout(15_000)
    elsewhere: list[str] = []

    def only_the_server(route: Any) -> None:
        if route.request.url.startswith(server.url):
            route.continue_()
        else:  # no network: anything but the server itself fails, as it would offline
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_server)
    page = context.new_page()
    watch = Watch(page)
    try:
        page.goto("/docs")
        title = page.locator(".swagger-ui .info .title")
        title.wait_for()
        assert "tiermem" in title.inner_text()
        page.get_by_text("/v1/memories/search").first.wait_for()  # the operations are listed from /openapi.json
    finally:
        context.close()
    assert elsewhere == [] and watch.errors == []
