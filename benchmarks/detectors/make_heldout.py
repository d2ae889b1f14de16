# ruff: noqa: E501  (case tables: one case a line reads better than wrapped calls)
"""Write the held-out case files (``heldout_credentials.jsonl``, ``heldout_pii.jsonl``).

Written before the detectors were tuned, and scored once at the end: never tune on these. One JSON object a
line: ``text``, ``label`` (``secret`` / ``pii`` or ``near_miss``), ``kind``; a PII case also has ``value`` (the
substring that must be masked) and ``region`` where it applies; a credential case has ``field`` (the field of a
note it stands for: content, tag, metadata, source) and, for metadata, ``name`` (the metadata key).

    .venv/bin/python benchmarks/detectors/make_heldout.py
"""

from __future__ import annotations

import json
import string
from functools import partial
from pathlib import Path

from casegen import ALNUM, B64, URLSAFE, Cases, Gen, spaced, write

HERE = Path(__file__).resolve().parent


def credentials() -> list[dict[str, str]]:
    g = Gen("heldout-credentials")
    up = string.ascii_uppercase + string.digits
    cases = Cases()
    secret = partial(cases.credential, "secret")
    near = partial(cases.credential, "near_miss")

    secret(
        "aws_access_key_id",
        f"Rotated the deploy user's key, new id is AKIA{g.s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}.",
    )
    secret("aws_secret_key_bare", g.s(ALNUM + "/+", 40), field="metadata", name="value")
    secret(
        "aws_secret_key_labelled",
        f"[default]\naws_access_key_id = AKIA{g.s(up, 16)}\naws_secret_access_key = {g.s(ALNUM + '/+', 40)}",
    )
    secret("aws_session_token", f"export AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{g.s(ALNUM + '/+', 300)}")
    secret(
        "azure_storage_connection",
        f"DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={g.b64(64)};EndpointSuffix=core.windows.net",
    )
    secret("azure_storage_key_bare", g.b64(64), field="tag")
    secret(
        "azure_sas_url",
        f"Upload here: https://acmelogs.blob.core.windows.net/exports/q3.csv?sv=2023-01-03&st=2026-03-01T10%3A00%3A00Z&se=2026-03-08T10%3A00%3A00Z&sr=b&sp=rw&sig={g.b64(32).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}",
    )
    secret(
        "azure_ad_client_secret", f"The app registration's client secret: {g.s(ALNUM, 3)}8Q~{g.s(ALNUM + '_-.~', 31)}"
    )
    secret("gcp_api_key", f"maps widget key AIza{g.s(URLSAFE, 35)}")
    secret(
        "gcp_service_account",
        json.dumps(
            {
                "type": "service_account",
                "project_id": "acme-prod",
                "private_key_id": g.hex(40),
                "private_key": g.pem("PRIVATE KEY", 300) + "\n",
                "client_email": "ci@acme-prod.iam.gserviceaccount.com",
            }
        ),
    )
    secret("google_oauth_client_secret", f"client_secret GOCSPX-{g.s(URLSAFE, 28)}")
    secret("google_oauth_access_token", f"ya29.a0{g.s(URLSAFE, 150)}", field="metadata", name="session")
    secret("github_pat_classic", f"git clone https://ghp_{g.s(ALNUM, 36)}@github.com/acme/infra.git")
    secret("github_fine_grained", f"github_pat_11{g.s(up, 20)}_{g.s(ALNUM, 59)}", field="tag")
    secret("github_app_token", f"installation token ghs_{g.s(ALNUM, 36)} expires in an hour")
    secret("gitlab_pat", f"CI variable GITLAB_TOKEN is glpat-{g.s(URLSAFE, 20)}")
    secret("slack_bot_token", f"slack bot: xoxb-{g.s(string.digits, 12)}-{g.s(string.digits, 13)}-{g.s(ALNUM, 24)}")
    secret(
        "slack_webhook", f"alerts go to https://hooks.slack.com/services/T{g.s(up, 10)}/B{g.s(up, 10)}/{g.s(ALNUM, 24)}"
    )
    secret("discord_bot_token", f"M{g.s(ALNUM, 25)}.{g.s(URLSAFE, 6)}.{g.s(URLSAFE, 27)}", field="metadata", name="bot")
    secret(
        "discord_webhook",
        f"post release notes to https://discord.com/api/webhooks/{g.s(string.digits, 19)}/{g.s(URLSAFE, 68)}",
    )
    secret(
        "teams_webhook",
        f"Teams channel hook: https://acme.webhook.office.com/webhookb2/{g.uuid()}@{g.uuid()}/IncomingWebhook/{g.hex(32)}/{g.uuid()}",
    )
    secret("stripe_secret_key", f"STRIPE_KEY=sk_live_{g.s(ALNUM, 99)}")
    secret("stripe_restricted_key", f"read-only reporting key rk_live_{g.s(ALNUM, 24)}")
    secret("stripe_webhook_secret", f"endpoint signing secret whsec_{g.s(ALNUM, 32)}")
    secret("twilio_api_key", f"SK{g.hex(32)}", field="tag")
    secret("twilio_auth_token_labelled", f"TWILIO_AUTH_TOKEN={g.hex(32)}")
    secret("sendgrid", f"mailer uses SG.{g.s(URLSAFE, 22)}.{g.s(URLSAFE, 43)}")
    secret("mailchimp", f"{g.hex(32)}-us21", field="metadata", name="list_api")
    secret("mailgun", f"mailgun: key-{g.hex(32)}")
    secret("npm_token", f"//registry.npmjs.org/:_authToken=npm_{g.s(ALNUM, 36)}")
    secret("pypi_token", f"TWINE_PASSWORD=pypi-AgEIcHlwaS5vcmc{g.s(URLSAFE, 120)}")
    secret("openai_project_key", f"sk-proj-{g.s(URLSAFE, 74)}T3BlbkFJ{g.s(URLSAFE, 74)}")
    secret("anthropic_key", f"ANTHROPIC_API_KEY=sk-ant-api03-{g.s(URLSAFE, 93)}AA")
    secret("huggingface_token", f"hf_{g.s(ALNUM, 34)}", field="metadata", name="hub")
    secret("telegram_bot_token", f"bot father gave me {g.s(string.digits, 10)}:AA{g.s(URLSAFE, 33)}")
    secret("jwt", f"session cookie {g.jwt({'sub': 'u_1842', 'role': 'admin', 'exp': 1790000000})}")
    secret("pem_rsa_private_key", g.pem("RSA PRIVATE KEY"))
    secret("openssh_private_key", "deploy key:\n" + g.pem("OPENSSH PRIVATE KEY", 400))
    secret("pgp_private_key", g.pem("PGP PRIVATE KEY BLOCK", 500))
    secret("postgres_url", f"DATABASE_URL=postgres://billing:{g.s(ALNUM, 14)}@10.0.3.7:5432/billing")
    secret("mongodb_srv", f"mongodb+srv://reporter:{g.s(ALNUM, 12)}%21@cluster0.abcde.mongodb.net/?retryWrites=true")
    secret("redis_url", f"cache at redis://:{g.s(ALNUM, 20)}@cache.internal:6379/2")
    secret(
        "odbc_connection",
        f"Server=tcp:acme.database.windows.net,1433;Initial Catalog=crm;User ID=crm_app;Password={g.s(ALNUM, 10)}!;Encrypt=True;",
    )
    secret("password_prose", "the password for the guest wifi is Lantern-Harbor-92")
    secret("password_prose_possessive", "Grandma's email password is bluebird1957, write it down somewhere safe")
    secret("password_placeholder_word", "password: Secretariat#77")
    secret("password_placeholder_word_2", "login: ops, pass word is test-Pilot-4411", field="content")
    secret("password_env", "SMTP_PASSWORD=Newcastle2019!")
    secret("password_metadata", "Hunter7&rain", field="metadata", name="password")
    secret("pin_prose", "My bank card PIN is 7394, don't tell anyone.")
    secret("pin_labelled", "Alarm panel code: 4172#")
    secret("bearer_header", f"curl -H 'Authorization: Bearer {g.s(ALNUM, 40)}' https://api.acme.example/v2/orders")
    secret("basic_auth_header", f"Authorization: Basic {g.b64(18)}")
    secret("api_key_header", f"X-API-Key: {g.s(ALNUM, 32)}")
    secret("shopify_token", f"shpat_{g.hex(32)}", field="tag")
    secret("digitalocean_token", f"doctl auth init -t dop_v1_{g.hex(64)}")
    secret("databricks_token", f"DATABRICKS_TOKEN=dapi{g.hex(32)}")
    secret("atlassian_token", f"jira token ATATT3xFfGF0{g.s(URLSAFE, 170)}={g.hex(8).upper()}")
    secret("square_token", f"square access token sq0atp-{g.s(URLSAFE, 22)}")
    secret("vault_token", f"VAULT_TOKEN=hvs.{g.s(URLSAFE, 24)}")
    secret("linear_key", f"lin_api_{g.s(ALNUM, 40)}", field="metadata", name="integration")
    secret("postman_key", f"PMAK-{g.hex(24)}-{g.hex(34)}")
    secret("grafana_service_token", f"glsa_{g.s(ALNUM, 32)}_{g.hex(8)}")
    secret("newrelic_key", f"NEW_RELIC_API_KEY=NRAK-{g.s(up, 27)}")
    secret("age_secret_key", f"AGE-SECRET-KEY-1{g.s('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}")
    secret("otpauth_uri", f"otpauth://totp/Acme:ann?secret={g.s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 32)}&issuer=Acme")
    secret("groq_key", f"gsk_{g.s(ALNUM, 52)}")
    secret(
        "docker_auth",
        '{"auths": {"registry.acme.example": {"auth": "'
        + __import__("base64").b64encode(b"deploy:Zq8!vK2pLr").decode()
        + '"}}}',
    )
    secret("netrc", f"machine api.acme.example login ann password {g.s(ALNUM, 12)}")
    secret("firebase_server_key", f"FCM server key AAAA{g.s(URLSAFE, 7)}:APA91b{g.s(URLSAFE, 134)}")
    secret(
        "django_secret",
        f"SECRET_KEY = 'django-insecure-{g.s(string.ascii_lowercase + string.digits + '!@#$%^&*(-_=+)', 50)}'",
    )
    secret(
        "zapier_webhook",
        f"the form posts to https://hooks.zapier.com/hooks/catch/{g.s(string.digits, 7)}/{g.s(string.ascii_lowercase + string.digits, 6)}/",
    )
    secret("sshpass", f"sshpass -p '{g.s(ALNUM, 10)}' ssh backup@10.0.0.9")

    near("sha256", f"sha256 {g.hex(64)}  release.tar.gz")
    near("sha1", g.hex(40), field="metadata", name="checksum")
    near("md5", f"md5 of the upload was {g.hex(32)}")
    near("git_commit", f"fixed in commit {g.hex(40)} (short {g.hex(7)})")
    near("uuid", f"request id {g.uuid()} failed with 502")
    near("uuid_tag", g.uuid(), field="tag")
    near("docker_digest", f"image acme/api@sha256:{g.hex(64)}")
    near("prose_password", "I reset my password yesterday and now the laptop won't sync.")
    near("prose_password_2", "The password is on a sticky note under the keyboard, ask Priya.")
    near("prose_password_3", "Remember: the password must be at least 12 characters and contain a symbol.")
    near("prose_pin", "Pin the release notes to the channel so everyone sees them.")
    near("prose_token", "She gave him a small token of thanks after the move.")
    near("prose_key", "The key to the shed is under the flowerpot.")
    near("placeholder_angle", "password: <your password>")
    near("placeholder_caps", "api_key=YOUR_KEY")
    near("placeholder_x", "token: xxxx-xxxx-xxxx")
    near("placeholder_env", "export GITHUB_TOKEN=${GITHUB_TOKEN}")
    near("placeholder_stars", "DB_PASSWORD=********")
    near("placeholder_doc", "Set OPENAI_API_KEY to the value from your dashboard (it starts with sk-).")
    near("base64_text", base64_of("Meeting moved to Thursday, bring the quarterly numbers please."))
    near("base64_text_labelled", "payload: " + base64_of('{"event": "signup", "plan": "team", "seats": 12}'))
    near(
        "long_url", "Docs: https://docs.acme.example/guides/getting-started/authentication-and-api-tokens#rotating-keys"
    )
    near("long_word", "Pneumonoultramicroscopicsilicovolcanoconiosis is the longest word in some dictionaries.")
    near("camel_identifier", "Renamed AbstractSingletonProxyFactoryBeanConfiguration2 to ProxyFactoryConfig.")
    near("version", "Upgraded from 2.14.3-rc.1+build.5678 to 2.15.0.")
    near("ssh_public_key", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.s(B64, 43)} ann@laptop")
    near("certificate", g.pem("CERTIFICATE", 500))
    near("data_uri", f"logo: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{g.b64(120)}")
    near("sri_hash", f'<script src="/app.js" integrity="sha384-{g.b64(48)}" crossorigin="anonymous"></script>')
    near("drive_link", f"Slides: https://drive.google.com/file/d/1{g.s(URLSAFE, 43)}/view?usp=sharing")
    near("iban_not_secret", "Pay the invoice to IBAN DE44 5001 0517 5407 3249 31.")
    near("ga_tag", "Analytics property G-7K2M4QX9TZ and legacy UA-31415926-2")
    near("env_reference", "api_key = os.environ['PAYMENTS_API_KEY']")
    near("prose_secret", "The secret to a good risotto is patience and warm stock.")
    near("isbn", "ISBN 978-0-13-468599-1, second edition")
    return cases.rows


