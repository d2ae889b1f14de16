"""Bearer JWTs from an operator-configured identity provider: a locally made RSA key, its JWKS file, real HTTP."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from live_server import LiveServer, live_server
from tiermem.errors import ConfigError
from tiermem.server.auth import JWTVerifier
from tiermem.server.settings import JWTConfig, ServerSettings

ISSUER = "https://id.example.test/"
AUDIENCE = "tiermem"


def _jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    data.update(kid=kid, use="sig", alg="RS256")
    return data


@pytest.fixture(scope="module")
def keys() -> dict[str, rsa.RSAPrivateKey]:
    return {name: rsa.generate_private_key(public_exponent=65537, key_size=2048) for name in ("idp", "rogue")}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, keys: dict[str, rsa.RSAPrivateKey]) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("jwt")
    jwks = folder / "jwks.json"
    jwks.write_text(json.dumps({"keys": [_jwk(keys["idp"], "k1")]}))
    config = JWTConfig(issuer=ISSUER, audience=AUDIENCE, jwks_file=str(jwks), tenant_claim="org", user_claim="sub")
    with live_server(folder / "jwt.db", jwt=config) as s:
        yield s


def _token(key: rsa.RSAPrivateKey, kid: str = "k1", **claims: Any) -> str:
    body = {"iss": ISSUER, "aud": AUDIENCE, "sub": "alice", "org": "acme", "exp": int(time.time()) + 300, **claims}
    return jwt.encode({k: v for k, v in body.items() if v is not None}, key, algorithm="RS256", headers={"kid": kid})


def _get(server: LiveServer, token: str, path: str = "/v1/whoami") -> httpx.Response:
    return httpx.get(f"{server.url}{path}", headers={"Authorization": f"Bearer {token}"})


def test_a_valid_token_names_tenant_and_user_by_the_configured_claims(
    server: LiveServer, keys: dict[str, rsa.RSAPrivateKey]
) -> None:
    r = _get(server, _token(keys["idp"]))
    assert r.status_code == 200, r.text
    me = r.json()
    assert (me["tenant"], me["user"], me["role"]) == ("acme", "alice", "user")
    assert me["credential"].startswith("jwt:") and "alice" not in me["credential"]


def test_a_token_user_writes_and_reads_only_its_own_scope(
    server: LiveServer, keys: dict[str, rsa.RSAPrivateKey]
) -> None:
    alice = {"Authorization": f"Bearer {_token(keys['idp'])}"}
    bob = {"Authorization": f"Bearer {_token(keys['idp'], sub='bob')}"}
    made = httpx.post(f"{server.url}/v1/memories", json={"content": "alice prefers window seats"}, headers=alice)
    assert made.status_code == 201 and made.json()["record"]["tenant"] == "acme"
    record = made.json()["record"]["id"]
    assert httpx.get(f"{server.url}/v1/memories/{record}", headers=bob).status_code == 404
    assert httpx.get(f"{server.url}/v1/memories/{record}", headers=alice).status_code == 200


@pytest.mark.parametrize(
    ("signer", "claims"),
    [
        ("rogue", {}),  # signed by another key
        ("idp", {"aud": "someone-else"}),
        ("idp", {"iss": "https://evil.example.test/"}),
        ("idp", {"exp": int(time.time()) - 3600}),
        ("idp", {"exp": None}),  # no expiry at all
        ("idp", {"org": None}),  # no tenant claim
        ("idp", {"org": "ac/me"}),  # a tenant no scope allows
        ("idp", {"role": "root"}),
    ],
)
def test_a_token_that_does_not_verify_is_401(
    server: LiveServer, keys: dict[str, rsa.RSAPrivateKey], signer: str, claims: dict[str, Any]
) -> None:
    r = _get(server, _token(keys[signer], **claims))
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize("role", ["user", "admin"])
def test_a_token_without_the_user_claim_is_401_like_one_without_the_tenant_claim(
    server: LiveServer, keys: dict[str, rsa.RSAPrivateKey], role: str
) -> None:
    shared = server.client(server.key("acme", None))
    assert shared.post("/v1/memories", json={"content": "the office plants need water"}).status_code == 201
    token = _token(keys["idp"], sub=None, role=role)
    assert _get(server, token).status_code == 401
    listed = _get(server, token, "/v1/memories")
    assert listed.status_code == 401 and "plants" not in listed.text


def test_a_symmetric_token_is_refused_even_with_the_public_key_as_secret(
    server: LiveServer, keys: dict[str, rsa.RSAPrivateKey]
) -> None:
    public = jwt.algorithms.RSAAlgorithm.to_jwk(keys["idp"].public_key()).encode()
    body = {"iss": ISSUER, "aud": AUDIENCE, "sub": "alice", "org": "acme", "exp": int(time.time()) + 300}

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    signed = b64(json.dumps({"alg": "HS256", "kid": "k1"}).encode()) + "." + b64(json.dumps(body).encode())
    forged = signed + "." + b64(hmac.new(public, signed.encode(), hashlib.sha256).digest())  # the classic confusion
    assert _get(server, forged).status_code == 401
    unsigned = jwt.encode(body, None, algorithm="none")
    assert _get(server, unsigned).status_code == 401


def test_an_admin_token_reaches_the_admin_routes(server: LiveServer, keys: dict[str, rsa.RSAPrivateKey]) -> None:
    assert _get(server, _token(keys["idp"]), "/v1/admin/users/alice/export").status_code == 403
    admin = _get(server, _token(keys["idp"], sub="ops", role="admin"), "/v1/admin/users/alice/export")
    assert admin.status_code == 200 and admin.json()["tenant"] == "acme"


def test_jwt_settings_are_checked_at_start(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="exactly one"):
        JWTConfig(issuer=ISSUER, audience=AUDIENCE)
    with pytest.raises(ConfigError, match="public-key"):
        JWTConfig(issuer=ISSUER, audience=AUDIENCE, jwks_file="x", algorithms=("HS256",))
    env = {"TIERMEM_JWT_ISSUER": ISSUER, "TIERMEM_JWT_AUDIENCE": AUDIENCE, "TIERMEM_JWT_JWKS_FILE": "j.json"}
    config = ServerSettings.jwt_from_env(env | {"TIERMEM_JWT_TENANT_CLAIM": "org"})
    assert config is not None and config.tenant_claim == "org" and config.user_claim == "sub"
    assert ServerSettings.jwt_from_env({}) is None
    (tmp_path / "bad.json").write_text("{not json")
    bad = JWTConfig(issuer=ISSUER, audience=AUDIENCE, jwks_file=str(tmp_path / "bad.json"))
    with pytest.raises(ConfigError, match="JWKS file"):
        JWTVerifier(bad)


def test_keys_can_come_from_a_jwks_url(tmp_path: Path, keys: dict[str, rsa.RSAPrivateKey]) -> None:
    import http.server
    import threading

    document = json.dumps({"keys": [_jwk(keys["idp"], "k1")]}).encode()

    class JWKS(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(document)

        def log_message(self, *args: Any) -> None:
            pass

    idp = http.server.ThreadingHTTPServer(("127.0.0.1", 0), JWKS)
    threading.Thread(target=idp.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{idp.server_address[1]}/.well-known/jwks.json"
    try:
        config = JWTConfig(issuer=ISSUER, audience=AUDIENCE, jwks_url=url, tenant_claim="org")
        with live_server(tmp_path / "u.db", jwt=config) as server:
            assert _get(server, _token(keys["idp"])).json()["user"] == "alice"
            assert _get(server, _token(keys["rogue"])).status_code == 401
    finally:
        idp.shutdown()
