"""The systems of the peers benchmark behind one small interface: add a turn, search a question, report disk use.

Every system embeds with the same model object (tiermem's ONNX MiniLM behind a stopwatch), so the comparison
measures the memory layer: its write path, its index and its ranking. Each system is used as its documentation
shows a new user: one add per turn, a plain search with the question, default settings otherwise.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

from tiermem import Memory, Scope
from tiermem.embed import Embedder, EmbedderWrapper, Vectors
from tiermem.write.path import WritePolicy

TENANT = "bench"


class TimedModel(EmbedderWrapper):
    """An embedder that adds the time spent in the model to ``seconds`` (the one model every system uses)."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.seconds = 0.0
        self.texts = 0
        self.calls = 0

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        started = time.perf_counter()
        try:
            return self.inner.embed_batch(texts)
        finally:
            self.seconds += time.perf_counter() - started
            self.texts += len(texts)
            self.calls += 1

    def lists(self, texts: Sequence[str]) -> list[list[float]]:
        """Plain float lists, the form the peers' embedding functions return."""
        return [[float(x) for x in row] for row in self.embed_batch(list(texts))]


class System(Protocol):
    """One memory system under test."""

    name: str
    note: str

    def add(self, user: str, text: str, dia_id: str) -> None: ...

    def search(self, user: str, query: str, k: int) -> list[str]: ...

    def close(self) -> None: ...

    def disk_bytes(self) -> int | None: ...


def tree_bytes(path: Path) -> int:
    """Bytes of every file under ``path``."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


class TiermemRemember:
    """tiermem, plain ``remember`` per turn and ``recall`` per question."""

    name = "tiermem remember()"
    note = "SQLite file, FTS5 + exact vectors, hybrid recall; each turn and its sentences embedded"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        self.directory = directory
        self.memory = Memory.open(directory / "tiermem.db", embedder=model)
        self.turns_of: dict[str, list[str]] = {}

    def add(self, user: str, text: str, dia_id: str) -> None:
        result = self.memory.remember(Scope(TENANT, user), text, metadata={"dia_id": dia_id})
        # A repeated turn ("Thanks!") is one record: it stands for every turn that said it.
        self.turns_of.setdefault(result.record.id, []).append(dia_id)

    def search(self, user: str, query: str, k: int) -> list[str]:
        hits = self.memory.recall(Scope(TENANT, user), query, k=k)
        return [d for h in hits for d in self.turns_of.get(h.record.id, [str(h.record.metadata.get("dia_id"))])]

    def close(self) -> None:
        self.memory.close()

    def disk_bytes(self) -> int | None:
        return tree_bytes(self.directory)


class TiermemFullText(TiermemRemember):
    """tiermem with no model (``embedder=None``): full-text recall only, what the search target leaves room for."""

    name = "tiermem remember(), full text only"
    note = "as tiermem remember() opened with embedder=None: no model at write or search, FTS5 and the re-scoring"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        self.directory = directory
        self.memory = Memory.open(directory / "tiermem.db", embedder=None)
        self.turns_of = {}


class TiermemWriteBehind(TiermemRemember):
    """tiermem, ``remember`` per turn acknowledged before embedding (write-behind), flushed before the questions."""

    name = "tiermem remember() write-behind"
    note = "as tiermem remember(), acknowledged once stored and full-text indexed; one worker embeds in batches"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        self.directory = directory
        self.memory = Memory.open(directory / "tiermem.db", embedder=model, write_behind=True)
        self.turns_of = {}

    def settle(self) -> None:
        """Wait until every acknowledged turn has its vectors (the fully indexed time)."""
        self.memory.flush()


class TiermemFollows(TiermemRemember):
    """tiermem, plain ``remember`` per turn with ``WritePolicy(follow_window=...)``: each turn also found by the
    end of the turn written before it."""

    name = "tiermem remember() follow_window"
    note = "as tiermem remember(), opted in to follow_window=30 min: the turn before as search context"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        self.directory = directory
        policy = WritePolicy(follow_window=timedelta(minutes=30))
        self.memory = Memory.open(directory / "tiermem.db", embedder=model, write_policy=policy)
        self.turns_of = {}


class TiermemLangGraph:
    """tiermem behind LangGraph's store API (``TiermemStore``): what a LangGraph user gets by swapping the store."""

    name = "tiermem TiermemStore (LangGraph API)"
    note = "the LangGraph adapter, source='user' (the turns are what people said): items keyed, hybrid recall"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        from tiermem.integrations.langgraph import TiermemStore

        self.directory = directory
        self.memory = Memory.open(directory / "tiermem.db", embedder=model)
        # The turns are what people said: docs/integrations.md asks for source="user" for such items.
        self.store = TiermemStore(self.memory, fields=("text",), source="user")

    def add(self, user: str, text: str, dia_id: str) -> None:
        self.store.put((TENANT, user), str(uuid.uuid4()), {"text": text, "dia_id": dia_id})

    def search(self, user: str, query: str, k: int) -> list[str]:
        return [str(item.value["dia_id"]) for item in self.store.search((TENANT, user), query=query, limit=k)]

    def close(self) -> None:
        self.memory.close()

    def disk_bytes(self) -> int | None:
        return tree_bytes(self.directory)


