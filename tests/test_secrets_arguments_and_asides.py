"""Passwords given by their place in a call, by SQL or by htpasswd are refused; talk about passwords, an empty
entry, a path, a hash, a postal PIN and a property of a password are stored."""

from __future__ import annotations

import pytest

from tiermem import Memory, Scope, SecretRefusedError
from tiermem.trust.secrets import find_secrets


@pytest.mark.parametrize(
    "text",
    [
        'resp = httpx.get(base, auth=("deploy", "Quartz#5519"))',
        'session.auth = HTTPBasicAuth("ops", "Lantern-2290")',
        'Connection db = DriverManager.getConnection(jdbcUrl, "reader", "Maple!Tree64");',
        'var login = new NetworkCredential("svc_print", "Toner#Jam31");',
        "$link = mysqli_connect('db.local', 'shop', 'Cart!Ride88', 'shop');",
        'auth := smtp.PlainAuth("", "bot@example.org", "Heron$Wing7", "mail.example.org")',
        'ftp.login("archive", "Dusty#Shelf12")',
    ],
)
def test_a_password_given_by_its_place_in_a_call_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "requests.get(url, auth=(user, password))",
        'requests.get(url, auth=("deploy", os.environ["DEPLOY_PW"]))',
        'conn = DriverManager.getConnection(jdbcUrl, "reader", "${DB_PASS}");',
        'smtp.login("bot@example.org", "<your password>")',
        "new PDO($dsn, $user, $pass);",
        "the author (Okafor, 2019) lists three login methods",
    ],
)
def test_a_variable_in_a_calls_password_place_is_stored(text: str) -> None:
    assert "a password" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "CREATE USER grafana WITH PASSWORD 'Violet!Hill42';",
        "CREATE ROLE etl WITH ENCRYPTED PASSWORD 'Pylon#7781' LOGIN;",
        "ALTER USER 'app'@'%' IDENTIFIED BY 'Copper#Kettle5';",
        "CREATE USER 'ro'@'%' IDENTIFIED WITH mysql_native_password BY 'Brine!Salt62';",
        "htpasswd -b /srv/site/.htpasswd editor Fig#Jam2023",
        "htpasswd -cb ./users.htpasswd ann Otter!Pond8",
        "htpasswd -nb ann Otter!Pond8",
    ],
)
def test_a_password_set_by_sql_or_htpasswd_is_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "ALTER ROLE etl WITH PASSWORD NULL;",
        "CREATE USER grafana WITH PASSWORD '${GRAFANA_PW}';",
        "htpasswd -c /srv/site/.htpasswd editor",
        "the suspect was identified by her coat",
    ],
)
def test_sql_or_htpasswd_with_no_literal_password_is_stored(text: str) -> None:
    assert "a password" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Never reuse one password for work and home - learned that the hard way.",
        "Password: revoked. Ask the service desk on Tuesday.",
        "Password: locked! Waiting on IT.",
        "WEB_PASSWORD=\nWEB_USER=site\n# ask Priya for the values",
        "WEB_PASSWORD= WEB_USER=site",
        "account.password = params[:new_password]",
        "kubectl create secret generic web --from-file=password=./secrets/web.txt",
        "password_file: ../secrets/web.pass",
    ],
)
def test_talk_an_empty_entry_or_a_path_after_a_password_label_is_stored(text: str) -> None:
    assert "a password" not in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "wifi password - sunflower",
        "Password: revoked. New one is Garnet#5521",
        "WEB_PASSWORD=Garnet#5521\nWEB_USER=site",
        "kubectl create secret generic web --from-literal=password=Garnet#5521",
    ],
)
def test_a_password_next_to_an_aside_or_an_entry_is_still_refused(text: str) -> None:
    assert "a password" in find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "user row hash: $2b$12$Zq8Lr3Vt0Wm5Nx2Yc7Kd4eHf9Gj1Pb6Sa3Uw8Xo2Rn5Tl0Mv4Qi7",
        "$argon2id$v=19$m=65536,t=3,p=4$bm90YXNhbHQ$Zq8Lr3Vt0Wm5Nx2Yc7Kd4eHf9Gj1Pb6Sa3Uw8Xo2Rn5Tl0Mv4Qi7",
    ],
)
def test_a_password_hash_in_modular_crypt_form_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "Deliver to Kochi, PIN 682001",
        "Flat 9, Lake View, Indiranagar, Bengaluru, PIN 560038",
        "courier address: 4 Park Street, Kolkata PIN 700016",
    ],
)
def test_an_indian_postal_pin_in_an_address_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "PIN 482913",
        "Ravi, PIN 482913",
        "Deliver to Kochi, debit card PIN 682001",
        "Flat 9, Lake View, PIN 560038 for the door",
    ],
)
def test_a_six_digit_pin_with_no_address_or_with_a_card_or_lock_is_refused(text: str) -> None:
    assert find_secrets(text) == ("a PIN or access code",)


def test_a_metadata_value_telling_where_the_password_is_kept_is_stored() -> None:
    with Memory.open(":memory:", embedder="hash") as memory:
        memory.remember(Scope("t", "u"), "shed notes", metadata={"password_location": "drawer"})
        with pytest.raises(SecretRefusedError):
            memory.remember(Scope("t", "u"), "shed notes", metadata={"password_location": "Garnet#5521"})


def test_an_empty_entry_in_a_stored_note_does_not_take_the_next_entry_as_its_value() -> None:
    with Memory.open(":memory:", embedder="hash") as memory:
        memory.remember(Scope("t", "u"), "API_PASSWORD=\nAPI_USER=svc\n# to be filled in")
