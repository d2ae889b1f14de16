# ruff: noqa: E501  (case tables: one case a line reads better than wrapped calls)
"""Write the fresh case files (``fresh_credentials.jsonl``, ``fresh_pii.jsonl``).

Written after the held-out files had been scored and the misses they showed were fixed, so that the figures
after those fixes come from cases the detectors were not changed for; scored once. Same line format as
``make_heldout.py``.

    .venv/bin/python benchmarks/detectors/make_fresh.py
"""

from __future__ import annotations

import base64
import string
from functools import partial
from pathlib import Path

from casegen import ALNUM, URLSAFE, Cases, Gen, spaced, write

HERE = Path(__file__).resolve().parent
UP = string.ascii_uppercase + string.digits


def credentials() -> list[dict[str, str]]:
    g = Gen("fresh-credentials")
    cases = Cases()
    add = cases.credential

    add("secret", "aws_secret_key_bare", f"- {g.s(ALNUM + '/+', 40)}", "tag")
    add(
        "secret",
        "aws_pair_prose",
        f"Key id AKIA{g.s(UP, 16)} with secret {g.s(ALNUM + '/+', 40)} for the backup bucket",
    )
    add("secret", "azure_key_quoted", f"storage key is '{g.b64(64)}'")
    add("secret", "gh_token_url", f"https://x-access-token:ghs_{g.s(ALNUM, 36)}@github.com/acme/app.git")
    add("secret", "gitlab_deploy", f"deploy token gldt-{g.s(URLSAFE, 20)}")
    add(
        "secret",
        "slack_user",
        f"xoxp-{g.s(string.digits, 12)}-{g.s(string.digits, 12)}-{g.s(string.digits, 13)}-{g.hex(32)}",
        "metadata",
        "slack",
    )
    add(
        "secret",
        "slack_webhook_prose",
        f"Our #ops channel webhook is https://hooks.slack.com/services/T{g.s(UP, 9)}/B{g.s(UP, 11)}/{g.s(ALNUM, 24)} — keep it private",
    )
    add(
        "secret",
        "discord_webhook_ptb",
        f"https://ptb.discord.com/api/webhooks/{g.s(string.digits, 18)}/{g.s(URLSAFE, 68)}",
        "metadata",
        "hook",
    )
    add("secret", "stripe_live", f"use sk_live_{g.s(ALNUM, 34)} for the charge")
    add("secret", "openai_in_code", f'client = OpenAI(api_key="sk-proj-{g.s(URLSAFE, 100)}")')
    add("secret", "anthropic_env", f"export ANTHROPIC_API_KEY='sk-ant-api03-{g.s(URLSAFE, 93)}AA'")
    add("secret", "gcp_key_json", f'{{"apiKey": "AIza{g.s(URLSAFE, 35)}", "projectId": "acme"}}')
    add("secret", "jwt_cookie", f"Cookie: session={g.jwt({'uid': 77, 'adm': True})}")
    add("secret", "pem_ec", "here's the key\n" + g.pem("EC PRIVATE KEY", 120))
    add(
        "secret",
        "postgres_in_prose",
        f"connect with postgresql://analyst:{g.s(ALNUM, 11)}@warehouse.acme.internal/dw and run the report",
    )
    add("secret", "mysql_url", f"mysql://wp:{g.s(ALNUM, 9)}#{g.s(ALNUM, 3)}@127.0.0.1/wordpress")
    add("secret", "password_said_two", "The admin password for the staging box is Walrus_Banjo_71.")
    add("secret", "password_colon_space", "Wi-Fi: CabinNet / password: meadowlark2020")
    add("secret", "password_yaml", "  password: 'Q9!zr8Lt'")
    add("secret", "password_json", '{"username": "svc", "password": "vT4#mPq92"}')
    add("secret", "password_plain_word_end", "Gym locker: the password is tangerine.")
    add("secret", "password_metadata_bare", "Tr!cky-Lemon-5", "metadata", "wifi_password")
    add("secret", "passphrase", "passphrase: correct horse battery staple 77")
    add("secret", "pin_sentence", "The PIN for the debit card is 2468.")
    add("secret", "pin_metadata_int", "9051", "metadata", "card_pin")
    add("secret", "garage_code", "garage code 55821")
    add("secret", "bearer_prose", f"send it with Bearer {g.s(ALNUM, 48)}")
    add("secret", "api_key_prose", f"The weather API key is {g.s(ALNUM, 32)}")
    add("secret", "client_secret_json", f'"client_secret": "{g.s(URLSAFE, 35)}"')
    add("secret", "hf_token_cli", f"huggingface-cli login --token hf_{g.s(ALNUM, 34)}")
    add("secret", "npm_rc", f"//registry.npmjs.org/:_authToken=npm_{g.s(ALNUM, 36)}")
    add("secret", "sendgrid_tag", f"SG.{g.s(URLSAFE, 22)}.{g.s(URLSAFE, 43)}", "tag")
    add("secret", "twilio_sk", f"SK{g.hex(32)}", "metadata", "twilio")
    add("secret", "telegram", f"bot token {g.s(string.digits, 9)}:AA{g.s(URLSAFE, 33)}")
    add("secret", "vault_token_tag", f"hvs.{g.s(URLSAFE, 92)}", "tag")
    add("secret", "databricks", f"dapi{g.hex(32)}", "metadata", "token")
    add("secret", "basic_curl", f"curl -u admin:{g.s(ALNUM, 10)} https://jenkins.acme.internal/api/json")
    add(
        "secret",
        "teams_hook",
        f"https://acme.webhook.office.com/webhookb2/{g.uuid()}@{g.uuid()}/IncomingWebhook/{g.hex(32)}/{g.uuid()}/V2{g.s(ALNUM, 44)}",
        "metadata",
        "teams",
    )
    add(
        "secret",
        "azure_sas_conn",
        f"SharedAccessSignature=sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-12-31&sig={g.b64(32).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}",
    )
    add(
        "secret",
        "servicebus",
        f"Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={g.b64(32)}",
    )
    add("secret", "docker_login", f"docker login -u ci -p {g.s(ALNUM, 16)} registry.acme.example")
    add("secret", "ssh_password_prose", f"root password on the old NAS: {g.s(ALNUM, 8)}!")

    near = partial(add, "near_miss")
    near("sha256_tag", g.hex(64), "tag")
    near("sha1_meta", g.hex(40).upper(), "metadata", "digest")
    near("commit_prose", f"Reverted {g.hex(10)}; the bisect landed on {g.hex(40)}.")
    near("uuid_meta", g.uuid(), "metadata", "session_id")
    near("prose_password_1", "How do I change the password on the router again?")
    near("prose_password_2", "The password is stored in 1Password under 'Home'.")
    near("prose_password_3", "Password policy: 14 characters minimum, rotated yearly.")
    near("prose_password_4", "my password is too long for their form")
    near("prose_pin_1", "The PIN reader at the door is broken again.")
    near("prose_pin_2", "GPIO pin 17 drives the relay.")
    near("prose_token_1", "The model has a context window of 200000 tokens.")
    near("prose_secret_1", "Santa's secret: the cookies were store-bought.")
    near("placeholder_1", "password: <enter password>")
    near("placeholder_2", "API_KEY=<your-api-key>")
    near("placeholder_3", "token = '...'")
    near("placeholder_4", "Authorization: Bearer $TOKEN")
    near("placeholder_5", "mongodb://<user>:<password>@host:27017")
    near("placeholder_6", "aws_secret_access_key = <SECRET>")
    near("placeholder_7", "PIN: XXXX")
    near("base64_text", base64.b64encode(b"Dinner at 7? I'll bring dessert and the board game.").decode())
    near("base64_json", "eyJldmVudCI6ICJjbGljayIsICJwYWdlIjogIi9ob21lIn0=")
    near(
        "long_url",
        "https://www.example-shop.com/products/kitchen/cast-iron-skillet-12-inch-preseasoned?ref=homepage_banner",
    )
    near("version", "node v20.11.1, npm 10.2.4, typescript 5.4.0-beta")
    near("path", "C:\\Users\\Ann\\Documents\\Taxes2025\\ReceiptsScannedFromPhone")
    near("cert_pem", g.pem("CERTIFICATE", 400))
    near("ed25519_pub", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.s(ALNUM + '+/', 43)} laptop")
    near("youtube", f"https://video.example.org/watch?v={g.s(URLSAFE, 11)}&list=PL{g.s(URLSAFE, 32)}")
    near("camel", "AbstractBeanFactoryAwareAdvisingPostProcessor2")
    return cases.rows


