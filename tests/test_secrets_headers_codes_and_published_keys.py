"""A provider's key header, a framework's secret key in a config item, recovery codes, app passwords, codes with a
remark or a room before them are refused; public key material, published emulator and documentation keys, states,
file references and emptied variables are stored."""

from __future__ import annotations

import pytest

from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        "Edgecache-Key: Q7mZt2LpW9xRv4KsN8cJd3HfY6bGa1Ue",
        "app.config['SESSION_SECRET_KEY'] = 'p&Wq9#zL%e2Rk7!tXv4Bn8^mYc'",
        "Backup codes for my mail account (user: kim)\nr4tq2-m8vzk\nw7pc1-h3nd9\nq2xs8-b6jlf\ny9fk3-t1wam",
        "Códigos de respaldo de la cuenta del trabajo: 4821 0937 5520 1846 7302 9915 6048 2271",
        "App password for the calendar sync (laptop): qwtr mvbn ksdl puyx",
        "PIN for the parking card (blue one, ending 0921): 5718",
        "Safe combination cabin 27: 604913",
        "Cijferslot van de schuur: 3-8-2-6",
        "WLAN-Schlüssel Speedport 3: 4417 2093 8851 6620 1374",
        "pin_karte: 7390",
        "DB_PASSWORD= s3cr3tVal9",
        "export APP_PASSWORD= Kq7vX2mWp4 && ./run.sh",
    ],
)
def test_a_credential_in_these_shapes_is_refused(text: str) -> None:
    assert find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Password: Locked out (5 failed attempts) - try again in an hour.",
        "Release signing key: ed25519/3A9C44E1B07F62D5 valid until 2028",
        '{"keys": [{"kid": "Zt7pQ2mW9xLr4KvN8cJd3HfY6bGa1UeS5oIq0TnRyEw", "kty": "EC", "crv": "P-256"}]}',
        "  ~ admin_password = (sensitive value)",
        "vault kv put secret/svc/api password=@api_password.txt",
        "PGPASSWORD= psql -h 127.0.0.1 -U app appdb   # trust auth on the local socket",
        "The tutorial's sample is `APP_PASSWORD=my-secret-pw`; we read ours from a file instead.",
        "The docs example for a Secret then encodes its sample password a9c1e7b3d2f4.",
        "Local tests use the storage emulator's well-known key "
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        "Their reference pages use the test key sk_test_4eC39HqLyjWDarjtT1zdp7dc in every curl sample.",
    ],
)
def test_a_note_that_only_looks_like_a_credential_is_stored(text: str) -> None:
    assert find_secrets(text) == ()
