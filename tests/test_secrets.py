"""Credential detection: real formats in any field are named by kind, never the value; near misses (hashes,
UUIDs, talk about passwords, placeholders, base64 of text, public keys, versions) are left alone; and the case
files under benchmarks/detectors meet the targets."""

from __future__ import annotations

import base64
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tiermem.trust.secrets import SECRET_KINDS, find_secrets

ROOT = Path(__file__).resolve().parents[1]

# Values in real formats, made up for these tests (none is live).
AWS_SECRET = "q7Rk2LmX9vTz/Ab4Nc8Wp1Ys+Ue6Hd3Jf0Gi5KoPl"
AZURE_KEY = "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG9wbHVnaHh5enp5" + "k3Jq9Lw2Xv7Pn4Rb8Ts1Uc6Ye0Ha5Gd=="


def test_an_unlabelled_cloud_secret_alone_in_a_field_is_found() -> None:
    assert find_secrets(AWS_SECRET) == ("a high-entropy secret",)
    assert find_secrets(f"the new one is {AWS_SECRET}") == ("a high-entropy secret",)


@pytest.mark.parametrize(
    "text",
    [
        "the password for the guest network is Copper-Kettle-58",
        "My email password is bluejay1961, keep it safe",
        "the wifi password is sunflower",
        "The password is: Orange-Tulip-88",
    ],
)
def test_a_password_said_in_a_sentence_is_found(text: str) -> None:
    assert find_secrets(text) == ("a password",)


@pytest.mark.parametrize("value", ["Secretariat#77", "testPilot-4411", "newmoon1988", "passport7Lagoon", "changeme42"])
def test_a_password_that_begins_like_a_placeholder_word_is_found(value: str) -> None:
    assert find_secrets(f"password: {value}") == ("a password",)


@pytest.mark.parametrize("text", ["my PIN is 4821", "PIN: 0592", "the door code is 1947", "alarm_code: 2580#"])
def test_a_pin_or_access_code_is_found(text: str) -> None:
    assert find_secrets(text) == ("a PIN or access code",)


@pytest.mark.parametrize(
    "text",
    ["Connect the LED to pin 13.", "Pincode 560001 is the Bengaluru GPO.", "The PIN is 4 digits long.", "PIN: ****"],
)
def test_a_hardware_pin_a_postal_pincode_or_a_masked_pin_is_not_a_credential(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "mongodb+srv://reporter:Qx83mZp!@cluster0.abcde.mongodb.net/",
        "redis://:f8Kq2LmZ9xV4@cache.internal:6379/2",
        "Server=db;Database=crm;User ID=app;Password=K2m!x9Qz;",
    ],
)
def test_a_connection_string_with_a_password_is_found(text: str) -> None:
    assert find_secrets(text)


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.slack.com/services/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",
        "https://discord.com/api/webhooks/1234567890123456789/" + "Ab3" * 23,
        "https://acme.webhook.office.com/webhookb2/0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e@0b6f1c2e-3d4a-4b5c-8d9e-"
        "0f1a2b3c4d5e/IncomingWebhook/9f8e7d6c5b4a39281706f5e4d3c2b1a0/0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e",
        "https://hooks.zapier.com/hooks/catch/4417722/3kq9zb/",
    ],
)
def test_webhook_urls_are_found(url: str) -> None:
    assert find_secrets(f"post alerts to {url}") == ("a webhook URL",)


def test_an_azure_storage_account_key_is_found_with_or_without_its_label() -> None:
    assert find_secrets(f"AccountName=logs;AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net") == (
        "an Azure storage account key",
    )
    assert find_secrets(AZURE_KEY) == ("a high-entropy secret",)


