# ruff: noqa: E501  (case tables: one case a line reads better than wrapped calls)
"""Write the development case files (``credentials.jsonl``, ``pii.jsonl``): the detectors are tuned on these.

The same line format as ``make_heldout.py``; every format has at least two instances, in different fields and
sentences.

    .venv/bin/python benchmarks/detectors/make_dev.py
"""

from __future__ import annotations

import base64
import json
import string
from functools import partial
from pathlib import Path

from casegen import ALNUM, B64, URLSAFE, Cases, Gen, write
from make_dev_pii import pii

HERE = Path(__file__).resolve().parent
UP = string.ascii_uppercase + string.digits
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def credentials() -> list[dict[str, str]]:
    g = Gen("dev-credentials")
    cases = Cases()
    add = cases.credential

    def secret(kind: str, *variants: tuple[str, ...]) -> None:
        for variant in variants:
            add("secret", kind, *variant)

    c = "content"
    m = "metadata"
    t = "tag"
    secret("aws_access_key_id", (f"the CI user is AKIA{g.s(UP, 16)}", c), (f"ASIA{g.s(UP, 16)}", t))
    secret("aws_secret_key_bare", (g.s(ALNUM + "/+", 40), m, "secret"), (f"new one: {g.s(ALNUM + '/+', 40)}", c))
    secret(
        "aws_secret_key_labelled",
        (f'aws_secret_access_key: "{g.s(ALNUM + "/+", 40)}"', c),
        (f"AWS_SECRET_ACCESS_KEY={g.s(ALNUM + '/+', 40)}", c),
    )
    secret(
        "aws_session_token",
        (f"aws_session_token = FwoGZXIvYXdzE{g.s(ALNUM + '/+', 280)}", c),
        (f"IQoJb3JpZ2luX2VjE{g.s(ALNUM + '/+', 320)}", m, "sts"),
    )
    secret(
        "azure_storage_connection",
        (f"AccountName=media01;AccountKey={g.b64(64)}", c),
        (f"BlobEndpoint=https://x.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&sig={g.b64(32)}", c),
    )
    secret("azure_storage_key_bare", (g.b64(64), m, "storage"), (f"primary key {g.b64(64)}", c))
    secret(
        "azure_sas_url",
        (
            f"https://files.blob.core.windows.net/in/a.pdf?sp=r&st=2026-01-01&se=2026-02-01&spr=https&sv=2022-11-02&sr=b&sig={g.b64(32).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}",
            c,
        ),
        (f"sas: sv=2021-08-06&ss=bfqt&srt=sco&sp=rwdlacupx&se=2026-09-01T00:00:00Z&sig={g.b64(32)}", c),
    )
    secret(
        "azure_ad_client_secret",
        (f"{g.s(ALNUM, 3)}7Q~{g.s(ALNUM + '_-.~', 31)}", m, "aad"),
        (f"AZURE_CLIENT_SECRET={g.s(ALNUM, 3)}8Q~{g.s(ALNUM + '_-.~', 31)}", c),
    )
    secret("gcp_api_key", (f"AIza{g.s(URLSAFE, 35)}", t), (f"firebase apiKey: 'AIza{g.s(URLSAFE, 35)}'", c))
    secret(
        "gcp_service_account",
        (json.dumps({"type": "service_account", "private_key_id": g.hex(40), "client_id": g.s(string.digits, 21)}), c),
        ('"private_key": "' + g.pem("PRIVATE KEY", 200).replace("\n", "\\n") + '"', c),
    )
    secret(
        "google_oauth_client_secret",
        (f"GOCSPX-{g.s(URLSAFE, 28)}", m, "oauth"),
        (f"web client secret is GOCSPX-{g.s(URLSAFE, 28)}", c),
    )
    secret(
        "google_oauth_access_token",
        (f"access_token=ya29.{g.s(URLSAFE, 120)}", c),
        (f"refresh token 1//0{g.s(URLSAFE, 100)}", c),
    )
    secret("github_pat_classic", (f"ghp_{g.s(ALNUM, 36)}", t), (f"export GH_TOKEN=ghp_{g.s(ALNUM, 36)}", c))
    secret(
        "github_fine_grained",
        (f"token github_pat_11{g.s(UP, 20)}_{g.s(ALNUM, 59)}", c),
        (f"github_pat_11{g.s(UP, 20)}_{g.s(ALNUM, 59)}", m, "gh"),
    )
    secret("github_app_token", (f"gho_{g.s(ALNUM, 36)}", c), (f"refresh ghr_{g.s(ALNUM, 76)}", c))
    secret("gitlab_pat", (f"glpat-{g.s(URLSAFE, 20)}", t), (f"runner token glrt-{g.s(URLSAFE, 20)}", c))
    secret(
        "slack_bot_token",
        (f"xoxb-{g.s(string.digits, 11)}-{g.s(string.digits, 13)}-{g.s(ALNUM, 24)}", m, "slack"),
        (f"SLACK_TOKEN=xoxp-{g.s(string.digits, 11)}-{g.s(string.digits, 11)}-{g.s(string.digits, 13)}-{g.hex(32)}", c),
    )
    secret(
        "slack_webhook",
        (f"https://hooks.slack.com/services/T{g.s(UP, 8)}/B{g.s(UP, 10)}/{g.s(ALNUM, 24)}", m, "hook"),
        (f"webhook: https://hooks.slack.com/services/T{g.s(UP, 10)}/B{g.s(UP, 11)}/{g.s(ALNUM, 24)}", c),
    )
    secret(
        "discord_bot_token",
        (f"N{g.s(ALNUM, 23)}.{g.s(URLSAFE, 6)}.{g.s(URLSAFE, 27)}", t),
        (f"DISCORD_TOKEN=M{g.s(ALNUM, 25)}.{g.s(URLSAFE, 6)}.{g.s(URLSAFE, 38)}", c),
    )
    secret(
        "discord_webhook",
        (f"https://discordapp.com/api/webhooks/{g.s(string.digits, 18)}/{g.s(URLSAFE, 68)}", m, "hook"),
        (f"ping https://discord.com/api/webhooks/{g.s(string.digits, 19)}/{g.s(URLSAFE, 68)} on deploy", c),
    )
    secret(
        "teams_webhook",
        (f"https://outlook.office.com/webhook/{g.uuid()}@{g.uuid()}/IncomingWebhook/{g.hex(32)}/{g.uuid()}", c),
        (
            f"https://contoso.webhook.office.com/webhookb2/{g.uuid()}@{g.uuid()}/IncomingWebhook/{g.hex(32)}/{g.uuid()}/V2{g.s(ALNUM, 40)}",
            m,
            "teams",
        ),
    )
    secret("stripe_secret_key", (f"sk_live_{g.s(ALNUM, 24)}", t), (f"Stripe.api_key = 'sk_live_{g.s(ALNUM, 99)}'", c))
    secret("stripe_test_key", (f"sk_test_{g.s(ALNUM, 24)}", m, "stripe"), (f"staging uses sk_test_{g.s(ALNUM, 99)}", c))
    secret("stripe_restricted_key", (f"rk_live_{g.s(ALNUM, 24)}", c), (f"rk_live_{g.s(ALNUM, 99)}", t))
    secret(
        "stripe_webhook_secret",
        (f"whsec_{g.s(ALNUM, 32)}", m, "stripe_hook"),
        (f"STRIPE_WEBHOOK_SECRET=whsec_{g.s(ALNUM, 32)}", c),
    )
    secret("twilio_api_key", (f"twilio key SK{g.hex(32)}", c), (f"SK{g.hex(32)}", m, "twilio"))
    secret("twilio_auth_token_labelled", (f"auth token: {g.hex(32)}", c), (g.hex(32), m, "twilio_auth_token"))
    secret(
        "sendgrid",
        (f"SG.{g.s(URLSAFE, 22)}.{g.s(URLSAFE, 43)}", t),
        (f"SENDGRID_API_KEY=SG.{g.s(URLSAFE, 22)}.{g.s(URLSAFE, 43)}", c),
    )
    secret("mailchimp", (f"{g.hex(32)}-us6", c), (f"mc key {g.hex(32)}-us19", c))
    secret("mailgun", (f"key-{g.hex(32)}", m, "mg"), (f"MAILGUN_API_KEY=key-{g.hex(32)}", c))
    secret("npm_token", (f"npm_{g.s(ALNUM, 36)}", t), (f"//npm.pkg.github.com/:_authToken={g.uuid()}", c))
    secret(
        "pypi_token",
        (f"pypi-AgEIcHlwaS5vcmc{g.s(URLSAFE, 150)}", m, "pypi"),
        (f"password = pypi-AgENdGVzdC5weXBpLm9yZw{g.s(URLSAFE, 90)}", c),
    )
    secret(
        "openai_project_key",
        (f"sk-proj-{g.s(URLSAFE, 156)}", t),
        (f"OPENAI_API_KEY=sk-proj-{g.s(URLSAFE, 74)}T3BlbkFJ{g.s(URLSAFE, 74)}", c),
    )
    secret(
        "openai_legacy_key",
        (f"sk-{g.s(ALNUM, 20)}T3BlbkFJ{g.s(ALNUM, 20)}", c),
        (f"sk-svcacct-{g.s(URLSAFE, 74)}T3BlbkFJ{g.s(URLSAFE, 74)}", m, "openai"),
    )
    secret(
        "anthropic_key",
        (f"sk-ant-api03-{g.s(URLSAFE, 93)}AA", m, "claude"),
        (f"key sk-ant-admin01-{g.s(URLSAFE, 93)}AA", c),
    )
    secret("huggingface_token", (f"HF_TOKEN=hf_{g.s(ALNUM, 34)}", c), (f"hf_{g.s(ALNUM, 34)}", t))
    secret(
        "telegram_bot_token",
        (f"{g.s(string.digits, 10)}:AA{g.s(URLSAFE, 33)}", m, "tg"),
        (f"TELEGRAM_BOT_TOKEN={g.s(string.digits, 9)}:AA{g.s(URLSAFE, 33)}", c),
    )
    secret(
        "jwt",
        (g.jwt({"sub": "42", "iat": 1760000000}), t),
        (f"Authorization: Bearer {g.jwt({'sub': 'svc-reports', 'scope': 'read'})}", c),
    )
    secret("pem_rsa_private_key", (g.pem("RSA PRIVATE KEY"), c), (g.pem("EC PRIVATE KEY", 120), m, "key"))
    secret(
        "openssh_private_key",
        (g.pem("OPENSSH PRIVATE KEY", 400), c),
        ("id_ed25519:\n" + g.pem("OPENSSH PRIVATE KEY", 300), c),
    )
    secret(
        "pgp_private_key",
        (g.pem("PGP PRIVATE KEY BLOCK", 400), c),
        ("-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + g.b64(300) + "\n-----END ENCRYPTED PRIVATE KEY-----", c),
    )
    secret(
        "putty_key",
        (f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n{g.b64(48)}", c),
        (f"PuTTY-User-Key-File-2: ssh-rsa\nEncryption: aes256-cbc\nPrivate-Lines: 1\n{g.b64(48)}", c),
    )
    secret(
        "postgres_url",
        (f"postgresql://app:{g.s(ALNUM, 16)}@db.internal:5432/app", m, "dsn"),
        (f"psql 'postgres://admin:{g.s(ALNUM, 8)}$!@127.0.0.1/postgres'", c),
    )
    secret(
        "mysql_url",
        (f"mysql://root:{g.s(ALNUM, 12)}@localhost:3306/shop", c),
        (f"jdbc:mysql://db:3306/x?user=app&password={g.s(ALNUM, 12)}", c),
    )
    secret(
        "mongodb_srv",
        (f"mongodb+srv://admin:{g.s(ALNUM, 14)}@cluster1.ab12c.mongodb.net/test", c),
        (f"mongodb://svc:{g.s(ALNUM, 10)}@mongo-0:27017,mongo-1:27017/?replicaSet=rs0", m, "mongo"),
    )
    secret(
        "redis_url",
        (f"redis://default:{g.s(ALNUM, 24)}@redis-1234.cloud.example:16379", c),
        (f"amqp://guest2:{g.s(ALNUM, 12)}@rabbit:5672/%2F", c),
    )
    secret(
        "odbc_connection",
        (f"Data Source=sql01;Initial Catalog=hr;User Id=hr_ro;Password={g.s(ALNUM, 12)};", c),
        (f"Driver={{ODBC Driver 18}};Server=db;Uid=sa;Pwd={g.s(ALNUM, 12)};", c),
    )
    secret("password_labelled", ("password: Tr0ub4dor&3", c), ("Password = correct-horse-battery-staple-9", c))
    secret("password_prose", ("the password for the NAS is marmalade77", c), ("My Netflix password is Skylark!2020", c))
    secret(
        "password_prose_plain_word", ("the wifi password is sunflower", c), ("Mum's laptop password is persimmon", c)
    )
    secret(
        "password_placeholder_word",
        ("password: testudo-Rex5", c),
        ("pwd=newmoon1988", c),
        ("passwd: SecretSquirrel99", c),
        ("password: passport7Lagoon", c),
    )
    secret("password_env", ("DB_PASSWORD=Kf83!mzQ", c), ("MYSQL_ROOT_PASSWORD: kettle-drum-44", c))
    secret("password_metadata", ("Blue-Canary-31", m, "password"), ("summer2024!", m, "wifi_pass"))
    secret(
        "password_other_language",
        ("contraseña: Gato2023!", c),
        ("Passwort: Apfelbaum#7", c),
        ("mot de passe : Soleil-2024", c),
    )
    secret(
        "pin",
        ("my PIN is 4821", c),
        ("PIN: 0592", c),
        ("card pin 7306", c),
        ("the door code is 1947", c),
        ("safe combination 27-14-33", c),
    )
    secret("pin_metadata", ("8264", m, "pin"), ("55190", m, "door_code"))
    secret("cvv", ("CVV 482", c), ("security code: 7391 on the back of the Amex", c))
    secret(
        "bearer_header", (f"Bearer {g.s(ALNUM + '._-', 48)}", m, "auth"), (f"authorization: bearer {g.s(ALNUM, 36)}", c)
    )
    secret(
        "basic_auth_header",
        (f"Authorization: Basic {base64.b64encode(b'admin:Winter2025!').decode()}", c),
        (f"curl -u ops:{g.s(ALNUM, 12)} https://ci.internal/api", c),
    )
    secret(
        "api_key_labelled",
        (f"api_key={g.s(ALNUM, 32)}", c),
        (f"apikey: {g.s(ALNUM, 40)}", c),
        (g.s(ALNUM, 32), m, "api_key"),
    )
    secret("client_secret_labelled", (f"client_secret: {g.s(URLSAFE, 40)}", c), (f"app secret {g.hex(32)}", c))
    secret("shopify_token", (f"shpat_{g.hex(32)}", c), (f"shpss_{g.hex(32)}", m, "shopify"))
    secret("digitalocean_token", (f"dop_v1_{g.hex(64)}", t), (f"DIGITALOCEAN_TOKEN=dop_v1_{g.hex(64)}", c))
    secret("databricks_token", (f"dapi{g.hex(32)}", m, "dbx"), (f"token dapi{g.hex(32)}-2", c))
    secret(
        "atlassian_token",
        (f"ATATT3xFfGF0{g.s(URLSAFE, 170)}={g.hex(8).upper()}", t),
        (f"confluence api token ATATT3xFfGF0{g.s(URLSAFE, 170)}={g.hex(8).upper()}", c),
    )
    secret("square_token", (f"sq0csp-{g.s(URLSAFE, 43)}", c), (f"EAAA{g.s(URLSAFE, 60)}", m, "square"))
    secret("vault_token", (f"hvs.{g.s(URLSAFE, 90)}", t), (f"vault login s.{g.s(ALNUM, 24)}", c))
    secret("linear_key", (f"lin_api_{g.s(ALNUM, 40)}", c), (f"LINEAR_API_KEY=lin_api_{g.s(ALNUM, 40)}", c))
    secret(
        "notion_token",
        (f"ntn_{g.s(string.digits, 11)}{g.s(ALNUM, 35)}", m, "notion"),
        (f"notion secret_{g.s(ALNUM, 43)}", c),
    )
    secret("postman_key", (f"PMAK-{g.hex(24)}-{g.hex(34)}", t), (f"postman api key PMAK-{g.hex(24)}-{g.hex(34)}", c))
    secret("grafana_token", (f"glsa_{g.s(ALNUM, 32)}_{g.hex(8)}", c), (f"glc_{g.s(URLSAFE, 60)}", m, "grafana"))
    secret("newrelic_key", (f"NRAK-{g.s(UP, 27)}", t), (f"license NRII-{g.s(URLSAFE, 32)}", c))
    secret(
        "age_secret_key",
        (f"AGE-SECRET-KEY-1{g.s(B32, 58)}", c),
        (f"# created: 2026-01-01\nAGE-SECRET-KEY-1{g.s(B32, 58)}", c),
    )
    secret(
        "otpauth_uri",
        (f"otpauth://totp/GitHub:ann?secret={g.s(B32, 16)}&issuer=GitHub", c),
        (f"2FA seed {g.s(B32, 32)} for the admin account", c),
    )
    secret(
        "llm_provider_keys",
        (f"gsk_{g.s(ALNUM, 52)}", t),
        (f"REPLICATE_API_TOKEN=r8_{g.s(ALNUM, 37)}", c),
        (f"pplx-{g.s(ALNUM, 48)}", m, "pplx"),
        (f"xai-{g.s(ALNUM, 80)}", c),
    )
    secret(
        "docker_auth",
        ('"auth": "' + base64.b64encode(b"ci-bot:Rk29!vmq").decode() + '"', c),
        (
            '{"auths":{"ghcr.io":{"auth":"' + base64.b64encode(b"ann:ghp_" + g.s(ALNUM, 36).encode()).decode() + '"}}}',
            c,
        ),
    )
    secret(
        "netrc",
        (f"machine github.com login ann password {g.s(ALNUM, 14)}", c),
        (f"machine ftp.example.org\n  login backup\n  password {g.s(ALNUM, 10)}", c),
    )
    secret(
        "firebase_server_key",
        (f"AAAA{g.s(URLSAFE, 7)}:APA91b{g.s(URLSAFE, 134)}", m, "fcm"),
        (f"server_key=AAAA{g.s(URLSAFE, 7)}:APA91b{g.s(URLSAFE, 134)}", c),
    )
    secret(
        "django_secret",
        (f"SECRET_KEY = '{g.s(string.ascii_lowercase + string.digits + '!@#$%^&*(-_=+)', 50)}'", c),
        (f"DJANGO_SECRET_KEY=django-insecure-{g.s(string.ascii_lowercase + string.digits, 50)}", c),
    )
    secret(
        "zapier_webhook",
        (
            f"https://hooks.zapier.com/hooks/catch/{g.s(string.digits, 8)}/{g.s(string.ascii_lowercase + string.digits, 7)}/",
            m,
            "zap",
        ),
        (f"IFTTT: https://maker.ifttt.com/trigger/door/with/key/{g.s(URLSAFE, 22)}", c),
    )
    secret(
        "cli_password_flag",
        (f"mysql -u root -p'{g.s(ALNUM, 10)}' shop", c),
        (f"sshpass -p {g.s(ALNUM, 12)} scp dump.sql ops@backup:", c),
    )
    secret("facebook_token", (f"EAACEdEose0cBA{g.s(ALNUM, 150)}", t), (f"fb access token EAAG{g.s(ALNUM, 180)}", c))
    secret("alibaba_key", (f"LTAI{g.s(ALNUM, 20)}", m, "aliyun"), (f"AccessKeyId LTAI{g.s(ALNUM, 20)}", c))
    secret(
        "sendinblue_key",
        (f"xkeysib-{g.hex(64)}-{g.s(ALNUM, 16)}", c),
        (f"xsmtpsib-{g.hex(64)}-{g.s(ALNUM, 16)}", m, "smtp"),
    )
    secret(
        "mapbox_secret",
        (f"sk.eyJ1Ijoi{g.s(ALNUM, 40)}.{g.s(URLSAFE, 22)}", c),
        (f"MAPBOX_TOKEN=sk.eyJ1Ijoi{g.s(ALNUM, 40)}.{g.s(URLSAFE, 22)}", c),
    )

    near = partial(add, "near_miss")

    near("sha256", g.hex(64), "metadata", "sha256")
    near("sha256", f"checksum: sha256:{g.hex(64)}")
    near("sha512", f"sha512sum {g.hex(128)}")
    near("sha1", f"SHA-1 {g.hex(40).upper()}")
    near("md5", g.hex(32), "tag")
    near("md5", f"MD5 (backup.tar) = {g.hex(32)}")
    near("git_commit", f"git cherry-pick {g.hex(40)}")
    near("git_commit", f"Merge {g.hex(12)} into main; see {g.hex(7)}")
    near("uuid", g.uuid(), "metadata", "trace_id")
    near("uuid", f"trace {g.uuid().upper()} in the logs")
    near("uuid", f"user_id={g.uuid()}")
    near("prose_password", "Forgot my password again, had to use the reset link.")
    near("prose_password", "the password is saved in the family vault")
    near("prose_password", "The password is required for every login and expires after 90 days.")
    near("prose_password", "Password must contain 8 characters, including a number.")
    near("prose_password", "Changed the router password last week.")
    near("prose_password", "Her password is the same as before.")
    near("prose_pin", "The PIN code reset letter arrived from the bank.")
    near("prose_pin", "Connect the LED to pin 13 on the Arduino.")
    near("prose_pin", "Pincode 560001 is Bengaluru GPO.")
    near("prose_token", "Each request costs 1 token per 4 characters.")
    near("prose_token", "Token-based auth replaced sessions in 2023.")
    near("prose_key", "Press the Windows key and type settings.")
    near("prose_key", "The API key is stored in the vault, not in the repo.")
    near("prose_secret", "It's no secret that the launch slipped to March.")
    near("placeholder", "password: your_password")
    near("placeholder", "password = <password>")
    near("placeholder", "API_KEY=<insert key here>")
    near("placeholder", "token: {{ secrets.DEPLOY_TOKEN }}")
    near("placeholder", "aws_secret_access_key = YOUR_SECRET_ACCESS_KEY")
    near("placeholder", "xxxx", "metadata", "password")
    near("placeholder", "password: ********")
    near("placeholder", "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx")
    near("placeholder", "Authorization: Bearer <token>")
    near("placeholder", "postgres://user:password@localhost/db")
    near("placeholder", "mysql://shop:password@db.example/orders")
    near("placeholder", "password: changeme")
    near("placeholder", "PIN: ****")
    near("placeholder", "api_key: REPLACE_ME")
    near("placeholder", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
    near("base64_text", base64.b64encode(b"Please remember to water the plants while I am away in Lisbon.").decode())
    near(
        "base64_text",
        "data: " + base64.b64encode(b"Seven plum trees stand beside the old mill by the river.").decode(),
        "metadata",
        "blob",
    )
    near("long_url", "https://github.com/acme/platform/blob/main/services/billing/internal/invoices/README.md")
    near("long_url", "https://en.wikipedia.org/wiki/Supercalifragilisticexpialidocious_(song)")
    near("long_url", f"https://youtu.be/{g.s(URLSAFE, 11)}?t=42")
    near("long_word", "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz")
    near("camel_identifier", "HTMLInputElementValidationMessageProvider2Factory")
    near("path", "/home/ann/Projects/Website2024/src/components/NavigationBarDropdown.tsx")
    near("version", "v10.2.3.4")
    near("version", "release 2026.03.1-beta.2+sha.5114f85")
    near("ssh_public_key", f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{g.s(B64, 340)} deploy@ci")
    near("public_key", g.pem("PUBLIC KEY", 294))
    near("certificate", g.pem("CERTIFICATE", 700))
    near("data_uri", f"data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ{g.b64(200)}")
    near("sri_hash", f"integrity sha512-{g.b64(64)}")
    near("bitcoin_address", f"donations: bc1q{g.s('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)}")
    near("ethereum_address", f"0x{g.hex(40)}")
    near("stripe_publishable", f"pk_live_{g.s(ALNUM, 24)} goes in the checkout page")
    near("card_not_secret", "Card 4111 1111 1111 1111 expired.")
    near("google_doc_link", f"https://docs.google.com/document/d/1{g.s(URLSAFE, 43)}/edit")
    near("s3_url", "s3://acme-backups/2026/03/postgres/full-dump-2026-03-14T02-00-00Z.sql.gz")
    near("jwt_like_prose", "eyJ is how a base64 JSON object starts.")
    near("env_reference", "password = os.getenv('DB_PASSWORD')")
    near("env_reference", "token: ${{ secrets.GITHUB_TOKEN }}")
    near("k8s_secret_ref", "secretKeyRef: {name: db-creds, key: password}")
    near("ids", f"order {g.s(UP, 10)}, invoice INV-{g.s(string.digits, 8)}")
    near("base32_word", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567 is the base32 alphabet.")
    near("lorem", "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.")
    return cases.rows


def main() -> None:
    write(HERE, {"credentials.jsonl": credentials(), "pii.jsonl": pii()})


if __name__ == "__main__":
    main()
