"""The inspector over plain HTTP: security headers, sign-in, CSRF, another user's record, escaping."""

from __future__ import annotations

from pathlib import Path

from live_server import LiveServer, live_server
from tiermem.types import Scope
from ui_fixtures import HOSTILE, Seeded, csrf_of, signed_in


def test_every_ui_page_has_a_strict_csp_and_refuses_framing(served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    client = signed_in(server, data.ann)
    assert server.client().get("/ui/login").headers["x-frame-options"] == "DENY"  # signed out: the form
    for path in (
        "/ui/memories",
        f"/ui/records/{data.new_tea}",
        "/ui/review",
        "/ui/context?session=s1",
        "/ui/sessions",
        "/ui/sessions/s1",
        "/ui/overview",
        "/ui/charts",
        "/ui/static/ui.css",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert "object-src 'none'" in csp and "base-uri 'none'" in csp
        assert response.headers["x-frame-options"] == "DENY"


def test_session_cookie_is_httponly_and_samesite_strict(served: tuple[LiveServer, Seeded]) -> None:
    server, _ = served
    cookie = server.client().get("/ui/login").headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" not in cookie  # plain http here


def test_a_page_without_a_session_redirects_to_sign_in(served: tuple[LiveServer, Seeded]) -> None:
    server, _ = served
    response = server.client().get("/ui/memories", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/ui/login"


def test_a_wrong_key_does_not_sign_in(served: tuple[LiveServer, Seeded]) -> None:
    server, _ = served
    client = server.client(follow_redirects=False)
    token = csrf_of(client.get("/ui/login").text)
    response = client.post("/ui/login", data={"csrf": token, "credential": "tm_notakey"})
    assert response.status_code == 401 and "not valid" in response.text
    assert client.get("/ui/memories").status_code == 303


def test_a_form_posted_without_its_csrf_token_is_refused(served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    client = signed_in(server, data.ann)
    before = client.get(f"/ui/records/{data.new_tea}").text
    response = client.post(f"/ui/records/{data.new_tea}/edit", data={"content": "changed by a forged form"})
    assert response.status_code == 403
    forged = client.post(f"/ui/records/{data.new_tea}/edit", data={"content": "forged", "csrf": "guess"})
    assert forged.status_code == 403
    assert client.get(f"/ui/records/{data.new_tea}").text == before
    anonymous = server.client().post("/ui/login", data={"credential": data.ann})
    assert anonymous.status_code == 403


def test_user_a_cannot_open_user_bs_record_by_url(served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    ann = signed_in(server, data.ann)
    assert ann.get(f"/ui/records/{data.bob_note}").status_code == 404
    assert ann.get(f"/ui/records/{data.bob_note}?user=bob").status_code == 404
    assert ann.get("/ui/memories?user=bob").status_code == 404
    assert "postcards" not in ann.get("/ui/memories").text
    admin = signed_in(server, data.admin)
    assert "postcards" in admin.get(f"/ui/records/{data.bob_note}?user=bob").text


def test_hostile_memory_text_is_escaped_in_the_html(served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    html = signed_in(server, data.ann).get("/ui/memories").text
    for text in HOSTILE:
        assert text not in html
    assert "&lt;script&gt;" in html and "&lt;img src=x onerror" in html
    assert 'href="javascript:' not in html


def test_a_stale_core_block_edit_is_refused_with_the_versions(served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    client = signed_in(server, data.ann)
    token = csrf_of(client.get("/ui/context?session=s1").text)
    response = client.post("/ui/context/core/persona", data={"csrf": token, "version": "0", "value": "stale"})
    assert response.status_code == 409
    assert "changed since you opened it" in response.text and "version 0" in response.text


TOKEN = "ghp_" + "Wq4Ez8Rt2Yu6Io0Pa3Sd7Fg1Hj5Kl9Zx2Cv4Bn8M"  # the shape of a GitHub token, made up


def test_a_stale_core_block_edit_holding_a_credential_is_refused_not_shown_again(
    served: tuple[LiveServer, Seeded],
) -> None:
    server, data = served
    client = signed_in(server, data.ann)
    token = csrf_of(client.get("/ui/context?session=s1").text)
    stale = {"csrf": token, "version": "0", "value": "password: Lantern#Orbit42"}
    refused = client.post("/ui/context/core/persona", data=stale)
    assert refused.status_code == 422 and "holds a password" in refused.text and "Lantern" not in refused.text
    garbage = client.post("/ui/context/core/persona", data={"csrf": token, "version": TOKEN, "value": "tea"})
    assert garbage.status_code == 409 and TOKEN not in garbage.text and "withheld" in garbage.text
    audit = server.client().get("/v1/audit", headers={"Authorization": f"Bearer {data.ann}"}).json()["entries"]
    assert any(e["op"] == "refuse" and "core.persona holds a password" in e["detail"] for e in audit)
    assert "Lantern" not in str(audit)


def test_the_erase_confirmation_does_not_repeat_a_credential_typed_into_it(served: tuple[LiveServer, Seeded]) -> None:
    server, data = served
    client = signed_in(server, data.admin)
    token = csrf_of(client.get("/ui/erase").text)
    typed = client.post("/ui/erase", data={"csrf": token, "target": "bob", "confirm": TOKEN})
    assert typed.status_code == 422 and TOKEN not in typed.text and "withheld" in typed.text
    plain = client.post("/ui/erase", data={"csrf": token, "target": "bob", "confirm": "bobby"})
    assert plain.status_code == 422 and "you typed &#39;bobby&#39; for &#39;bob&#39;" in plain.text


def test_a_jwt_from_the_configured_provider_signs_in(tmp_path: Path) -> None:
    import json
    import time

    import jwt
    from cryptography.hazmat.primitives.asymmetric import rsa

    from tiermem.server.settings import JWTConfig

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public: dict[str, object] = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    (tmp_path / "jwks.json").write_text(json.dumps({"keys": [{**public, "kid": "k1", "alg": "RS256"}]}))
    config = JWTConfig(issuer="https://id.example.test/", audience="tiermem", jwks_file=str(tmp_path / "jwks.json"))
    claims = {"iss": config.issuer, "aud": "tiermem", "sub": "dee", "tenant": "acme", "exp": int(time.time()) + 60}
    token = jwt.encode(claims, key, algorithm="RS256", headers={"kid": "k1"})
    with live_server(tmp_path / "jwt.db", jwt=config) as server:
        client = signed_in(server, token)
        page = client.get("/ui/memories")
        assert page.status_code == 200 and "acme / dee" in page.text


def test_memories_page_through_with_the_cursor_without_overlap(served: tuple[LiveServer, Seeded]) -> None:
    import html
    import re

    server, data = served
    for i in range(6):
        server.runtime.memory.remember(Scope("acme", "ann"), f"Ann repotted plant number {i}", type="episodic")
    client = signed_in(server, data.ann)
    first = client.get("/ui/memories?chat=1").text  # with the chat turns, ann has more than a page
    link = re.search(r'<a href="([^"]+)" rel="next">', first)
    assert link, "ann has more memories than one page"
    assert "chat=1" in link.group(1)  # the next page keeps the toggles
    second = client.get(html.unescape(link.group(1))).text
    ids = [re.findall(r'<a href="/ui/records/([^"?]+)">', page) for page in (first, second)]
    assert len(ids[0]) == 25 and ids[1] and not set(ids[0]) & set(ids[1])
    only_episodic = client.get("/ui/memories?type=episodic").text
    assert "river" in only_episodic and "bullet points" not in only_episodic
    tagged = client.get("/ui/memories?tag=drinks").text
    assert "honey" in tagged and "river" not in tagged
