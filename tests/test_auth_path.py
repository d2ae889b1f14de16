"""The one auth path (``server.identity.AuthPath``): revocation reaches the inspector, guessing keys is slowed."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from live_server import LiveServer, live_server
from tiermem.server.identity import FAILED_BURST, FAILED_PER_SECOND
from tiermem.server.settings import JWTConfig
from tiermem.types import utcnow
from ui_fixtures import signed_in

ISSUER, AUDIENCE = "https://id.example.test", "tiermem"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(tmp_path / "auth.db") as s:
        yield s


def test_revoking_a_key_ends_the_inspector_sessions_signed_in_with_it(server: LiveServer) -> None:
    secret = server.key("acme", "ann")
    browser = signed_in(server, secret)
    assert browser.get("/ui/memories").status_code == 200
    key_id = secret.split("_")[1]
    assert server.runtime.access.revoke_key(key_id, at=utcnow())
    time.sleep(server.settings.credential_cache_seconds + 0.1)
    after = browser.get("/ui/memories")
    assert after.status_code == 303 and after.headers["location"].startswith("/ui/login")
    assert browser.get("/ui/memories").status_code == 303  # the session is gone, not just refused once


def test_a_client_guessing_keys_gets_429_and_a_known_key_still_works(server: LiveServer) -> None:
    good = server.key("acme", "ann")
    with server.client(good) as known:
        assert known.get("/v1/whoami").status_code == 200  # verified and cached before the guessing starts
        started = time.monotonic()
        with httpx.Client(base_url=server.url) as guesser:
            answers = [
                guesser.get("/v1/whoami", headers={"Authorization": f"Bearer tmk_guess{i:04d}_xyz"}).status_code
                for i in range(100)
            ]
        elapsed = time.monotonic() - started
        assert set(answers) == {401, 429} and answers[:FAILED_BURST] == [401] * FAILED_BURST
        assert answers.count(401) <= FAILED_BURST + math.ceil(elapsed * FAILED_PER_SECOND) + 1
        refused = httpx.get(f"{server.url}/v1/whoami", headers={"Authorization": "Bearer tmk_guessmore_xyz"})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        time.sleep(1.2)  # past the credential cache's second: the known key is verified again, not just looked up
        assert known.get("/v1/whoami").status_code == 200


def _jwk(public: Any, kid: str, alg: str) -> dict[str, Any]:
    algorithm = jwt.algorithms.RSAAlgorithm if alg.startswith("RS") else jwt.algorithms.ECAlgorithm
    data: dict[str, Any] = json.loads(algorithm.to_jwk(public))
    data.update(kid=kid, use="sig", alg=alg)
    return data


def test_a_jwt_naming_a_key_of_another_algorithm_is_a_401(tmp_path: Path) -> None:
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    jwks = tmp_path / "jwks.json"
    keys = [_jwk(rsa_key.public_key(), "r1", "RS256"), _jwk(ec_key.public_key(), "e1", "ES256")]
    jwks.write_text(json.dumps({"keys": keys}))
    config = JWTConfig(issuer=ISSUER, audience=AUDIENCE, jwks_file=str(jwks), tenant_claim="org", user_claim="sub")
    claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": "ann", "org": "acme", "exp": int(time.time()) + 300}
    with live_server(tmp_path / "jwt.db", jwt=config) as s:
        for key, alg, kid in ((rsa_key, "RS256", "e1"), (ec_key, "ES256", "r1")):
            token = jwt.encode(claims, key, algorithm=alg, headers={"kid": kid})
            answer = httpx.get(f"{s.url}/v1/whoami", headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 401, answer.text
        good = jwt.encode(claims, rsa_key, algorithm="RS256", headers={"kid": "r1"})
        assert httpx.get(f"{s.url}/v1/whoami", headers={"Authorization": f"Bearer {good}"}).status_code == 200
        assert not [line for line in s.log_lines() if line.get("status") == 500]