def base64_of(text: str) -> str:
    return __import__("base64").b64encode(text.encode()).decode()


def pii() -> list[dict[str, str]]:
    g = Gen("heldout-pii")
    cases = Cases()
    hit, near = cases.pii, cases.near_pii

    for value, text in [
        ("m.okafor@clinic-north.example", "Send the referral to m.okafor@clinic-north.example by Friday."),
        ("J.Silva+receipts@Example.COM", "Receipts go to J.Silva+receipts@Example.COM now."),
        ("ops_team@sub.mail.example.org", "cc ops_team@sub.mail.example.org"),
    ]:
        hit("email", value, text)
    phones = [
        ("US", "(312) 555-0187", "Call the front desk at (312) 555-0187 after 9."),
        ("US", "+1 646 555 0142", "Her cell is +1 646 555 0142."),
        ("GB", "0161 496 0753", "Manchester office: 0161 496 0753"),
        ("GB", "+44 7700 900461", "text me on +44 7700 900461 when you land"),
        ("DE", "089 12345678", "Die Praxis erreichen Sie unter 089 12345678."),
        ("DE", "+49 151 23456789", "Handy: +49 151 23456789"),
        ("FR", "06 12 34 56 78", "Mon portable : 06 12 34 56 78"),
        ("FR", "+33 4 72 10 30 30", "Standard lyonnais au +33 4 72 10 30 30."),
        ("IN", "98765 43210", "WhatsApp me at 98765 43210 for the pickup."),
        ("IN", "+91 80 4040 2020", "Bengaluru office +91 80 4040 2020"),
        ("BR", "(11) 98765-4321", "Meu celular é (11) 98765-4321."),
        ("BR", "+55 21 3456-7890", "Escritório no Rio: +55 21 3456-7890"),
        ("JP", "03-1234-5678", "東京オフィスの電話番号は 03-1234-5678 です。"),
        ("JP", "+81 90 1234 5678", "My Japanese mobile is +81 90 1234 5678."),
        ("AU", "0412 345 678", "Ring Jess on 0412 345 678 about the lease."),
        ("AU", "(02) 9876 5432", "Sydney landline (02) 9876 5432"),
        ("ES", "612 34 56 78", "Mi móvil es 612 34 56 78."),
        ("ES", "+34 913 456 789", "Oficina de Madrid: +34 913 456 789"),
        ("IT", "333 123 4567", "Il mio cellulare è 333 123 4567."),
        ("IT", "06 6982 1234", "Chiamare lo 06 6982 1234 in orario d'ufficio."),
        ("MX", "55 1234 5678", "Mi número en CDMX es 55 1234 5678."),
        ("MX", "+52 33 1234 5678", "Guadalajara: +52 33 1234 5678"),
        ("NL", "06 12345678", "Bel me op 06 12345678."),
        ("NL", "+31 20 123 4567", "Kantoor Amsterdam +31 20 123 4567"),
    ]
    for region, value, text in phones:
        hit("phone", value, text, region)
    ibans = [
        g.iban("DE", "37040044" + g.s(string.digits, 10)),
        g.iban("FR", "30006000011234567890189"),
        g.iban("NL", "ABNA" + g.s(string.digits, 10)),
        g.iban("GB", "NWBK" + g.s(string.digits, 14)),
    ]
    hit("iban", ibans[0], f"Überweisung bitte an {ibans[0]}.")
    hit("iban", spaced(ibans[1]), f"RIB/IBAN : {spaced(ibans[1])}")
    hit("iban", ibans[2].lower(), f"rekening {ibans[2].lower()} op naam van J. de Vries")
    hit("iban", spaced(ibans[3]).lower(), f"sort it to {spaced(ibans[3]).lower()} please")
    cards = [g.card("4", 16), g.card("51", 16), g.card("37", 15), g.card("6011", 16), g.card("2221", 16)]
    hit("card", spaced(cards[0]), f"Card on file: {spaced(cards[0])}, exp 09/28")
    hit("card", cards[1], f"charge {cards[1]} for the deposit")
    hit(
        "card",
        f"{cards[2][:4]} {cards[2][4:10]} {cards[2][10:]}",
        f"Amex {cards[2][:4]} {cards[2][4:10]} {cards[2][10:]}",
    )
    hit(
        "card",
        "-".join(cards[3][i : i + 4] for i in range(0, 16, 4)),
        "Discover " + "-".join(cards[3][i : i + 4] for i in range(0, 16, 4)),
    )
    hit("card", spaced(cards[4]), f"new Mastercard {spaced(cards[4])}")
    hit("ssn", "287-65-4312", "SSN 287-65-4312 on the W-2")
    hit("ssn", "078051121", "Social security number: 078051121")
    hit("ssn", "536 22 1847", "his SSN is 536 22 1847")
    hit("ip", "203.0.113.45", "Blocked 203.0.113.45 after repeated failures.")
    hit("ip", "10.20.30.40", "ssh into 10.20.30.40 as admin")
    hit("ip", "2001:db8:85a3::8a2e:370:7334", "The AAAA record points at 2001:db8:85a3::8a2e:370:7334.")
    hit("ip", "fe80::1ff:fe23:4567:890a", "link-local fe80::1ff:fe23:4567:890a on eth0")
    hit("nino", "JT 48 21 93 B", "NI number JT 48 21 93 B")
    hit("nino", "AB123456D", "National Insurance: AB123456D")
    hit("birth_date", "14/03/1985", "DOB: 14/03/1985")
    hit("birth_date", "2 July 1990", "She was born on 2 July 1990 in Leeds.")
    hit("passport", "533380006", "Passport number 533380006, expires 2031.")
    hit("passport", "C4H8K2L9P", "Reisepass Nr. C4H8K2L9P")

    near("version", "Firmware 10.2.3.4 fixes the Wi-Fi drop.")
    near("version", "Bumped the SDK to 4.18.0.2231 and the CLI to v3.2.1.")
    near("version", "Build 2.0.12.87 is on the beta channel.")
    near("barcode", "EAN 4006381333931 on the box")
    near("barcode", "UPC 036000291452 scanned twice at checkout")
    near("barcode", "Barcode: 5901234123457")
    near("order", "Order #112-4567890-1234567 shipped yesterday.")
    near("order", "Your order number is 4501337821, keep it for returns.")
    near("order", "Invoice INV-2026-004417 is overdue.")
    near("order", "Tracking 9400111899223344556677 via USPS.")
    near("date", "The lease runs from 01.04.2026 to 31.03.2027.")
    near("date", "Deadline 2026-11-30, review on 12/15/2026.")
    near("time", "Standup at 09:15, retro at 16:30:00.")
    near("price", "It costs €1.299,00 or $1,349.99 in the US store.")
    near("price", "Total: 12 450,75 SEK incl. VAT")
    near("count", "We processed 1 234 567 rows in 3 402 ms.")
    near("year_range", "Records from 1998-2024 were migrated.")
    near("coordinates", "Meet at 48.8584, 2.2945 near the tower.")
    near("isbn", "ISBN 978-1-4028-9462-6")
    near("zip", "Ship to ZIP 94107-1234.")
    return cases.rows


def main() -> None:
    write(HERE, {"heldout_credentials.jsonl": credentials(), "heldout_pii.jsonl": pii()})


if __name__ == "__main__":
    main()