def pii() -> list[dict[str, str]]:
    g = Gen("fresh-pii")
    cases = Cases()
    hit, near = cases.pii, cases.near_pii

    hit("email", "priya.k@hospital.example.in", "Dr Priya's address is priya.k@hospital.example.in, she replies fast.")
    hit("email", "TEAM@EXAMPLE.NET", "WRITE TO TEAM@EXAMPLE.NET")
    for region, value, text in [
        ("US", "(718) 555-0166", "Brooklyn store: (718) 555-0166"),
        ("US", "+1-202-555-0178", "DC line +1-202-555-0178"),
        ("GB", "07700 900982", "my mobile is 07700 900982"),
        ("GB", "020 3123 4567", "Switchboard 020 3123 4567 (ask for Tom)"),
        ("DE", "+49 (0)30 2345 6789", "Tel.: +49 (0)30 2345 6789"),
        ("DE", "0152 3456 7890", "erreichbar unter 0152 3456 7890"),
        ("FR", "04 91 23 45 67", "Cabinet à Marseille : 04 91 23 45 67"),
        ("FR", "+33 (0)6 98 76 54 32", "Portable +33 (0)6 98 76 54 32"),
        ("IN", "+91 99887 76655", "Ravi: +91 99887 76655"),
        ("IN", "080-2345 6789", "Bangalore office 080-2345 6789"),
        ("BR", "(31) 3222-1100", "Belo Horizonte (31) 3222-1100"),
        ("BR", "+55 (11) 99123-4567", "whats +55 (11) 99123-4567"),
        ("JP", "045-123-4567", "横浜 045-123-4567"),
        ("JP", "080-9876-5432", "my keitai 080-9876-5432"),
        ("AU", "+61 412 345 678", "Aussie mobile +61 412 345 678"),
        ("AU", "(08) 9123 4567", "Perth office (08) 9123 4567"),
        ("ES", "+34 654 32 10 98", "Móvil: +34 654 32 10 98"),
        ("ES", "933 45 67 89", "Barcelona 933 45 67 89"),
        ("IT", "+39 06 1234 5678", "Roma +39 06 1234 5678"),
        ("IT", "345 678 9012", "numero di Marco 345 678 9012"),
        ("MX", "33 3615 4000", "oficina Guadalajara 33 3615 4000"),
        ("MX", "+52 1 55 1234 5678", "cel +52 1 55 1234 5678"),
        ("NL", "010 123 4567", "Rotterdam 010 123 4567"),
        ("NL", "+31 (0)6 1234 5678", "mobiel +31 (0)6 1234 5678"),
    ]:
        hit("phone", value, text, region)
    ib = [
        g.iban("IT", "X0542811101" + g.s(string.digits, 12)),
        g.iban("NL", "INGB" + g.s(string.digits, 10)),
        g.iban("DE", "10010010" + g.s(string.digits, 10)),
    ]
    hit("iban", spaced(ib[0]), f"bonifico su {spaced(ib[0])} entro venerdì")
    hit("iban", ib[1].lower(), f"my dutch account: {ib[1].lower()}")
    hit(
        "iban",
        "-".join(ib[2][i : i + 4] for i in range(0, len(ib[2]), 4)),
        "IBAN " + "-".join(ib[2][i : i + 4] for i in range(0, len(ib[2]), 4)),
    )
    c = [g.card("4", 16), g.card("5", 16), g.card("37", 15)]
    hit("card", spaced(c[0]), f"my visa is {spaced(c[0])}, expiry 04/29")
    hit("card", c[1], f"card:{c[1]}")
    hit("card", f"{c[2][:4]}-{c[2][4:10]}-{c[2][10:]}", f"Amex {c[2][:4]}-{c[2][4:10]}-{c[2][10:]}")
    hit("ssn", "345-67-8912", "Employee SSN: 345-67-8912")
    hit("ssn", "512334455", "ssn 512334455")
    hit("ip", "198.51.100.23", "Login from 198.51.100.23 at 03:12")
    hit("ip", "2001:db8:1234::5", "static v6 2001:db8:1234::5,")
    hit("nino", "NH 65 43 21 A", "HMRC letter for NH 65 43 21 A")

    near("version_quad", "Driver 31.0.15.3623 and firmware 2.1.0.7 installed.")
    near("version_quad2", "Updated the router to 1.4.2.9 last night.")
    near("barcode", "GTIN 00012345678905 on the pallet")
    near("barcode2", "EAN13 5000112637922")
    near("order", "Order no. 1122334455 is delayed")
    near("order2", "Booking ref 8843219075 for the hotel")
    near("date", "Invoice dated 2026.02.14, due 14/03/2026")
    near("time", "Doors 19:30, show 20:15, ends 22:45")
    near("price", "Total 2 499,90 zł (incl. 23% VAT)")
    near("phone_like_count", "Downloads: 12 345 678 last year")
    near("isbn", "ISBN-13: 978-0-306-40615-7")
    near("zip", "Mail it to 10115 Berlin or ZIP 02139-4307")
    near("coordinates", "GPS 40.7128, -74.0060")
    near("ratio", "Aspect 1920x1080 at 59.94 fps")
    near("ids", "Ticket #4471923, case 00012345")
    return cases.rows


def main() -> None:
    write(HERE, {"fresh_credentials.jsonl": credentials(), "fresh_pii.jsonl": pii()})


if __name__ == "__main__":
    main()