class _LangGraphBase:
    store: Any

    def add(self, user: str, text: str, dia_id: str) -> None:
        self.store.put((TENANT, user), str(uuid.uuid4()), {"text": text, "dia_id": dia_id})

    def search(self, user: str, query: str, k: int) -> list[str]:
        return [str(item.value["dia_id"]) for item in self.store.search((TENANT, user), query=query, limit=k)]


class LangGraphInMemory(_LangGraphBase):
    """LangGraph ``InMemoryStore`` with an index on the turn text."""

    name = "LangGraph InMemoryStore"
    note = "process memory, brute-force cosine; nothing on disk"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        from langgraph.store.memory import InMemoryStore

        self.store = InMemoryStore(index={"dims": model.dim, "embed": model.lists, "fields": ["text"]})

    def close(self) -> None:
        pass

    def disk_bytes(self) -> int | None:
        return None


class LangGraphSqlite(_LangGraphBase):
    """LangGraph ``SqliteStore`` with sqlite-vec, on a pysqlite3 connection (stdlib sqlite3 loads no extensions)."""

    name = "LangGraph SqliteStore"
    note = "SQLite file + sqlite-vec (pysqlite3-binary)"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        from langgraph.store.sqlite import SqliteStore
        from pysqlite3 import dbapi2

        self.directory = directory
        self.conn = dbapi2.connect(str(directory / "store.db"), check_same_thread=False, isolation_level=None)
        # SqliteStore names the embedded fields "text_fields" (InMemoryStore: "fields"); without it, it embeds the
        # whole value as JSON.
        index = {"dims": model.dim, "embed": model.lists, "text_fields": ["text"]}
        self.store = SqliteStore(self.conn, index=index)  # type: ignore[arg-type]
        self.store.setup()

    def close(self) -> None:
        self.conn.close()

    def disk_bytes(self) -> int | None:
        return tree_bytes(self.directory)


class Chroma:
    """Chroma ``PersistentClient``, one collection per user, the model as its embedding function."""

    name = "Chroma"
    note = "PersistentClient (SQLite + HNSW), one collection per user"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        import chromadb
        from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
        from chromadb.config import Settings

        class MiniLM(EmbeddingFunction[Documents]):
            def __init__(self) -> None:
                pass

            def __call__(self, input: Documents) -> Embeddings:
                return list(model.embed_batch(list(input)))

            @staticmethod
            def name() -> str:
                return "tiermem-minilm"

        self.directory = directory
        self.function = MiniLM()
        self.client = chromadb.PersistentClient(path=str(directory), settings=Settings(anonymized_telemetry=False))
        self.collections: dict[str, Any] = {}

    def _collection(self, user: str) -> Any:
        if user not in self.collections:
            self.collections[user] = self.client.get_or_create_collection(user, embedding_function=self.function)
        return self.collections[user]

    def add(self, user: str, text: str, dia_id: str) -> None:
        self._collection(user).add(ids=[str(uuid.uuid4())], documents=[text], metadatas=[{"dia_id": dia_id}])

    def search(self, user: str, query: str, k: int) -> list[str]:
        found = self._collection(user).query(query_texts=[query], n_results=k, include=["metadatas"])
        return [str(m["dia_id"]) for m in found["metadatas"][0]]

    def close(self) -> None:
        pass

    def disk_bytes(self) -> int | None:
        return tree_bytes(self.directory)


class Mem0:
    """Mem0 open source, ``infer=False`` (store each turn as it is), local Qdrant on disk."""

    name = "Mem0 (infer=False)"
    note = (
        "Qdrant local mode on disk + SQLite history; offline its BM25 keyword search (fastembed model) and its "
        "entity boosts and lemmas (spaCy model) cannot load: vector search only"
    )

    def __init__(self, model: TimedModel, directory: Path) -> None:
        os.environ.setdefault("MEM0_TELEMETRY", "False")
        os.environ.setdefault("OPENAI_API_KEY", "unused-offline")  # its default LLM client is built, never called
        from mem0 import Memory as Mem0Memory

        class MiniLM:
            def embed(self, text: str, memory_action: str | None = None) -> list[float]:
                return model.lists([text])[0]

        config = {
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "collection_name": "bench",
                    "path": str(directory / "qdrant"),
                    "embedding_model_dims": model.dim,
                    "on_disk": True,
                },
            },
            "embedder": {"provider": "openai", "config": {"embedding_dims": model.dim}},
            "history_db_path": str(directory / "history.db"),
        }
        self.directory = directory
        self.memory = Mem0Memory.from_config(config)
        self.memory.embedding_model = MiniLM()

    def add(self, user: str, text: str, dia_id: str) -> None:
        self.memory.add(text, user_id=user, metadata={"dia_id": dia_id}, infer=False)

    def search(self, user: str, query: str, k: int) -> list[str]:
        found = self.memory.search(query, top_k=k, filters={"user_id": user})
        return [str((r.get("metadata") or {}).get("dia_id")) for r in found["results"]]

    def close(self) -> None:
        client = getattr(self.memory.vector_store, "client", None)
        if client is not None:
            client.close()

    def disk_bytes(self) -> int | None:
        return tree_bytes(self.directory)