@pytest.mark.parametrize(
    ("token", "kind"),
    [
        ("github_pat_11ABCDEFG0123456789_" + "aB3dE5fG7h" * 5, "a GitHub token"),
        ("sk-ant-api03-" + "Zq8Lm2Xv7Pn4Rb8Ts1Uc" * 5 + "AA", "an AI provider API key"),
        ("sk-proj-" + "Zq8Lm2Xv7Pn4Rb8Ts1Uc-_" * 4, "an AI provider API key"),
        ("hf_" + "Zq8Lm2Xv7Pn4Rb8Ts1Uc6Ye0Ha5Gd3Jf2K", "an AI provider API key"),
        ("sk_test_" + "Zq8Lm2Xv7Pn4Rb8Ts1Uc6Ye0", "a Stripe secret key"),
        ("whsec_" + "Zq8Lm2Xv7Pn4Rb8Ts1Uc6Ye0Ha5Gd3Jf", "a Stripe secret key"),
        ("GOCSPX-" + "Zq8Lm2Xv7Pn4Rb8Ts1Uc6Ye0Ha5G", "a Google OAuth secret or token"),
        ("shpat_" + "9f8e7d6c5b4a39281706f5e4d3c2b1a0", "a service API token"),
        ("dop_v1_" + "9f8e7d6c5b4a39281706f5e4d3c2b1a0" * 2, "a service API token"),
        ("hvs." + "Zq8Lm2Xv7Pn4Rb8Ts1Uc6Ye0Ha", "a service API token"),
        ("npm_" + "Zq8Lm2Xv7Pn4Rb8Ts1Uc6Ye0Ha5Gd3Jf2Kq9", "an npm token"),
        ("xoxb-3840129384-4810293847561-Zq8Lm2Xv7Pn4Rb8Ts1Uc6Ye0", "a Slack token"),
        ("AKIAQ7RK2LMX9VTZ4NC8", "an AWS access key id"),
        ("glpat-Zq8Lm2Xv7Pn4Rb8Ts1Uc", "a GitLab token"),
        ("otpauth://totp/Acme:ann?secret=JBSWY3DPEHPK3PXQ&issuer=Acme", "a TOTP secret"),
    ],
)
def test_token_formats_are_found_bare_as_in_a_tag(token: str, kind: str) -> None:
    assert find_secrets(token) == (kind,)


@pytest.mark.parametrize(
    "text",
    [
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "fixed in commit 4f2a9c81d07e6b35a8c1f0e2d9b7a6c5e4d3f2a1 (short 4f2a9c8)",
        "MD5 (backup.tar) = 9e107d9d372bb6826bd81d3542a419d6",
        "request id 0b6f1c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e failed",
        "image acme/api@sha256:9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0",
    ],
)
def test_hashes_uuids_and_commit_ids_are_not_credentials(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "I reset my password yesterday.",
        "The password is on the fridge, not in the app.",
        "The password is required for every login and expires after 90 days.",
        "the password is case sensitive",
        "Her password is the same as before.",
        "password: <your password>",
        "api_key=YOUR_KEY",
        "token: xxxx-xxxx-xxxx",
        "DB_PASSWORD=********",
        "export GITHUB_TOKEN=${GITHUB_TOKEN}",
        "password = os.getenv('DB_PASSWORD')",
        "postgres://user:password@localhost/db",
        "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "pwd: /home/ann/src",
        "The API key goes in the settings page under Integrations.",
        "2. pwd: prints the folder you are in, so you know where a command will run.",
        "- Reused passwords: Most people keep one for every site, which is the first thing attackers try.",
        "* login: the name a member picks\n* password: salted hash of the member's password\n* phone: optional",
        "    password_digest = Column(Text, nullable=False)",
    ],
)
def test_talk_about_passwords_and_placeholders_are_not_credentials(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        base64.b64encode(b"Please remember to water the plants while I am away in Lisbon.").decode(),
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq4Zk8Lm2Xv7Pn4Rb8Ts1Uc6Ye0Ha5Gd3Jf2Kq9Wx ann@laptop",
        "https://drive.google.com/file/d/1Zq8Lm2Xv7Pn4Rb8Ts1Uc6Ye0Ha5Gd3Jf2Kq9Wx7Yb4/view",
        "HTMLInputElementValidationMessageProvider2Factory",
        "Upgraded from 2.14.3-rc.1+build.5678 to 2.15.0.",
        "/home/ann/Projects/Website2024/src/components/NavigationBarDropdown.tsx",
        "The ED25519 host key fingerprint is SHA256:Qx7vT2mK9pL4wR8nB3cY6hJ1dF5sG0aZ8eU2iO7kM4q.",
    ],
)
def test_base64_of_text_public_keys_urls_identifiers_and_versions_are_not_credentials(text: str) -> None:
    assert find_secrets(text) == ()


def test_a_specific_kind_is_named_instead_of_a_generic_one() -> None:
    assert find_secrets("ci token ghp_4f9Kx2Lm8Qp1Rt6Vw3Yz7Bc5Dg0Hj2Kn4Ms8a") == ("a GitHub token",)


def test_a_bare_value_is_found_by_the_name_it_is_stored_under() -> None:
    assert find_secrets("pin: 8264") == ("a PIN or access code",)
    assert find_secrets("password: Hunter7&rain") == ("a password",)
    assert find_secrets("wifi_pass: summer2024!") == ("a password",)
    assert find_secrets("floor: 8264") == ()


def test_every_kind_named_is_listed_in_secret_kinds() -> None:
    assert len(SECRET_KINDS) == len(set(SECRET_KINDS)) >= 30
    assert find_secrets("a password: Lakeside-2024 and AKIAQ7RK2LMX9VTZ4NC8") == (
        "an AWS access key id",
        "a password",
    )
    assert SECRET_KINDS.index("an AWS access key id") < SECRET_KINDS.index("a password")


