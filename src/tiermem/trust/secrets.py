"""(internal) Credentials in text: what kind each one is, never the value.

Memory is searchable, exported and pasted into prompts, so a credential written to it leaks sooner or later;
the write path refuses text that holds one. Each detector names a kind ("a PEM private key", "an AWS access
key id") and matches a shape that ordinary prose does not have. ``find_secrets`` returns the kinds only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["SECRET_KINDS", "find_secrets"]

# Words that stand for a value in documentation and examples ("password: your_password"): not a credential.
_PLACEHOLDER = re.compile(
    r"(?i)^(?:(?:your|my|the|some|new|old|example|sample|dummy|test|fake|placeholder|secret|changeme|hashed|pass|"
    r"password|passwd|pwd|user|username|token|key|value|xxx+|x+|\*+|\.{3,}|redacted)(?:\b|_).*|<.*|\$.*|\{.*|%.*|\[.*)$"
)


def _value(group: int, *, least: int, random_looking: bool) -> Callable[[re.Match[str]], bool]:
    """A check that the captured value looks real: long enough, not a placeholder, with a digit or symbol."""

    def real(match: re.Match[str]) -> bool:
        value = match.group(group).strip("\"'`,;.)")
        if len(value) < least or _PLACEHOLDER.match(value):
            return False
        has_digit = any(c.isdigit() for c in value)
        if random_looking:
            return has_digit and any(c.isalpha() for c in value)
        return has_digit or any(not c.isalnum() for c in value)

    return real


def _always(match: re.Match[str]) -> bool:
    return True


_DETECTORS: tuple[tuple[str, re.Pattern[str], Callable[[re.Match[str]], bool]], ...] = (
    ("a PEM private key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"), _always),
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b"), _always),
    (
        "an AWS secret access key",
        re.compile(r"(?i)\baws_?secret_?(?:access_?)?key\b[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+]{40})\b"),
        _value(1, least=40, random_looking=True),
    ),
    ("a Google Cloud API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"), _always),
    ("a Google Cloud service-account key", re.compile(r"\"private_key_id\"\s*:\s*\"[0-9a-f]{16,}\""), _always),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"), _always),
    ("a Slack token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"), _always),
    ("a Stripe secret key", re.compile(r"\b[rs]k_live_[0-9A-Za-z]{20,}\b"), _always),
    (
        "an OpenAI-style API key",
        re.compile(r"\bsk-(?:proj-|ant-)?([A-Za-z0-9_\-]{32,})"),
        _value(1, least=32, random_looking=True),
    ),
    ("a JSON Web Token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), _always),
    (
        "a bearer token",
        re.compile(r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{20,}=*)"),
        _value(1, least=20, random_looking=True),
    ),
    (
        "a connection string with a password",
        re.compile(r"\b[a-z][a-z0-9+.\-]*://[^\s:/@\"']+:([^\s@/\"']+)@[^\s/\"']+", re.IGNORECASE),
        _value(1, least=4, random_looking=False),
    ),
    (
        "a password",
        re.compile(r"(?i)\b(?:password|passwd|pwd|passphrase|passcode)\b[\"']?\s*(?:[:=]|\bis\b)\s*[\"']?([^\s\"'&]+)"),
        _value(1, least=6, random_looking=False),
    ),
    (
        "an API key or token",
        re.compile(
            r"(?i)\b(?:api[_-]?key|api[_-]?secret|access[_-]?token|auth[_-]?token|client[_-]?secret|secret[_-]?key)"
            r"\b[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9_\-./+=]{16,})"
        ),
        _value(1, least=16, random_looking=True),
    ),
)
SECRET_KINDS: tuple[str, ...] = tuple(kind for kind, _, _ in _DETECTORS)


def find_secrets(text: str) -> tuple[str, ...]:
    """The kinds of credential ``text`` holds, in a fixed order, each once (empty when there are none)."""
    if not isinstance(text, str):
        return ()
    return tuple(kind for kind, pattern, real in _DETECTORS if any(real(m) for m in pattern.finditer(text)))
