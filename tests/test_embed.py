"""Embedders: the real ONNX model, the OpenAI-compatible client against a local HTTP server, hashing."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import numpy as np
import pytest

from tiermem.config import EMBED_ALLOW_HTTP_ENV, EMBED_KEY_ENV, embed_endpoint
from tiermem.embed import EMBED_URL_ENV, HashingEmbedder, MiniLMEmbedder, OpenAIEmbedder, get_embedder
from tiermem.errors import ConfigError, EmbeddingError


def test_minilm_puts_paraphrases_close_and_unrelated_far(minilm: MiniLMEmbedder) -> None:
    v = minilm.embed_batch(["A man is eating food.", "Someone is having a meal.", "The stock market crashed."])
    assert v.shape == (3, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=1e-5)
    assert v[0] @ v[1] > 0.5
    assert v[0] @ v[2] < 0.2


def test_minilm_batch_order_and_padding_do_not_change_vectors(minilm: MiniLMEmbedder) -> None:
    texts = ["short", "a much longer sentence about the weather in the mountains this weekend", "mid length text"]
    together = minilm.embed_batch(texts)
    alone = np.stack([minilm.embed_batch([t])[0] for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-4)


def test_minilm_vectors_are_the_same_whatever_the_batch_size(minilm: MiniLMEmbedder) -> None:
    texts = [f"note {i}: the {w} key hangs by the {w} shed door" for i, w in enumerate("red blue old new".split())]
    texts += ["ok", "a much longer sentence about the tide tables and the ferry times printed on the harbour wall"]
    sizes = [MiniLMEmbedder(cache_size=0, batch_size=size).embed_batch(texts) for size in (1, 3, 64)]
    for other in sizes:
        np.testing.assert_array_equal(other, minilm.embed_batch(texts))  # the batch size is a matter of speed only


def test_minilm_vectors_are_the_same_on_single_thread_sessions_side_by_side(minilm: MiniLMEmbedder) -> None:
    texts = [f"entry {i}: the {w} lamp stands by the {w} window of the study" for i, w in enumerate("tall low".split())]
    texts += ["ok", "a longer sentence about the river path, the footbridge and the mill beyond the orchard"] * 3
    one = MiniLMEmbedder(cache_size=0, batch_size=2, sessions=1)
    side_by_side = MiniLMEmbedder(cache_size=0, batch_size=2, sessions=2)
    np.testing.assert_array_equal(side_by_side.embed_batch(texts), one.embed_batch(texts))
    np.testing.assert_array_equal(side_by_side.embed_batch(texts), minilm.embed_batch(texts))
    assert len(side_by_side._singles) == 2 and one._singles == []  # the calls did run side by side


@pytest.mark.slow
def test_minilm_single_run_calls_make_no_extra_sessions() -> None:
    model = MiniLMEmbedder(cache_size=0, sessions=2)
    model.embed_batch(["one query"])
    model.embed_batch(["a note", "and its second sentence"])  # one run: the multi-thread session
    assert model._session is not None and model._singles == []


def test_minilm_an_explicit_thread_limit_means_one_session() -> None:
    assert MiniLMEmbedder(threads=1)._sessions == 1
    assert MiniLMEmbedder(threads=1, sessions=2)._sessions == 2
    with pytest.raises(ConfigError, match="sessions must be >= 1, given 0"):
        MiniLMEmbedder(sessions=0)


def test_the_model_sessions_variable_sets_how_many_sessions_share_a_batch() -> None:
    assert get_embedder("minilm", environ={"TIERMEM_MODEL_SESSIONS": "1"})._sessions == 1  # type: ignore[attr-defined]
    assert get_embedder("minilm", environ={"TIERMEM_MODEL_SESSIONS": "3"})._sessions == 3  # type: ignore[attr-defined]
    default = MiniLMEmbedder()._sessions
    assert get_embedder("minilm", environ={})._sessions == default  # type: ignore[attr-defined]


@pytest.mark.parametrize("given", ["0", "many", "-2", "65", "1.5"])
def test_a_bad_model_sessions_variable_names_it_the_limit_and_the_value(given: str) -> None:
    with pytest.raises(
        ConfigError, match=rf"TIERMEM_MODEL_SESSIONS must be a whole number from 1 to 64, given '{given}'"
    ):
        get_embedder("minilm", environ={"TIERMEM_MODEL_SESSIONS": given})


def test_minilm_threads_do_not_busy_wait_unless_asked(minilm: MiniLMEmbedder) -> None:
    minilm.embed_batch(["load the model"])
    key = "session.intra_op.allow_spinning"
    assert minilm._session.get_session_options().get_session_config_entry(key) == "0"
    spinning = MiniLMEmbedder(spin=True)
    np.testing.assert_allclose(spinning.embed_batch(["same vectors"]), minilm.embed_batch(["same vectors"]), atol=1e-6)
    assert spinning._session.get_session_options().get_session_config_entry(key) == "1"


@pytest.mark.slow
def test_minilm_repeats_a_single_text_from_its_lru_cache_without_running_the_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = MiniLMEmbedder(cache_size=2)
    first = model.embed_batch(["where does Ann live now?"])
    real_run = model._run
    calls: list[list[str]] = []

    def counting_run(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return real_run(texts)

    monkeypatch.setattr(model, "_run", counting_run)
    again = model.embed_batch(["where does Ann live now?"])
    np.testing.assert_array_equal(first, again)
    assert calls == []
    again[0, :] = 0.0  # a caller's change to its copy never reaches the cache
    np.testing.assert_array_equal(model.embed_batch(["where does Ann live now?"]), first)
    model.embed_batch(["second"])
    model.embed_batch(["third"])  # over the size of 2: the least recently used (the first question) goes
    model.embed_batch(["where does Ann live now?"])
    assert calls == [["second"], ["third"], ["where does Ann live now?"]]
    model.embed_batch(["second", "third"])  # batches are not cached: they are writes, not repeated searches
    assert len(calls) == 4
    with pytest.raises(ConfigError, match="cache_size"):
        MiniLMEmbedder(cache_size=-1)


def test_importing_tiermem_does_not_load_the_model() -> None:
    code = "import sys, tiermem, tiermem.cli; print('onnxruntime' in sys.modules, 'tokenizers' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_hashing_embedder_is_deterministic_and_normalised() -> None:
    e = HashingEmbedder(dim=32)
    a, b = e.embed_batch(["hello world", "hello world"])
    assert np.array_equal(a, b) and abs(float(np.linalg.norm(a)) - 1) < 1e-6
    assert e.fingerprint == "hash-32"


@pytest.mark.parametrize("name", ["bert", "openai", "openai:", "openai: ", "minilm:x"])
def test_get_embedder_names_the_choices(name: str) -> None:
    with pytest.raises(ConfigError, match="minilm, hash, openai:<model>"):
        get_embedder(name)


class _FakeEmbeddings(BaseHTTPRequestHandler):
    """A local imitation of the OpenAI /embeddings API."""

    seen: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        if body["model"] == "broken":
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b'{"error": "boom"}')
            return
        data = [{"index": i, "embedding": [float(len(t)), 1.0, 0.0]} for i, t in enumerate(body["input"])]
        payload = json.dumps({"object": "list", "data": list(reversed(data)), "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _FakeEmbeddings)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_openai_client_posts_batches_and_orders_by_index(server: str) -> None:
    _FakeEmbeddings.seen.clear()
    emb = OpenAIEmbedder(server, "nomic", dim=3, api_key="sk-test", batch_size=2)
    v = emb.embed_batch(["a", "bbb", "cc"])
    assert [r["path"] for r in _FakeEmbeddings.seen] == ["/v1/embeddings", "/v1/embeddings"]
    assert _FakeEmbeddings.seen[0]["auth"] == "Bearer sk-test"
    lengths = v[:, 0] / v[:, 1]  # normalisation keeps the ratio len(t) : 1
    np.testing.assert_allclose(lengths, [1, 3, 2], rtol=1e-5)
    assert emb.fingerprint == "openai:nomic-3"


def test_openai_client_reports_server_errors_and_wrong_dims(server: str) -> None:
    with pytest.raises(EmbeddingError, match="answered 500"):
        OpenAIEmbedder(server, "broken", dim=3).embed_batch(["x"])
    with pytest.raises(EmbeddingError, match="configured dim is 4"):
        OpenAIEmbedder(server, "m", dim=4).embed_batch(["x"])
    with pytest.raises(EmbeddingError, match="failed"):
        OpenAIEmbedder("http://127.0.0.1:9/v1", "m", dim=3, timeout=2).embed_batch(["x"])


def test_openai_embedder_by_name_reads_the_server_url_from_the_environment(server: str) -> None:
    emb = get_embedder("openai:nomic", environ={EMBED_URL_ENV: server})
    assert isinstance(emb, OpenAIEmbedder)
    assert emb.fingerprint == "openai:nomic-3"  # the dimension learned from the server's first answer


def test_openai_embedder_by_name_without_a_url_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match=EMBED_URL_ENV):
        get_embedder("openai:nomic", environ={})


def test_openai_client_learns_its_dimension_once_then_holds_the_server_to_it(server: str) -> None:
    _FakeEmbeddings.seen.clear()
    emb = OpenAIEmbedder(server, "m")
    assert emb.dim == 3 and len(_FakeEmbeddings.seen) == 1
    assert emb.embed_batch(["ab"]).shape == (1, 3) and emb.dim == 3 and len(_FakeEmbeddings.seen) == 2


def test_openai_embedder_never_sends_the_chat_key_to_another_host(server: str) -> None:
    _FakeEmbeddings.seen.clear()
    chat_only = {EMBED_URL_ENV: server, "OPENAI_API_KEY": "sk-chat-key"}
    get_embedder("openai:nomic", environ=chat_only).embed_batch(["a note"])
    own_key = {**chat_only, EMBED_KEY_ENV: "sk-embed-key"}
    get_embedder("openai:nomic", environ=own_key).embed_batch(["a note"])
    assert [seen["auth"] for seen in _FakeEmbeddings.seen] == [None, "Bearer sk-embed-key"]


def test_openai_embedder_falls_back_to_the_chat_key_only_for_openai_itself() -> None:
    env = {"OPENAI_API_KEY": "sk-chat-key"}
    assert embed_endpoint("https://api.openai.com/v1", None, env) == "sk-chat-key"
    assert embed_endpoint("https://api.openai.com.example.net/v1", None, env) is None
    assert embed_endpoint("https://embed.example.net/v1", None, env) is None
    assert embed_endpoint("https://api.openai.com/v1", None, {**env, EMBED_KEY_ENV: "sk-embed"}) == "sk-embed"


def test_openai_embedder_refuses_plain_http_to_another_machine_unless_allowed() -> None:
    with pytest.raises(ConfigError, match=EMBED_ALLOW_HTTP_ENV) as refused:
        OpenAIEmbedder("http://192.0.2.7:11434/v1", "nomic", dim=3, environ={})
    assert "192.0.2.7" in str(refused.value)
    OpenAIEmbedder("http://192.0.2.7:11434/v1", "nomic", dim=3, environ={EMBED_ALLOW_HTTP_ENV: "1"})
    for here in ("http://localhost:11434/v1", "http://127.0.0.1:8000/v1", "http://[::1]:8000/v1"):
        OpenAIEmbedder(here, "nomic", dim=3, environ={})
    OpenAIEmbedder("https://embed.example.net/v1", "nomic", dim=3, environ={})
