# ruff: noqa: E501, RUF001  (case tables: one case a line; the dashes are the text's own)
"""Write the second fresh case files (``fresh2_credentials.jsonl``, ``fresh2_pii.jsonl``).

Written blind (without reading the detectors) after the fresh set's misses were fixed, and scored once. Formats,
providers, regions and wordings were chosen to differ from ``make_heldout.py`` and ``make_fresh.py`` where
possible. Same line format as those files.

    .venv/bin/python benchmarks/detectors/make_fresh2.py
"""

from __future__ import annotations

import base64
import json
import string
from functools import partial
from pathlib import Path

from casegen import ALNUM, URLSAFE, Cases, Gen, spaced, write

HERE = Path(__file__).resolve().parent
UP = string.ascii_uppercase + string.digits
LOW = string.ascii_lowercase + string.digits
DIG = string.digits
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def b64u(obj: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def credentials() -> list[dict[str, str]]:
    g = Gen("fresh2-credentials")
    cases = Cases()
    secret = partial(cases.credential, "secret")
    near = partial(cases.credential, "near_miss")

    # --- secrets in content -------------------------------------------------------------------------------
    secret(
        "aws_temp_keypair_cli",
        f"aws configure set aws_access_key_id ASIA{g.s(UP, 16)} --profile sso-tmp && aws configure set aws_secret_access_key {g.s(ALNUM + '/+', 40)} --profile sso-tmp",
    )
    secret(
        "alibaba_accesskey_env",
        f"ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI5t{g.s(ALNUM, 18)}\nALIBABA_CLOUD_ACCESS_KEY_SECRET={g.s(ALNUM, 30)}",
    )
    secret(
        "tencent_secret_chat",
        f"[support] agent: please paste the SecretId and SecretKey so I can check the bucket ACL\n[me] AKID{g.s(ALNUM, 32)} / {g.s(ALNUM, 32)}",
    )
    secret(
        "cloudflare_origin_ca_key",
        f'curl -X POST https://api.cloudflare.com/client/v4/certificates -H "X-Auth-User-Service-Key: v1.0-{g.hex(24)}-{g.hex(146)}"',
    )
    secret(
        "okta_ssws_header",
        f'curl -s -H "Authorization: SSWS 00{g.s(URLSAFE, 40)}" https://acme.okta.example/api/v1/users?limit=25',
    )
    secret(
        "braintree_access_token",
        f"README (do not commit): BRAINTREE_ACCESS_TOKEN=access_token$production${g.s(LOW, 16)}${g.hex(32)}",
    )
    secret(
        "twilio_sid_token_url",
        f"[ci] 12:04:31 POST https://AC{g.hex(32)}:{g.hex(32)}@api.twilio.com/2010-04-01/Accounts/Messages.json -> 201",
    )
    secret(
        "brevo_api_key",
        f"note to self: transactional mail now goes through Brevo, api-key xkeysib-{g.hex(64)}-{g.s(ALNUM, 16)}",
    )
    secret("slack_app_level_token", f"SLACK_APP_TOKEN=xapp-1-A{g.s(UP, 10)}-{g.s(DIG, 13)}-{g.hex(64)}")
    secret(
        "google_chat_webhook",
        f"## Alerts\nThe bot posts to `https://chat.googleapis.com/v1/spaces/AAAA{g.s(URLSAFE, 7)}/messages?key=AIzaSy{g.s(URLSAFE, 33)}&token={g.s(URLSAFE, 43)}%3D`",
    )
    secret(
        "ifttt_maker_key", f"curl -X POST https://maker.ifttt.com/trigger/front_door_open/with/key/{g.s(URLSAFE, 22)}"
    )
    secret("eth_private_key", f"MetaMask private key for the testnet-then-mainnet wallet: 0x{g.hex(64)}")
    secret(
        "bip39_seed_phrase",
        "Ledger recovery phrase: orbit lunar velvet pudding absorb ribbon gallery shrimp dignity harvest noble tiger",
    )
    secret("wireguard_private_key", f"[Interface]\nPrivateKey = {g.b64(32)}\nAddress = 10.8.0.2/32\nDNS = 1.1.1.1")
    secret(
        "putty_ppk",
        f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ann@desk\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI{g.s(ALNUM + '+/', 43)}\nPrivate-Lines: 1\n{g.b64(36)}\nPrivate-MAC: {g.hex(64)}",
    )
    secret(
        "pkcs8_encrypted_pem",
        "prod signing key, passphrase is on the yubikey card:\n" + g.pem("ENCRYPTED PRIVATE KEY", 700),
    )
    secret(
        "kafka_sasl_jaas",
        f'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="orders-svc" password="{g.s(ALNUM, 18)}";',
    )
    secret(
        "jdbc_password_param",
        f"spring.datasource.url=jdbc:mysql://db.acme.internal:3306/shop?user=app&password={g.s(ALNUM, 12)}&useSSL=true",
    )
    secret("amqp_url", f"CELERY_BROKER_URL=amqps://worker:{g.s(ALNUM, 16)}@rabbit.acme.internal:5671/prod")
    secret("smtp_url", f"EMAIL_URL=smtp+tls://alerts%40acme.example:{g.s(ALNUM, 14)}@smtp.acme.example:587")
    secret("windows_net_use", r"net use Z: \\fileserver\finance /user:ACME\ann.b Sp1ce-Rack-42!")
    secret("mysql_cli_password", f"mysql -h 10.1.4.20 -u root -p'{g.s(ALNUM, 11)}' shop < dump.sql")
    secret("pgpass_line", f"added to ~/.pgpass: db.acme.internal:5432:*:reporting:{g.s(ALNUM, 14)}")
    secret("voicemail_pin_sentence", "Voicemail PIN is 80317 if you need to check messages while I'm away.")
    secret("ipad_passcode_sentence", "Mum's iPad passcode is 190283, she keeps forgetting it.")
    secret("wifi_qr_payload", "WIFI:T:WPA;S:Casa-Lopez;P:girasol-azul-88;;")
    secret(
        "recovery_codes",
        "GitHub recovery codes (printed copy in the safe): 4f2a1-9c3d7 b81e0-22fa6 07c9d-e1b34 5aa62-f0d18",
    )
    secret(
        "gpg_passphrase_cli", "gpg --batch --pinentry-mode loopback --passphrase 'n0rth-Star-Quill' -d backup.tar.gpg"
    )
    secret(
        "helm_set_password", f"helm install db bitnami/postgresql --set auth.postgresPassword={g.s(ALNUM, 12)} -n data"
    )
    secret(
        "kubeconfig_token",
        f"users:\n- name: ci-bot\n  user:\n    token: {g.jwt({'iss': 'kubernetes/serviceaccount', 'sub': 'system:serviceaccount:ci:deployer'})}",
    )
    secret(
        "support_chat_password",
        "Support: to verify the account, what's the current password?\nMe: it's Marigold*Fence19, please reset it after",
    )
    secret("docker_run_env_password", f"docker run -d -e MYSQL_ROOT_PASSWORD={g.s(ALNUM, 14)} -p 3306:3306 mysql:8.4")
    secret("ansible_become_pass", "[web]\nweb01.acme.internal ansible_user=deploy ansible_become_pass=Qu4rtz_Lantern_8")
    secret(
        "gradle_keystore_passwords",
        "# gradle.properties\nRELEASE_STORE_FILE=release.jks\nRELEASE_STORE_PASSWORD=otter-Mango-2231\nRELEASE_KEY_PASSWORD=otter-Mango-2231",
    )
    secret("vault_unseal_key", f"Unseal Key 1: {g.b64(33)}\nInitial Root Token: hvs.{g.s(URLSAFE, 24)}")
    secret("datadog_keys_env", f"DD_API_KEY={g.hex(32)}\nDD_APP_KEY={g.hex(40)}")

    # --- secrets in metadata ------------------------------------------------------------------------------
    secret("gitlab_runner_token", f"glrt-{g.s(URLSAFE, 20)}", "metadata", "runner_token")
    secret("bitbucket_app_password", f"ATBB{g.s(ALNUM, 28)}{g.hex(8).upper()}", "metadata", "bitbucket")
    secret("rubygems_api_key", f"rubygems_{g.hex(48)}", "metadata", "gem_host_api_key")
    secret("nuget_api_key", f"oy2{g.s(LOW, 43)}", "metadata", "nuget")
    secret("dockerhub_pat", f"dckr_pat_{g.s(URLSAFE, 27)}", "metadata", "dockerhub")
    secret("replicate_token", f"r8_{g.s(ALNUM, 37)}", "metadata", "replicate")
    secret("openrouter_key", f"sk-or-v1-{g.hex(64)}", "metadata", "openrouter")
    secret("netlify_pat", f"nfp_{g.s(ALNUM, 36)}", "metadata", "netlify_auth_token")
    secret(
        "mapbox_secret_token",
        f"sk.{b64u({'u': 'acme-maps', 'a': g.s(LOW, 25)})}.{g.s(URLSAFE, 22)}",
        "metadata",
        "mapbox",
    )
    secret("razorpay_key_pair", f"rzp_live_{g.s(ALNUM, 14)} / {g.s(ALNUM, 24)}", "metadata", "razorpay")
    secret("auth0_client_secret", g.s(URLSAFE, 64), "metadata", "auth0_client_secret")
    secret("memorable_word", "Thistledown", "metadata", "bank_memorable_word")
    secret("git_credentials_gho", f"https://ann:gho_{g.s(ALNUM, 36)}@github.com", "metadata", "git_credential")

    # --- secrets as tags (no spaces: a tag is one token) ----------------------------------------------------
    secret("perplexity_key", f"pplx-{g.s(ALNUM, 48)}", "tag")
    secret("xai_key", f"xai-{g.s(ALNUM, 80)}", "tag")
    secret("figma_pat", f"figd_{g.s(URLSAFE, 40)}", "tag")
    secret("pulumi_token", f"pul-{g.hex(40)}", "tag")
    secret("buildkite_token", f"bkua_{g.hex(40)}", "tag")
    secret("doppler_token", f"dp.pt.{g.s(ALNUM, 43)}", "tag")
    secret("supabase_access_token", f"sbp_{g.hex(40)}", "tag")
    secret("crates_io_token", f"cio{g.s(ALNUM, 32)}", "tag")

    # --- secrets inside a source's name ---------------------------------------------------------------------
    secret("lark_bot_webhook", f"https://open.feishu.cn/open-apis/bot/v2/hook/{g.uuid()}", "source")
    secret("mattermost_webhook", f"https://chat.acme.example/hooks/{g.s(LOW, 26)}", "source")
    secret("elasticsearch_url_password", f"https://elastic:{g.s(ALNUM, 16)}@search.acme.internal:9200/_bulk", "source")
    secret("ftp_url_password", f"ftp://uploader:{g.s(ALNUM, 12)}@ftp.acme.example/incoming", "source")
    secret("airtable_pat", f"pat{g.s(ALNUM, 14)}.{g.hex(64)}", "source")
    secret("notion_token", f"ntn_{g.s(DIG, 11)}{g.s(ALNUM, 35)}", "source")
    secret("terraform_cloud_token", f"{g.s(ALNUM, 14)}.atlasv1.{g.s(ALNUM, 67)}", "source")
    secret("planetscale_password", f"pscale_pw_{g.s(URLSAFE, 43)}", "source")
    secret("artifactory_api_key", f"AKCp{g.s(ALNUM, 69)}", "source")

    # --- near misses in content -----------------------------------------------------------------------------
    bcrypt = "./" + string.ascii_letters + string.digits
    near(
        "bcrypt_prose",
        f"bcrypt output looks like $2b$12${g.s(bcrypt, 53)}: the 12 is the cost and the next 22 characters are the salt.",
    )
    near("md5_etag", f'HTTP/1.1 304 Not Modified\nETag: "{g.hex(32)}"')
    near("sha512_checksum", f"{g.hex(128)}  ubuntu-26.04-desktop-amd64.iso")
    near(
        "lockfile_integrity",
        f'"resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n"integrity": "sha512-{g.b64(64)}"',
    )
    near(
        "aws_request_id",
        f"An error occurred (AccessDenied) when calling the PutObject operation. RequestId: {g.uuid()}",
    )
    near(
        "stripe_request_id",
        f"Stripe support asked for the request id, it's req_{g.s(ALNUM, 14)} from the failed refund.",
    )
    near("stripe_publishable_key", f"<script>const stripe = Stripe('pk_live_{g.s(ALNUM, 99)}');</script>")
    near(
        "mapbox_public_token",
        f"mapboxgl.accessToken = 'pk.{b64u({'u': 'acme-maps', 'a': g.s(LOW, 25)})}.{g.s(URLSAFE, 22)}';",
    )
    near("twilio_account_sid_alone", f"Account SID AC{g.hex(32)} (the auth token lives in the vault, not here)")
    near("gpg_key_id", f"gpg --keyserver keys.openpgp.org --recv-keys 0x{g.hex(16).upper()}")
    near(
        "ssh_host_fingerprint",
        f"ED25519 key fingerprint is SHA256:{g.b64(32).rstrip('=')}.\nContinue connecting to this host (yes/no)?",
    )
    near("rsa_public_pem", "server public key:\n" + g.pem("PUBLIC KEY", 294))
    near("pgp_public_block", g.pem("PGP PUBLIC KEY BLOCK", 450))
    near("age_recipient", f"encrypt the export to my age recipient age1{g.s(BECH32, 58)}")
    near(
        "wireguard_peer_public",
        f"[Peer]\nPublicKey = {g.b64(32)}\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.acme.example:51820",
    )
    near("eth_address", f"send the refund to 0x{g.hex(40)} on Base, not mainnet")
    near("btc_address", f"donations: bc1q{g.s(BECH32, 38)}")
    near("tx_hash", f"tx 0x{g.hex(64)} confirmed in block 19,882,011")
    near("placeholder_angle_token", "curl -H 'Authorization: token <your-token>' https://api.github.com/user")
    near("placeholder_caps", "STRIPE_SECRET_KEY=YOUR_API_KEY")
    near("placeholder_changeme", "Do not ship with the default password 'changeme'; the installer refuses it anyway.")
    near("placeholder_x_aws", "AWS_SECRET_ACCESS_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
    near("redacted_display", "After saving, Slack only shows the token as xoxb-••••••••-a3F9.")
    near("template_reference", 'db_password: "{{ vault_db_password }}"')
    near("prose_rotation", "Rotate the Stripe secret key before the audit on Friday.")
    near("prose_seed_phrase", "Never type your seed phrase into a website, whatever the 'support' person says.")
    near("prose_passphrase", "A passphrase of four random words beats a short complex password.")
    near("prose_tokens_count", "We burned 3.2 million tokens on the eval run last night.")
    near("demo_licence_example", "Example licence key from the vendor docs (trial build only): DEMO-7Q2K-EXAMPLE-0000")
    near("go_pseudo_version", "require golang.org/x/net v0.0.0-20261103141523-9f8e7d6c5b4a")
    near(
        "base64_csv",
        "steps.csv as base64: "
        + base64.b64encode(b"date,steps\n2026-12-01,8042\n2026-12-02,10311\n2026-12-03,7720\n").decode(),
    )
    near("k8s_secret_ref", "envFrom:\n  - secretRef:\n      name: db-credentials")
    near("password_regex", r"Validation rule: password must match ^(?=.*\d)(?=.*[A-Z]).{12,}$")
    near("kms_key_arn", f"arn:aws:kms:eu-west-1:111122223333:key/{g.uuid()}")

    # --- near misses in metadata, tags and sources ------------------------------------------------------
    near("commit_meta", g.hex(40), "metadata", "commit")
    near("request_id_meta", g.uuid(), "metadata", "request_id")
    near("host_key_meta", f"SHA256:{g.b64(32).rstrip('=')}", "metadata", "host_key")
    near("build_id_meta", f"2026.12.06-r3+g{g.hex(7)}", "metadata", "build")
    near("stripe_customer_meta", f"cus_{g.s(ALNUM, 14)}", "metadata", "stripe_customer")
    near("placeholder_meta", "<your-api-key>", "metadata", "api_key")
    near("short_sha_tag", f"sha-{g.hex(7)}", "tag")
    near("uuid_tag", g.uuid(), "tag")
    near("semver_tag", "v2.14.0-rc.3", "tag")
    near("md5_tag", f"md5:{g.hex(32)}", "tag")
    near("ci_run_source", f"github-actions/run/{g.s(DIG, 10)}", "source")
    near("s3_object_source", f"s3://acme-backups/2026/12/06/{g.uuid()}.tar.gz", "source")
    near("docs_url_source", "https://docs.example.com/api/authentication#tokens", "source")
    near("slack_permalink_source", f"slack/C04{g.s(UP, 8)}/p{g.s(DIG, 16)}", "source")
    return cases.rows


def ean_digit(body: str) -> str:
    """Check digit of an EAN-13 / UPC-A (GTIN) body."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return str((10 - total % 10) % 10)


def isbn10_digit(body: str) -> str:
    total = sum((10 - i) * int(d) for i, d in enumerate(body))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def pii() -> list[dict[str, str]]:
    g = Gen("fresh2-pii")
    cases = Cases()
    hit, near = cases.pii, cases.near_pii

    for value, text in [
        ("o'connell@example.org", "Siobhán's address is o'connell@example.org (yes, with the apostrophe)."),
        (
            "first.last+newsletters@lists.example.net",
            "I sign up with first.last+newsletters@lists.example.net so I can filter.",
        ),
        ("x@example.com", "His whole address is just x@example.com, easy to remember."),
        ("ann_marie-92@mail.example", "reply to ann_marie-92@mail.example before noon"),
        ("ann.lee@example.com", "From: Ann Lee <ann.lee@example.com>"),
        ("Billing.Dept@Example.Org", "Click mailto:Billing.Dept@Example.Org?subject=Refund to ask for the refund."),
        ("1234567890@example.net", "The pager gateway address is 1234567890@example.net."),
        (
            "j.doe@eu-west.mail.example.org",
            "Forwarding set up to j.doe@eu-west.mail.example.org; tell me if it bounces.",
        ),
    ]:
        hit("email", value, text)

    for region, value, text in [
        ("US", "212.555.0143", "Call Dana at 212.555.0143 about the sublet."),
        ("US", "+1 (415) 555-0199", "SF office: +1 (415) 555-0199, ext. 12"),
        ("CA", "(416) 555-0123", "The Toronto clinic is (416) 555-0123."),
        ("CA", "+1 604 555 0175", "Vancouver cousin: +1 604 555 0175"),
        ("GB", "+44 (0)7700 900123", "Text Rhys on +44 (0)7700 900123 when you're outside."),
        ("GB", "01632 960555", "Landline at the cottage is 01632 960555."),
        ("AU", "+61 491 570 157", "Mia's Aussie number +61 491 570 157"),
        ("AU", "0491 570 158", "plumber in Newtown: 0491 570 158"),
        ("IE", "087 123 4567", "Ciarán's mobile is 087 123 4567."),
        ("IE", "+353 1 234 5678", "Dublin office +353 1 234 5678"),
        ("SE", "070-123 45 67", "Ring Linnea on 070-123 45 67 about the boat."),
        ("SE", "+46 8 123 456 78", "Stockholm reception: +46 8 123 456 78"),
        ("PL", "512 345 678", "Mój numer to 512 345 678, dzwoń po 17."),
        ("PL", "+48 22 123 45 67", "Biuro w Warszawie +48 22 123 45 67"),
        ("ZA", "082 123 4567", "Thabo's cell: 082 123 4567"),
        ("ZA", "+27 21 123 4567", "Cape Town guesthouse +27 21 123 4567"),
        ("NZ", "021 123 4567", "Aroha said to text 021 123 4567."),
        ("NZ", "+64 9 123 4567", "Auckland depot +64 9 123 4567"),
        ("KR", "010-1234-5678", "지민 휴대폰 010-1234-5678"),
        ("KR", "+82 2-123-4567", "Seoul branch +82 2-123-4567"),
        ("SG", "9123 4567", "Wei Ling's HP is 9123 4567, WhatsApp ok."),
        ("SG", "+65 6123 4567", "Clinic at Novena: +65 6123 4567"),
        ("CH", "044 123 45 67", "Praxis Zürich 044 123 45 67"),
        ("CH", "+41 79 123 45 67", "Handy von Lukas: +41 79 123 45 67"),
        ("BE", "0470 12 34 56", "GSM van Jeroen: 0470 12 34 56"),
        ("BE", "+32 2 123 45 67", "Bureau Bruxelles +32 2 123 45 67"),
        ("PT", "912 345 678", "O telemóvel da Inês é 912 345 678."),
        ("PT", "+351 21 123 4567", "Escritório em Lisboa: +351 21 123 4567"),
        ("AT", "0664 1234567", "Erreichbar unter 0664 1234567 ab Montag."),
        ("AT", "+43 1 2345678", "Wiener Büro +43 1 2345678"),
        ("NO", "412 34 567", "Ring Ingrid på 412 34 567."),
        ("NO", "+47 22 12 34 56", "Oslo-kontoret: +47 22 12 34 56"),
    ]:
        hit("phone", value, text, region)

    ib = {
        "ES": g.iban("ES", "2100" + "0418" + g.s(DIG, 12)),
        "BE": g.iban("BE", g.s(DIG, 12)),
        "CH": g.iban("CH", "00762" + g.s(DIG, 12)),
        "PL": g.iban("PL", g.s(DIG, 24)),
        "IE": g.iban("IE", "AIBK931152" + g.s(DIG, 8)),
        "AT": g.iban("AT", g.s(DIG, 16)),
        "SE": g.iban("SE", g.s(DIG, 20)),
        "NO": g.iban("NO", g.s(DIG, 11)),
    }
    hit("iban", spaced(ib["ES"]), f"Transferencia a {spaced(ib['ES'])}, concepto: alquiler diciembre")
    hit("iban", ib["BE"], f"Gelieve te storten op {ib['BE']} voor 15/12.")
    hit("iban", spaced(ib["CH"]), f"Zahlung bitte auf «{spaced(ib['CH'])}»")
    hit("iban", spaced(ib["PL"]), f"Przelew na konto {spaced(ib['PL'])} do piątku")
    hit("iban", ib["IE"].lower(), f"my irish account is {ib['IE'].lower()} if that's easier")
    hit("iban", spaced(ib["AT"]), f"IBAN: {spaced(ib['AT'])} (Kontoinhaberin M. Huber)")
    hit("iban", spaced(ib["SE"]).lower(), f"betala till {spaced(ib['SE']).lower()} tack")
    hit("iban", ib["NO"], f"Kontonummer (IBAN) {ib['NO']}.")

    visa, mc, amex, disc, jcb, diners, up = (
        g.card("4", 16),
        g.card("2223", 16),
        g.card("34", 15),
        g.card("65", 16),
        g.card("3530", 16),
        g.card("36", 14),
        g.card("62", 19),
    )
    hit("card", spaced(visa), f"Paid the deposit with my visa {spaced(visa)}, exp 11/28")
    hit(
        "card",
        "-".join(mc[i : i + 4] for i in range(0, 16, 4)),
        "new mastercard " + "-".join(mc[i : i + 4] for i in range(0, 16, 4)) + " arrived today",
    )
    hit("card", f"{amex[:4]} {amex[4:10]} {amex[10:]}", f"Corporate Amex: {amex[:4]} {amex[4:10]} {amex[10:]}")
    hit("card", disc, f"discover card {disc} is the backup")
    hit("card", spaced(jcb), f"JCB for the Tokyo trip: {spaced(jcb)}")
    hit(
        "card",
        f"{diners[:4]}-{diners[4:10]}-{diners[10:]}",
        f"Diners Club {diners[:4]}-{diners[4:10]}-{diners[10:]} (expires 2027)",
    )
    hit("card", up, f"UnionPay card number {up} for the supplier in Shenzhen")

    hit("ssn", "412-73-6650", "Her SSN is 412-73-6650, needed for the lease application.")
    hit("ssn", "603-18-2947", "W-4 form: SSN 603-18-2947")
    hit("ssn", "529417836", "my social is 529417836 if the bank asks")
    hit("ssn", "381260594", "SSN (no dashes): 381260594")

    hit("ip", "192.0.2.146", "My home router's public address is 192.0.2.146, whitelist it please.")
    hit("ip", "203.0.113.9", "The camera's stream is at 203.0.113.9:8443 for now.")
    hit("ip", "198.51.100.77", "Failed login for ann from 198.51.100.77 port 52214")
    hit("ip", "2001:0db8:0000:0042:0000:8a2e:0370:7334", "Full address: 2001:0db8:0000:0042:0000:8a2e:0370:7334")
    hit("ip", "2001:db8::17", "Point the app at [2001:db8::17]:8443 instead.")
    hit("ip", "2001:DB8:AC10:FE01::1", "Router WAN v6 is 2001:DB8:AC10:FE01::1 today.")
    hit("ip", "::ffff:192.0.2.128", "The log shows the client as ::ffff:192.0.2.128 again.")

    hit("nino", "PW 83 62 17 C", "My National Insurance number is PW 83 62 17 C.")
    hit("nino", "RB639045C", "NINO RB639045C on the P60")
    hit("nino", "HJ 90 12 45 B", "Payroll needs Tom's NI number: HJ 90 12 45 B")
    hit("nino", "ZR481937A", "ni no. ZR481937A (from the starter form)")

    ean1 = "501234567890"
    ean2 = "400638133393"
    upc = "03600029145"
    near("version_quad", "Windows build 10.0.22631.4602 and Office 16.0.18129.20116 are installed.")
    near("version_quad", "Chrome 131.0.6778.86 fixed the print bug.")
    near("version_quad", "Installed 6.2.9200.16384 of the legacy driver.")
    near("snmp_oid", "Poll OID 1.3.6.1.2.1.1.3.0 for uptime.")
    near("barcode_ean13", f"Barcode on the jar: {ean1}{ean_digit(ean1)}")
    near("barcode_ean13", f"EAN {ean2}{ean_digit(ean2)} rang up twice")
    near("barcode_upc", f"UPC-A {upc}{ean_digit(upc)} on the cereal box")
    near("order", "Order 304-8821974-5521093 was split into two parcels.")
    near("invoice", "Invoice INV/2026/12/00731 is attached.")
    near("purchase_order", "PO 4500098123 approved by finance")
    near("tracking_ups", "UPS tracking 1Z999AA10123456784, out for delivery")
    near("tracking_royal_mail", "Royal Mail tracked: RM482716395GB")
    near("tracking_fedex", "FedEx 7489 2210 5563 arrives Tuesday")
    near("date", "Appointment on 06/12/2026 at the dentist")
    near("date", "Deployed at 2026-12-06T14:30:00Z, rolled back 2026-12-06T15:02:11+01:00")
    near("date", "Lease signed Dec 6, 2026; keys on 06.01.27")
    near("time", "Meeting 14:30–16:45 CET, call-in opens at 14:25")
    near("price", "The sofa was £1,249.00, now £999.99 in the sale.")
    near("price", "Miete CHF 3'450.– plus Nebenkosten CHF 280.–")
    near("price", "Tokyo hotel ¥128,000 for 4 nights")
    near("isbn", f"ISBN 0-306-40615-{isbn10_digit('030640615')}")
    near("isbn", "ISBN 978-1-86197-876-9 (paperback)")
    near("part_number", "Replacement filter part no. 0451-22-7788-B")
    near("part_number", "Bosch brake pads 0 986 494 123 fit the 2019 model")
    near("serial", "S/N 5CG1234XYZ, model 15-dw3000")
    near("measurement", "Room is 4.20 m x 3.85 m, ceiling 2.45 m")
    near("measurement", "Tyres 205/55 R16 91V at 2.3 bar")
    near("postcode", "SW1A 1AA")
    near("postcode", "Ottawa K1A 0B1, Paris 75008, Amsterdam 1012 AB")
    near("sports_score", "Final score 3-1, half-time 1-1, attendance 52,431")
    near("sports_score", "Won 6-4 3-6 7-6(5) 6-2 in 3 h 41 min")
    near("flight", "LH 2024 departs 07:45 from gate B42")
    near("lottery", "Numbers drawn: 04 11 23 35 42 48, bonus 07")
    near("pages", "See pp. 1123-1187 of volume 2")
    near("timestamp_percent", "CPU 93.4% at 2026-12-06 03:14:07")
    return cases.rows


def main() -> None:
    write(HERE, {"fresh2_credentials.jsonl": credentials(), "fresh2_pii.jsonl": pii()})


if __name__ == "__main__":
    main()
