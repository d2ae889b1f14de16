"""Passwords in code and notes about passwords: a literal a program hashes or falls back to is the password and is
refused; a state told at length, a property's algorithm, a pointer, a mask, a YAML tag or code reading the password
from somewhere is stored."""

from __future__ import annotations

import pytest

from tiermem import Memory, Scope
from tiermem.errors import SecretRefusedError
from tiermem.trust.secrets import find_secrets

ROBIN = Scope("acme", "robin")


@pytest.mark.parametrize(
    "text",
    [
        "Password: Locked (5 failed tries)",
        "passcode: expired 2 weeks ago",
        "Password: Reset required by IT",
        "pwd: Changed 2023-11-20",
        "Password: Valid until 01.03.2026",
        "password: forgotten (link sent by email)",
    ],
)
def test_a_state_told_at_length_after_a_password_label_is_a_state(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    ["Password: reset to Quill-Fern-48", "password: expired, now Marrow7!Oak", "Password: changed, use Tallow9"],
)
def test_a_state_word_followed_by_a_new_password_is_still_refused(text: str) -> None:
    assert find_secrets(text) == ("a password",)


@pytest.mark.parametrize(
    "text",
    [
        "password_hasher: Argon2id",
        "passwordCipher: ChaCha20-Poly1305",
        "password_encryption: md5",
        "password_hashing = bcrypt-12",
        "password_timeout = 86400",
        "password_hint: my grandmother's street",
        "password_manager: 1Password 7",
        "password_path: /etc/app/db.pass",
        "password_pattern: ^[A-Za-z0-9]{10,}$",
    ],
)
def test_an_algorithm_a_count_or_a_path_after_a_property_label_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "password: shared over WhatsApp",
        "password: via the team vault",
        "password: ask Priya",
        "password: ●●●●●●●●",
        "password: !!str",
        "db_password: !secret mqtt_password",
        "password = await argon2.hash(form.password)",
        "$hashed = Crypt::encrypt($input->password);",
        "pwd = settings['smtp']['pwd']",
        "char *password = argv[2];",
        "password = params.new_password3",
        "password = @new_password",
        "password = #{db_password}",
        "password_hash: $argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
    ],
)
def test_a_pointer_mask_tag_or_code_reading_the_password_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "smtp_password: $tarFish2210",
        "password: %harbor%77",
        "pw = backup_pw = 'copper-lantern-31'",
        "MAIL_PASS = env.str('MAIL_PASS', default='gravel-mint-58')",
        "password = os.getenv('APP_PASSWORD', 'Tidal-Stone-4')",
        "UPDATE accounts SET passwd = crypt('Velvet$Moth5', gen_salt('md5'))",
        "INSERT INTO staff(login, password) VALUES ('kim', md5('orchid-tea-91'))",
        "passwordDigest = sha512(Copper9&fern)",
        "pass: bcrypt(marble77)",
        "Kennwort (Keller): Holunder88",
    ],
)
def test_a_password_given_as_a_default_a_hashed_literal_or_behind_a_sign_is_refused(text: str) -> None:
    assert find_secrets(text) == ("a password",)


@pytest.mark.parametrize(
    "text",
    [
        "password = hash('sha256', $plain)",
        "pwd = bcrypt.hashpw(pwd_bytes, salt)",
        "password = generate_password_hash(form_password2)",
        "DB_PASSWORD = env.str('DB_PASSWORD', default='')",
        "password = os.getenv('DB_PASSWORD', 'changeme')",
    ],
)
def test_a_hashing_call_or_a_default_holding_no_literal_password_is_stored(text: str) -> None:
    assert find_secrets(text) == ()


def test_metadata_naming_a_password_hint_or_manager_is_stored_and_a_default_in_a_code_note_is_refused(
    mem: Memory,
) -> None:
    metadata = {"passwordHint": "the name of the boat", "password_manager": "1Password 8"}
    record = mem.remember(ROBIN, "Robin's account recovery notes", metadata=metadata).record
    assert {key: record.metadata[key] for key in metadata} == metadata
    with pytest.raises(SecretRefusedError) as refused:
        mem.remember(ROBIN, "settings.py: SMTP_PASS = os.environ.get('SMTP_PASS', 'Rust-Owl-77')")
    assert refused.value.field == "content"
    assert mem.store.count(ROBIN) == 1


@pytest.mark.parametrize(
    "text", ["* weekly ferry pass: $48.50 (child fare)", "season pass = €310", "pass: £7.20 a day"]
)
def test_a_sum_of_money_after_a_pass_label_is_what_the_pass_costs(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    ["Password (last changed): 2023-06-30", "Password (rotation): every 60 days", "Kennwort (Verwaltung): KeePassXC"],
)
def test_a_remark_in_brackets_that_names_a_property_labels_no_password(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize("text", ["Password (spare): Wren&hollow55", "Password (manager): Quill&fern82"])
def test_a_password_after_a_remark_in_brackets_is_still_refused(text: str) -> None:
    assert find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Island pass: $12 a day covers the ferry and buses, or add-ons for bikes and low-cost lockers",
        "Password: the one for the shared account. A link looks like https://db.example/x?user=ana&password=password",
        "Password: as agreed. " + "Long notes follow on the same line in many words " * 4 + "or add-ons like Wren&co99",
    ],
)
def test_prose_after_a_label_is_read_as_far_as_its_statement_goes(text: str) -> None:
    assert find_secrets(text) == ()
