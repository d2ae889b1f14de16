"""(internal) Credentials recognised by their format alone: a provider's prefix, alphabet and length.

detect-secrets' regex plugins do most of it (AWS, Azure storage, Slack, Stripe, Twilio, SendGrid, Mailchimp,
npm, PyPI, GitLab, GitHub, Telegram, Discord, OpenAI, Square, IBM, Cloudant, Artifactory, JWTs, private keys);
each plugin's ``analyze_string`` yields the values it matched, and a value made of one repeated character or a
run (``sk_live_xxxxxxxx...``) is a placeholder, not a credential. The formats it lacks (newer GitHub, OpenAI and
Anthropic keys, webhook URLs, Google OAuth, Shopify, Vault and about twenty more) are one table here. None of
these needs a label: a tag or a metadata value holding the bare token is found the same way.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Protocol

__all__ = [
    "AWS_KEY_ID_PREFIXES",
    "FORMAT_DETECTORS",
    "FormatDetector",
    "documentation_jwt",
    "grouped_aws_key_ids",
    "looks_filled",
]


class _Plugin(Protocol):
    def analyze_string(self, string: str) -> Iterable[str]: ...


FormatDetector = tuple[str, Callable[[str], bool]]

# A run of "/" is no filler: an AWS session token holds one ("...EJr//////////wEa...").
_RUN = re.compile(r"([^/])\1{7,}")
# A provider's documentation ends its example keys so ("AKIA...EXAMPLE", ".../bPxRfiCYEXAMPLEKEY"): no key it issues
# does, and the examples are copied into every tutorial and config sample.
_DOCUMENTED = re.compile(r"EXAMPLE(?:KEY)?$")


def looks_filled(value: str) -> bool:
    """Whether a matched value is filled in rather than a template: no long run of one character, varied, and no
    documentation's example."""
    if _RUN.search(value) or len(set(value)) < min(8, len(value) // 2) or _DOCUMENTED.search(value):
        return False
    from detect_secrets.filters.heuristic import is_sequential_string

    return not is_sequential_string(value)


@cache
def _plugins() -> dict[str, _Plugin]:
    """detect-secrets' plugins, imported on first use (the package imports ``requests``: ~0.1 s)."""
    from detect_secrets.plugins import (
        artifactory,
        aws,
        azure_storage_key,
        cloudant,
        discord,
        github_token,
        gitlab_token,
        ibm_cloud_iam,
        ibm_cos_hmac,
        jwt,
        mailchimp,
        npm,
        openai,
        private_key,
        pypi_token,
        sendgrid,
        slack,
        softlayer,
        square_oauth,
        stripe,
        telegram_token,
        twilio,
    )

    return {
        "private_key": private_key.PrivateKeyDetector(),
        "aws": aws.AWSKeyDetector(),
        "azure": azure_storage_key.AzureStorageKeyDetector(),
        "github": github_token.GitHubTokenDetector(),
        "gitlab": gitlab_token.GitLabTokenDetector(),
        "slack": slack.SlackDetector(),
        "discord": discord.DiscordBotTokenDetector(),
        "stripe": stripe.StripeDetector(),
        "twilio": twilio.TwilioKeyDetector(),
        "sendgrid": sendgrid.SendGridDetector(),
        "mailchimp": mailchimp.MailchimpDetector(),
        "npm": npm.NpmDetector(),
        "pypi": pypi_token.PypiTokenDetector(),
        "openai": openai.OpenAIDetector(),
        "telegram": telegram_token.TelegramBotTokenDetector(),
        "jwt": jwt.JwtTokenDetector(),
        "square": square_oauth.SquareOAuthDetector(),
        "ibm": _Either(ibm_cloud_iam.IbmCloudIamDetector(), ibm_cos_hmac.IbmCosHmacDetector()),
        "cloudant": cloudant.CloudantDetector(),
        "softlayer": softlayer.SoftlayerDetector(),
        "artifactory": artifactory.ArtifactoryDetector(),
    }


class _Either:
    """Two plugins read as one kind."""

    def __init__(self, *plugins: _Plugin) -> None:
        self.plugins = plugins

    def analyze_string(self, string: str) -> Iterable[str]:
        for plugin in self.plugins:
            yield from _values(plugin, string)


def _values(plugin: _Plugin, text: str) -> Iterable[str]:
    """What a plugin matched: its longest captured group when that is the token, else the whole match.

    ``analyze_string`` yields a pattern's groups, and some patterns capture only the prefix (``(ghp|gho)_...``).
    """
    patterns = getattr(plugin, "denylist", None)
    if patterns is None or getattr(plugin, "secret_type", "") == "JSON Web Token":
        yield from plugin.analyze_string(text)  # the JWT plugin also checks that the parts decode
        return
    for pattern in patterns:
        for m in pattern.finditer(text):
            longest = max((g for g in m.groups() if g), key=len, default="")
            yield longest if len(longest) >= 16 else m.group(0)


def _plugin(name: str, keep: Callable[[str], bool] = looks_filled) -> Callable[[str], bool]:
    def find(text: str) -> bool:
        return any(keep(value) for value in _values(_plugins()[name], text))

    return find


# The claims of the sample token jwt.io and most JWT tutorials print: whatever signs it, it stands for no caller.
_SAMPLE_CLAIMS = {"sub": "1234567890", "name": "John Doe", "iat": 1516239022}


def documentation_jwt(value: str) -> bool:
    """Whether a JSON Web Token's claims are the documentation's sample (its payload read, its signature not)."""
    parts = value.split(".")
    if len(parts) < 2:
        return False
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (binascii.Error, ValueError):
        return False
    return bool(claims == _SAMPLE_CLAIMS)


def _aws_key_id(value: str) -> bool:
    return len(value) == 20 and looks_filled(value)


# An access key id printed or read out in groups ("AKIA Z3MP LQ7T ...", "AKIA-Z3MP-..."), read joined again here by
# the write gate and by the outbound mask (``pii``). A key id is its prefix and 16 characters of base32 (A-Z, 2-7).
# In groups it shares its shape with a heading in capitals ("ASIA PACIFIC SALES UNIT"), so the groups must hold
# what a key holds: exactly those 16 characters, a digit among them, in groups of one width. Capitals in prose hold
# no digit, or a year's 0, 1, 8 or 9, or words of uneven length. (A key without a digit, about one in 28, is then
# read only joined.)
AWS_KEY_ID_PREFIXES = ("AKIA", "ASIA", "ABIA", "ACCA", "A3T")
# Each prefix's start and the 16 characters after it across single spaces or dashes, ending at a group's end; a
# lookahead, so a candidate that fails the checks hides no key that starts inside it.
_AWS_KEY_ID_GROUPED = re.compile(
    r"(?<![A-Za-z0-9\-])(?=((?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])(?:[ \-]?[A-Z0-9]){16})(?![A-Za-z0-9]))"
)
_AWS_KEY_ID_BODY = re.compile(r"[A-Z2-7]{16}")


def grouped_aws_key_ids(text: str) -> Iterator[tuple[int, int]]:
    """Where ``text`` holds an AWS access key id written in groups (not where it is one run)."""
    for m in _AWS_KEY_ID_GROUPED.finditer(text):
        groups = re.split(r"[ \-]", m.group(1))
        if len(groups) > 1 and _printed_as_a_key_id("".join(groups), [len(g) for g in groups]):
            yield m.start(1), m.end(1)


def _printed_as_a_key_id(joined: str, widths: list[int]) -> bool:
    """Whether the joined characters are a key id's and the groups are printed as a key id's are."""
    body = joined[4:]
    if not _AWS_KEY_ID_BODY.fullmatch(body) or not any(ch.isdigit() for ch in body) or not looks_filled(joined):
        return False
    if len(widths) == 2:
        return True  # a key broken once (at a line's end, by a paste) breaks anywhere
    first, *rest = widths
    # The rest share one width; the first group is the prefix alone, one such group, or the prefix and one group:
    # "AKIA Z3MP LQ7T ...", "AKIAZ 3MPLQ ...", "AKIAZ3MP LQ7T ...".
    if len(set(rest)) == 1 and first in (4, rest[0], 4 + rest[0]):
        return True
    # Spelt out a character at a time, which scanning reads with the spaced letters joined and the digits apart
    # ("AKIAZ 3 MPLQ 7 TR 4 XW 9 BNC"): a lone character beside every gap.
    return all(1 in pair for pair in itertools.pairwise(widths))


def _aws_key_id_grouped(text: str) -> bool:
    return next(grouped_aws_key_ids(text), None) is not None


def _aws_secret(value: str) -> bool:
    return len(value) == 40 and looks_filled(value)


def _random_mix(value: str) -> bool:
    """A value with upper and lower case letters and digits, 20 or more characters: Artifactory's are ~70."""
    return (
        len(value.strip()) >= 20
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
        and looks_filled(value.strip())
    )


def _patterns(*patterns: str, flags: int = 0) -> Callable[[str], bool]:
    compiled = [re.compile(p, flags) for p in patterns]

    def find(text: str) -> bool:
        return any(looks_filled(m.group(0)) for p in compiled for m in p.finditer(text))

    return find


def _either(*finders: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda text: any(find(text) for find in finders)


# A Discord bot token of any generation: the bot's id in base64, a 6-character timestamp and an HMAC of 27 to 38
# characters, joined by dots (detect-secrets reads only the older ones, whose id begins with M, N or O).
_DISCORD = re.compile(r"(?<![\w\-.])([\w\-]{24,26})\.([\w\-]{6})\.([\w\-]{27,38})(?![\w\-.])")


def _mixed(part: str) -> bool:
    return any(c.isupper() for c in part) and any(c.islower() for c in part) and any(c.isdigit() for c in part)


def _discord_shaped(text: str) -> bool:
    """Whether ``text`` holds a Discord bot token by its shape: its id and its HMAC random, mixing every class."""
    return any(
        _mixed(m.group(1)) and _mixed(m.group(3)) and looks_filled(m.group(0)) and m.group(0).isascii()
        for m in _DISCORD.finditer(text)
    )


_B = r"(?<![A-Za-z0-9_\-])"  # a token starts after no token character
_E = r"(?![A-Za-z0-9_\-])"
# A web address's start: its scheme, or its host after no character of a host or a path
_WEB = r"(?:https?://|(?<![\w.\-/@]))"

FORMAT_DETECTORS: tuple[FormatDetector, ...] = (
    (
        "a private key",
        _either(
            _plugin("private_key", lambda _: True),
            _patterns(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----", r"PuTTY-User-Key-File-\d+:"),
        ),
    ),
    ("an age encryption key", _patterns(r"AGE-SECRET-KEY-1[0-9A-Z]{58}")),
    # eight groups of six digits: the shape alone is BitLocker's, with or without its label
    ("a BitLocker recovery key", _patterns(r"(?<![\w\-])\d{6}(?:-\d{6}){7}(?![\w\-])")),
    ("an AWS access key id", _either(_plugin("aws", _aws_key_id), _aws_key_id_grouped)),
    ("an AWS secret access key", _plugin("aws", _aws_secret)),
    ("an AWS session token", _patterns(_B + r"(?:FwoGZXIvYXdzE|IQoJb3JpZ2luX2Vj)[A-Za-z0-9/+=]{100,}")),
    ("an Azure storage account key", _either(_plugin("azure"), _patterns(r"SharedAccessKey=[A-Za-z0-9+/]{43}="))),
    ("an Azure shared access signature", _patterns(r"(?:[?&;]|\b)sig=[A-Za-z0-9%+/]{40,}(?:%3D|=)*")),
    ("an Azure AD client secret", _patterns(_B + r"[A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}" + _E)),
    ("a Google Cloud API key", _patterns(_B + r"AIza[0-9A-Za-z_\-]{35}" + _E)),
    ("a Google Cloud service-account key", _patterns(r"\"private_key_id\"\s*:\s*\"[0-9a-f]{16,}\"")),
    (
        "a Google OAuth secret or token",
        _patterns(
            _B + r"GOCSPX-[A-Za-z0-9_\-]{28}", _B + r"ya29\.[0-9A-Za-z_\-]{30,}", _B + r"1//0[0-9A-Za-z_\-]{40,}"
        ),
    ),
    ("a GitHub token", _either(_plugin("github"), _patterns(_B + r"github_pat_[A-Za-z0-9_]{40,}"))),
    ("a GitLab token", _plugin("gitlab")),
    (
        "a Slack token",
        _either(
            _plugin("slack", lambda v: not v.startswith("https") and looks_filled(v)),
            _patterns(_B + r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{20,}"),
        ),
    ),
    (
        "a webhook URL",
        _either(
            _plugin("slack", lambda v: v.startswith("https") and looks_filled(v.rsplit("/", 1)[-1])),
            _patterns(
                # a known service's hook is its host and path, copied with or without the scheme
                _WEB + r"(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{5,}/[A-Za-z0-9_\-]{30,}",
                _WEB + r"[\w.\-]*(?:webhook\.office\.com/webhookb2|outlook\.office(?:365)?\.com/webhook)/\S{40,}",
                _WEB + r"hooks\.zapier\.com/hooks/catch/\d+/[a-z0-9]+",
                _WEB + r"maker\.ifttt\.com/(?:\S*/)?key/[A-Za-z0-9_\-]{16,}",
                _WEB + r"hooks\.slack\.com/(?:services|workflows|triggers)/T[A-Z0-9]{6,}/[A-Za-z0-9/]*[A-Za-z0-9]{20,}",
                # any service's: a path segment named for hooks, then a random one (Mattermost, Feishu, Rocket.Chat)
                r"https?://\S+?/(?:hooks?|webhooks?)/(?:[\w.\-]+/)*?(?=[A-Za-z0-9\-]*\d)[A-Za-z0-9\-]{24,}(?![\w\-])",
                # Bitrix24's inbound webhook: the user's id, then the hook's code, then the method it calls
                r"https?://(?:[\w\-]+\.)*bitrix24\.[a-z.]+/rest/\d{1,10}/(?=[a-z0-9]*\d)[a-z0-9]{10,32}(?![\w\-])",
                r"https?://[\w.\-]+/rest/\d{1,10}/(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{16}/[a-z]+\.[a-z]+(?:\.[a-z]+)*",
            ),
        ),
    ),
    ("a Discord bot token", _either(_plugin("discord"), _discord_shaped)),
    (
        "a Stripe secret key",
        _either(_plugin("stripe"), _patterns(_B + r"[rs]k_test_[0-9A-Za-z]{24,}", _B + r"whsec_[A-Za-z0-9]{32,}")),
    ),
    # An account SID ("AC...") names the account, as a user name does; the API key SID and the tokens are secrets.
    ("a Twilio API key", _plugin("twilio", lambda v: not v.startswith("AC") and looks_filled(v))),
    ("a SendGrid API key", _plugin("sendgrid")),
    ("a Mailchimp API key", _plugin("mailchimp")),
    ("an npm token", _either(_plugin("npm"), _patterns(_B + r"npm_[A-Za-z0-9]{36}" + _E))),
    ("a PyPI token", _plugin("pypi")),
    (
        "an AI provider API key",
        _either(
            _plugin("openai"),
            _patterns(
                _B + r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{40,}",
                _B + r"sk-[A-Za-z0-9]{48}" + _E,
                _B + r"sk-ant-[a-z]+\d\d-[A-Za-z0-9_\-]{80,}",
                _B + r"hf_[A-Za-z0-9]{34,}" + _E,
                _B + r"gsk_[A-Za-z0-9]{48,}" + _E,
                _B + r"r8_[A-Za-z0-9]{37}" + _E,
                _B + r"pplx-[A-Za-z0-9]{48}" + _E,
                _B + r"xai-[A-Za-z0-9]{60,}" + _E,
            ),
        ),
    ),
    ("a Telegram bot token", _plugin("telegram")),
    ("a JSON Web Token", _plugin("jwt", lambda v: len(v) >= 30 and not documentation_jwt(v))),
    (
        "a Square token",
        _either(_plugin("square"), _patterns(_B + r"sq0atp-[A-Za-z0-9_\-]{22}", _B + r"EAAA[\w\-]{60}" + _E)),
    ),
    ("an IBM Cloud credential", _either(_plugin("ibm"), _plugin("cloudant"), _plugin("softlayer"))),
    ("an Artifactory credential", _plugin("artifactory", _random_mix)),
    (
        "a service API token",
        _patterns(
            _B + r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}" + _E,  # Shopify
            _B + r"do[por]_v1_[a-f0-9]{64}" + _E,  # DigitalOcean
            _B + r"dapi[a-f0-9]{32}(?:-\d)?" + _E,  # Databricks
            _B + r"ATATT3[A-Za-z0-9_\-=]{100,}",  # Atlassian
            _B + r"hv[sbr]\.[A-Za-z0-9_\-]{24,}",  # HashiCorp Vault
            r"(?<![\w.])s\.[A-Za-z0-9]{24}" + _E,  # Vault, legacy
            _B + r"lin_api_[A-Za-z0-9]{40}" + _E,  # Linear
            _B + r"ntn_[A-Za-z0-9]{40,}" + _E,  # Notion
            _B + r"secret_[A-Za-z0-9]{43}" + _E,  # Notion, legacy
            _B + r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}" + _E,  # Postman
            _B + r"glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}" + _E,  # Grafana service account
            _B + r"glc_[A-Za-z0-9+/=_\-]{32,}",  # Grafana Cloud
            _B + r"NR(?:AK|II|AA|JS)-[A-Za-z0-9_\-]{20,}",  # New Relic
            _B + r"(?:[a-z]{2}\d\dxx)?[a-f0-9]{30,40}NRAL" + _E,  # New Relic license key, its region first
            _B + r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}",  # Doppler
            _B + r"key-[a-f0-9]{32}" + _E,  # Mailgun
            _B + r"x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}" + _E,  # Brevo
            _B + r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}",  # Mapbox secret token
            _B + r"LTAI[A-Za-z0-9]{12,20}" + _E,  # Alibaba Cloud
            _B + r"EAA[A-Za-z0-9]{100,}" + _E,  # Meta (Facebook) access token
            _B + r"AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,}",  # Firebase Cloud Messaging server key
            r"django-insecure-\S{20,}",  # Django's generated SECRET_KEY
            _B + r"oy2[a-z0-9]{43}" + _E,  # NuGet
            _B + r"cio[A-Za-z0-9]{32}" + _E,  # crates.io
            _B + r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}" + _E,  # Airtable
            _B + r"AKID[A-Za-z0-9]{32}" + _E,  # Tencent Cloud
            _B + r"v1\.0-[a-f0-9]{24}-[a-f0-9]{100,}" + _E,  # Cloudflare Origin CA
            _B + r"rzp_(?:live|test)_[A-Za-z0-9]{14}" + _E,  # Razorpay
            # Midtrans' server key, in production, sandbox ("SB-") and as Veritrans named it; a client key is public
            _B + r"(?:SB-Mid|Mid|VT)-server-[A-Za-z0-9_\-]{20,}" + _E,
            _B + r"APP_USR-\d{10,20}-\d{6}-[a-f0-9]{32}-\d{6,12}" + _E,  # Mercado Pago access token
            # an Azure DevOps personal access token, after its name: 52 characters of lower-case base32
            r"(?i:(?<![A-Za-z0-9])(?:pat|personal[\s_\-]access[\s_\-]token)(?![A-Za-z0-9])[^:=\n]{0,60}[:=]\s*)"
            r"[a-z2-7]{52}(?![A-Za-z0-9])",
            _B + r"dckr_pat_[A-Za-z0-9_\-]{27,}" + _E,  # Docker Hub personal access token
            _B + r"pat-(?:na|eu|ap)\d-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}" + _E,  # HubSpot app
            r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}",  # Braintree
        ),
    ),
    (
        "a TOTP secret",
        _patterns(
            r"(?i:otpauth://[th]otp/\S*[?&]secret=)[A-Za-z2-7]{16,}",
            # a seed copied from an enrolment page after its name ("2FA seed for the admin account: ..."), in base32
            r"(?i:(?<![A-Za-z0-9])(?:2fa|mfa|otp|totp)[\s_\-]?(?:seed|secret|key)\b[^:=\n]{0,40}[:=]\s*)"
            r"(?=[A-Z2-7]*[2-7])[A-Z2-7]{16,}=*(?![A-Za-z0-9])",
        ),
    ),
)