class TiermemMessages:
    """tiermem's messages API: each turn sent as it happens, one ``remember_messages`` call per turn."""

    name = "tiermem remember_messages"
    note = "the messages API a turn at a time: speaker, time and session kept; the turn before as search context"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        self.directory = directory
        self.memory = Memory.open(directory / "tiermem.db", embedder=model)
        self.turns_of: dict[str, list[str]] = {}

    def add_turn(self, user: str, turn: Any) -> None:
        """A LoCoMo turn as its speaker's chat message, in its session, at its session's time."""
        for result in self.memory.remember_messages(Scope(TENANT, user), [turn.message], session=turn.session):
            self.turns_of.setdefault(result.record.id, []).append(turn.dia_id)

    def add(self, user: str, text: str, dia_id: str) -> None:
        message = {"role": "user", "content": text, "metadata": {"dia_id": dia_id}}
        self.memory.remember_messages(Scope(TENANT, user), [message], session="s")

    def search(self, user: str, query: str, k: int) -> list[str]:
        hits = self.memory.recall(Scope(TENANT, user), query, k=k)
        return [d for h in hits for d in self.turns_of.get(h.record.id, [str(h.record.metadata.get("dia_id"))])]

    def close(self) -> None:
        self.memory.close()

    def disk_bytes(self) -> int | None:
        return tree_bytes(self.directory)


class TiermemService:
    """tiermem as a service: a ``tiermem serve`` process, turns and questions over REST (``RemoteMemory``).

    The server loads and runs its own copy of the model, so the shared model object never sees its work; after
    each timed call ``count_model`` adds the server's model seconds (its ``/metrics``) to the shared count, outside
    the call's time. The server syncs every acknowledged write to disk (``synchronous=FULL``, its default).
    """

    name = "tiermem service (REST)"
    note = "tiermem serve (its own MiniLM, synchronous=FULL) and RemoteMemory over HTTP: remember() and recall()"

    def __init__(self, model: TimedModel, directory: Path) -> None:
        import socket
        import subprocess
        import sys

        import httpx

        self.directory = directory
        self.model = model
        self.httpx = httpx
        env = {**os.environ, "TIERMEM_DB": str(directory / "served.db")}
        cli = [sys.executable, "-c", "from tiermem.cli import main; main()"]
        subprocess.run([*cli, "init"], env=env, capture_output=True, check=True)  # keys and serve never create one
        made = subprocess.run(
            [*cli, "keys", "create", "--tenant", TENANT, "--role", "admin"], env=env, capture_output=True, text=True
        )
        if made.returncode != 0:
            raise SystemExit(f"tiermem keys create failed: {made.stderr.strip()}")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        serve = [*cli, "serve", "--port", str(port), "--embedder", "minilm", "--rate", "0"]
        self.server = subprocess.Popen(serve, env=env, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{self.url}/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if self.server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("tiermem serve did not start")
            time.sleep(0.2)
        self.memory = Memory.open(self.url, api_key=made.stdout.strip())
        self.turns_of: dict[str, list[str]] = {}
        self.model_seconds = self._server_model_seconds()  # the warm-up at start is not a turn's

    def _server_model_seconds(self) -> float:
        text = self.httpx.get(f"{self.url}/metrics").text
        line = next(x for x in text.splitlines() if x.startswith("tiermem_model_seconds_total"))
        return float(line.split()[1])

    def count_model(self) -> None:
        """Add the server's model time since the last call to the shared model's count."""
        now = self._server_model_seconds()
        self.model.seconds += now - self.model_seconds
        self.model_seconds = now

    def add(self, user: str, text: str, dia_id: str) -> None:
        result = self.memory.remember(Scope(TENANT, user), text, metadata={"dia_id": dia_id})
        self.turns_of.setdefault(result.record.id, []).append(dia_id)

    def search(self, user: str, query: str, k: int) -> list[str]:
        hits = self.memory.recall(Scope(TENANT, user), query, k=k)
        return [d for h in hits for d in self.turns_of.get(h.record.id, [str(h.record.metadata.get("dia_id"))])]

    def close(self) -> None:
        self.memory.close()
        self.server.terminate()
        self.server.wait(timeout=60)

    def disk_bytes(self) -> int | None:
        return tree_bytes(self.directory)


SYSTEMS: dict[str, type[Any]] = {
    "tiermem": TiermemRemember,
    "tiermem-write-behind": TiermemWriteBehind,
    "tiermem-follows": TiermemFollows,
    "tiermem-langgraph": TiermemLangGraph,
    "langgraph-memory": LangGraphInMemory,
    "langgraph-sqlite": LangGraphSqlite,
    "chroma": Chroma,
    "mem0": Mem0,
    "tiermem-messages": TiermemMessages,
    "tiermem-service": TiermemService,
    "tiermem-full-text": TiermemFullText,
}