def _runner() -> ModuleType:
    path = ROOT / "benchmarks" / "detectors" / "run.py"
    spec = importlib.util.spec_from_file_location("detectors_run", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["detectors_run"] = module
    spec.loader.exec_module(module)
    return module


def test_the_case_files_meet_the_targets() -> None:
    run = _runner()
    rows = run.load("credentials.jsonl")
    credentials = run.score_credentials(rows)
    assert len({r["kind"] for r in rows if r["label"] == "secret"}) >= 40
    assert credentials.recall >= 0.95, credentials.misses
    assert credentials.false_rate == 0, credentials.misses
    pii = run.score_pii(run.load("pii.jsonl"))
    for kind in ("email", "phone", "iban", "card", "ssn", "ip", "nino"):
        hit, total = run.by_family(pii.found)[kind]
        assert hit / total >= 0.95, (kind, pii.misses)
    assert len({k for k in pii.found if k.startswith("phone:")}) >= 10
    assert pii.false_rate <= 0.05, pii.misses


def test_a_passphrase_of_plain_words_after_its_label_is_found() -> None:
    assert find_secrets("password: lantern orchard velvet pebble") == ("a password",)


PREFIXED = [
    "deploy with acme_live_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oO",
    "TOKEN=zq-v2-OL8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR",
    "the key is mkt_daeeb975729fae923d5a4fd12aabfe228f219e9c",
]
NOT_PREFIXED = [
    "sha256-b0eb53f16947ccf25ec84d8dbc74254770f58904dba41ecccc3fc1626e53a13",
    "commit-67c76fb008f86bebb2737f6a6f0fb23c6f5da2ce",
    "customer cus_zV8fUkkibjL5DZ",
    "Stripe('pk_live_PjN0MEQ7wjJJibaZUPgHV7iB3m03nbqnsGpWLuqIA1id6Vw5DQL05H')",
    "image tag web-4b484e73cf57",
    "file data_export_268656355150587706589481.csv",
    "turn-2d711642b726b04401627ca9fbac32f5",
    "trace-a1fce4363854ff888cff4b8e7875d600",
    "chatcmpl-AbC123dEf456GhI789jKl012MnO34",
    "msg_01XFDUDYJgAACzvnptvVoYEL",
    "charge ch_3MmlLrLkdIwHu7ix0snN0B15",
]


@pytest.mark.parametrize("text", PREFIXED)
def test_a_token_with_a_provider_s_marker_is_found_whoever_the_provider(text: str) -> None:
    assert find_secrets(text)


@pytest.mark.parametrize("text", NOT_PREFIXED)
def test_a_digest_an_object_id_or_a_publishable_key_with_a_marker_is_no_credential(text: str) -> None:
    assert find_secrets(text) == ()


@pytest.mark.parametrize(
    "text",
    [
        "wallet seed phrase (keep offline): amber cactus dolphin eleven forest gravel harbor island jungle kettle"
        " lemon meadow",
        "appended to ~/.pgpass: db.internal.example:5432:*:analyst:Tq8vLm2ZpR",
        "WIFI:T:WPA;S:Cottage-Net;P:blue-kettle-73;;",
        "Backup codes for the mail account: 7k2m9-p4x8q t3n6w-h9c2v r8d5f-q1z7m b6y4k-w2p9s",
        "private key of the test wallet: 0x" + "5c3a9e1f7b2d4c6e8a0f1b3d5e7c9a2b4d6f8e0a1c3b5d7e9f2a4c6b8d0e1f3a",
        "net use Y: \\\\nas\\media /user:HOME\\sam Corn-Flake-19",
        "gpg --batch --passphrase 'Otter-Lamp-58' -d notes.gpg",
        "memorable_word: Dandelion",
    ],
)
def test_a_credential_in_a_well_known_file_or_command_format_is_found(text: str) -> None:
    assert find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "[Peer]\nPublicKey = 2hJb5pQx9Lm3Nv7Rt1Wy6Za8Cd4Ef0Gh2Jk5Lm8Np3Q=\nAllowedIPs = 10.0.0.0/24",
        "Account SID AC8a31f2b7c6d54e9f0a1b2c3d4e5f6a7b (the token is kept elsewhere)",
        "Write your seed phrase on paper and never type it into a website.",
        "Recovery codes: print them and keep them somewhere safe.",
    ],
)
def test_a_public_key_an_account_id_or_advice_about_them_is_no_credential(text: str) -> None:
    assert find_secrets(text) == ()
