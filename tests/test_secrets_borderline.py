"""Credentials on the border: a password label before a value that is no password (a property of the password,
a state, a variable, a query's placeholder) is stored; a password after its label, and a key written in groups,
are still refused."""

from __future__ import annotations

import pytest

from tiermem import Memory, Scope
from tiermem.errors import SecretRefusedError
from tiermem.trust.secrets import find_secrets

ROBIN = Scope("acme", "robin")


@pytest.mark.parametrize(
    "text",
    [
        "password_policy: strict",
        "password_rotation: quarterly",
        "password_manager: Bitwarden",
        "passwordManager: Enpass",
        "Kennwortmanager: Bitwarden",
        '{"password_state": "pending"}',
        "password_required: true",
        "password_changed_at: 2025-03-14T09:00:00Z",
    ],
)
def test_a_label_naming_a_property_of_a_password_does_not_label_a_password(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "passwordManager: Lt7#quarry_Vane",
        "password_policy: Harbour42!",
        "Kennwortmanager: Ostsee-1987",
        '{"password_last_set": "gr33nTide?"}',
        "password_vault_master: plum&Otter29",
    ],
)
def test_a_property_label_never_excuses_a_value_shaped_like_a_password(text: str) -> None:
    assert find_secrets(text)


def test_metadata_under_a_key_naming_a_property_of_a_password_is_stored(mem: Memory) -> None:
    metadata = {"password_rotation": "quarterly", "password_manager": "Bitwarden", "passwordState": "pending"}
    record = mem.remember(ROBIN, "Robin moved the team logins to a new vault", metadata=metadata).record
    assert {key: record.metadata[key] for key in metadata} == metadata
    assert mem.store.count(ROBIN) == 1


@pytest.mark.parametrize(
    "text", ["Password: Locked", "pw: incorrect", "pwd = forgotten", "passphrase: rotated", "Password: Expired"]
)
def test_a_state_word_after_a_password_label_is_a_state_not_a_password(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "new_pass = hashed_password",
        "cfg.password = form.new_password",
        "password := passwordHash",
        "passwd: user_passwd_field",
    ],
)
def test_an_identifier_that_repeats_the_label_is_code_not_a_password(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "UPDATE members SET pwd = sha2(?, 256) WHERE id = ?",
        "passwd = digest($2, 'sha1')",
        "password = md5(:secret)",
        "SET pass = crypt(@p1, gen_salt('bf'))",
        "WHERE hashed = crypt($1, hashed) AND passwd_hash = crypt($1, passwd_hash)",
    ],
)
def test_a_call_on_a_query_placeholder_is_code_not_a_password(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "password: hunter2!",
        "pwd=Tr0ub4dor&3",
        "the password for the router is correct-horse-battery",
        "Passwort: Sommer2024!",
        "password: Maple-Creek-17",
        "passwd=Orchid$42",
        "Kennwort: Winter2023!",
        "the password for the shed is purple-otter-lamp",
        "wifi password: Password123",
        "wifi password: sunflower",
        "admin_password: Tangerine",
        "db_password = Harbour_Lantern_9",
        "password: my_garden_shed",
        '{"password": "pendingTulip7"}',
    ],
)
def test_a_password_after_its_label_is_still_refused(text: str) -> None:
    assert find_secrets(text) == ("a password",)


def test_a_password_in_metadata_beside_a_property_key_is_still_refused(mem: Memory) -> None:
    with pytest.raises(SecretRefusedError) as refused:
        mem.remember(ROBIN, "cabin wifi", metadata={"password_rotation": "yearly", "password": "Fern-Otter-62"})
    assert refused.value.field == "metadata.password"
    assert mem.store.count(ROBIN) == 0


@pytest.mark.parametrize(
    "text",
    [
        "deploy key AKIA Q4RT 7LMX 2NVB 3KCZ",
        "ASIA-W3HD-3KQP-Z6TY-5RMB is the temporary one",
        "read it out: AKIA Q4RT-7LMX 2NVB-3KCZ",
        "in fives: AKIAQ 4RT7L MX2NV B3KCZ",
        "first group long: AKIAQ4RT 7LMX 2NVB 3KCZ",
        "broken once: AKIAQ4RT7L MX2NVB3KCZ",
        "spelt out: " + " ".join("AKIAQ4RT7LMX2NVB3KCZ"),
    ],
)
def test_an_aws_access_key_id_written_in_groups_is_found(text: str) -> None:
    assert find_secrets(text) == ("an AWS access key id",)


@pytest.mark.parametrize(
    "text",
    [
        "ASIA WEST HUB TEAM LEADS",
        "AKIA FARM SHOP OPEN DAYS start in May",
        "ACCA-TAX PAPER MOCK TEST on Friday",
        "ASIA DESK 2019 PLAN DONE",
    ],
)
def test_capitals_or_numbers_after_a_key_id_prefix_that_no_key_id_could_be_are_stored(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_note_headed_in_capitals_after_a_key_id_prefix_is_remembered(mem: Memory) -> None:
    mem.remember(ROBIN, "ASIA WEST HUB TEAM LEADS - monthly call notes: budget agreed")
    assert mem.store.count(ROBIN) == 1


@pytest.mark.parametrize(
    "text",
    [
        "AKIA is how an access key id begins",
        "AKIA Q4RT 7LMX 2NVB",
        "AKIA-QQQQ-QQQQ-QQQQ-QQQQ",
    ],
)
def test_grouped_text_that_is_no_aws_key_id_is_left_alone(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "password = cfg.password or 'Mag!pie204'",
        "password: request.password or Larch$7731",
        "pwd = request.new_pwd  # the previous one was Larch$7731",
        "password = ctx.password\n# staging fallback: Brine^4410",
        "password_rotation: overdue, interim Quill&fern82 until Monday",
        "password_changed: 2023-11-05 Heron%7719",
        "password = crypt($1, gen_salt('md5')) -- demo account: Osprey@6620",
        "the password is expired, so use Quill&fern82 for now",
    ],
)
def test_a_password_after_a_value_that_labels_none_is_still_refused(text: str) -> None:
    assert find_secrets(text)


def test_a_capitalised_passphrase_joined_by_underscores_is_a_password_not_a_variable() -> None:
    assert find_secrets("password: Password_Marigold")
    assert find_secrets("password = MARIGOLD_PASSWORD") == ()  # a constant's name, as code writes one


@pytest.mark.parametrize(
    "text",
    [
        "password = make_password(size=20, digits=True)",
        "password: str = Field(min_length=12)",
        "password = os.environ['APP_PASS_V3']",
        "password_policy: see ticket SEC-5521",
        "password = hashlib.scrypt(pw, salt=salt, n=16384, r=8, p=1)",
    ],
)
def test_code_and_tickets_after_a_password_label_stay_stored(text: str) -> None:
    assert find_secrets(text) == ()
