"""Random values in the shapes of real credentials and identifiers, for the case files beside this file.

Every value is made here from a seeded generator (none is real): tokens with a provider's prefix and
alphabet, card numbers with a valid Luhn digit, IBANs with a valid mod-97 checksum.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid
from pathlib import Path

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


class Gen:
    """A seeded source of random values."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def s(self, alphabet: str, n: int) -> str:
        """``n`` characters drawn from ``alphabet``."""
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def hex(self, n: int) -> str:
        return self.s(HEX, n)

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def b64(self, nbytes: int) -> str:
        return base64.b64encode(self.rng.randbytes(nbytes)).decode()

    def jwt(self, claims: dict[str, object]) -> str:
        def part(obj: dict[str, object]) -> str:
            return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

        sig = base64.urlsafe_b64encode(self.rng.randbytes(32)).decode().rstrip("=")
        return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}.{sig}"

    def pem(self, label: str, nbytes: int = 600) -> str:
        body = self.b64(nbytes)
        lines = [body[i : i + 64] for i in range(0, len(body), 64)]
        return "\n".join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----"])

    def card(self, prefix: str, length: int) -> str:
        digits = prefix + self.s(string.digits, length - len(prefix) - 1)
        return digits + str(luhn_digit(digits))

    def iban(self, country: str, bban: str) -> str:
        moved = bban + country + "00"
        check = 98 - int("".join(str(int(c, 36)) for c in moved)) % 97
        return f"{country}{check:02d}{bban}"


def luhn_digit(digits: str) -> int:
    """The check digit that makes ``digits`` + it pass the Luhn test."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return (10 - total % 10) % 10


def spaced(value: str, every: int = 4) -> str:
    """``value`` in groups of ``every`` characters."""
    return " ".join(value[i : i + every] for i in range(0, len(value), every))


class Cases:
    """The rows of one case file, one JSON object each."""

    def __init__(self) -> None:
        self.rows: list[dict[str, str]] = []

    def credential(self, label: str, kind: str, text: str, field: str = "content", name: str = "") -> None:
        """A credential case (``label`` secret or near_miss) as one field of a note holds it."""
        row = {"text": text, "label": label, "kind": kind, "field": field}
        self.rows.append({**row, **({"name": name} if name else {})})

    def pii(self, kind: str, value: str, text: str, region: str = "") -> None:
        """A PII case: ``value`` inside ``text`` must be masked."""
        assert value in text, (value, text)
        row = {"text": text, "label": "pii", "kind": kind, "value": value}
        self.rows.append({**row, **({"region": region} if region else {})})

    def near_pii(self, kind: str, text: str) -> None:
        """A PII near miss: ``text`` must come back unchanged."""
        self.rows.append({"text": text, "label": "near_miss", "kind": kind})


def write(here: Path, files: dict[str, list[dict[str, str]]]) -> None:
    """Write each file's rows, one JSON object a line, and say how many."""
    for name, rows in files.items():
        with (here / name).open("w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(name, len(rows))
