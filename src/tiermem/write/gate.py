"""(internal) The write gate: what every write passes, whatever its door.

Python methods, CLI commands, REST routes, MCP and OpenAI Agents tools, the LangGraph store, import, approval
and the inspector reach storage through four paths, and each of them calls this module before it stores:
records through the write path (``write.path.write_many``), core blocks through ``context.core.CoreMemory``,
restored exports through ``lifecycle.export``, edits and rollbacks through ``lifecycle.revise`` and
``lifecycle.history`` (``admit_revision``: a restored version is judged again, whatever verdict it carried).

- **Credentials are refused in every field**: the content, its search context, each tag, the source's name, the
  agent and session ids, each metadata key with its value; a core block's text and description; each read as
  written and in its scanning form (full-width letters, hidden characters and look-alikes undone). The refusal
  is audited by kind and field, never with the value (a source or key holding one is not named), and nothing of
  the write is stored.
- **Notes are scanned for injection** as their source's policy says (``write.scan.ScanPolicy``), on their
  scanning form (look-alike letters, hidden characters and spacing undone: ``trust.injection``): the content and
  every other text the record hands a reader (``write.reader_texts``: metadata names and values, a LangGraph
  item's whole value), the record taking the worst verdict, which is stored on it, where the prompt gate reads it.
- **Core-block text is scanned whatever its writer**: core memory is pasted into every prompt, so text at the
  quarantine threshold is refused there (``ScanPolicy.core``), where a note would be stored quarantined.

Serialising the writers of one user is the store's part (``Store.serialise``, taken by each path's transaction).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from tiermem.embed import Embedder, Vectors
from tiermem.errors import InjectionRefusedError, SecretRefusedError, shown_name
from tiermem.store.base import AuditEntry, Store
from tiermem.trust.injection import injection_score
from tiermem.trust.secret_metadata import metadata_credentials
from tiermem.trust.secrets import find_secrets
from tiermem.types import MemoryRecord, Scope
from tiermem.write.scan import ScanPolicy, scan_records, scan_with_vectors, scanned

__all__ = [
    "admit_block",
    "admit_revision",
    "audit_actor",
    "credential_fields",
    "record_texts",
    "refuse_credentials",
    "refuse_credentials_given",
    "refuse_credentials_in",
]

Hit = tuple[str, tuple[str, ...]]
Found = list[Hit]


def credential_fields(record: MemoryRecord) -> Found:
    """Each field of ``record`` that holds a credential, with the kinds found there; a metadata field whose key is
    itself a credential is named by its position, so no refusal repeats it."""
    keys = list(record.metadata)
    found = _found(record_texts(record)) + _read_together(record.content, record.metadata.items())
    return [(_unnamed(field, keys), kinds) for field, kinds in found]


def _read_together(note: str, metadata: Iterable[tuple[object, object]]) -> Found:
    """Metadata entries that hold a credential only when read with the note and their siblings (a safe's code in a
    note naming the safe, a Wi-Fi key beside the network's name); an entry refused on its own is not repeated."""
    return [(f"metadata.{key}", (kind,)) for key, kind in metadata_credentials(note, metadata)]


def _unnamed(field: str, keys: list[str]) -> str:
    key = field.removeprefix("metadata.")
    return f"metadata[{keys.index(key)}]" if key != field and key in keys and find_secrets(key) else field


def record_texts(record: MemoryRecord) -> list[tuple[str, str]]:
    """Every text of ``record`` the gate reads for credentials, named by its field."""
    texts: list[tuple[str, str]] = [("content", record.content)]
    if record.context:
        texts.append(("context", record.context))
    texts += [(f"tags[{i}]", tag) for i, tag in enumerate(record.tags)]
    if record.source.detail:
        texts.append(("source", str(record.source)))
    texts += [
        (name, value) for name, value in (("agent", record.scope.agent), ("session", record.scope.session)) if value
    ]
    # The key labels its value ("password", "api_key"): a bare value that is no known format is found by it.
    texts += [(f"metadata.{key}", f"{key}: {value}") for key, value in record.metadata.items() if value is not None]
    return texts


def audit_actor(actor: str, refused: Iterable[str] = ()) -> str:
    """``actor`` as an audit entry may name it: named by its kind alone when it holds a credential, or repeats a
    word of the ``refused`` texts (a password with no label in a source is found only beside its label)."""
    kind, colon, name = actor.partition(":")
    if not colon:  # a bare name ("ops Ann"): no kind to keep
        kind, name = "", actor
    words = {w for w in _WORD.findall(name) if len(w) >= _REPEATED}
    if find_secrets(actor) or any(w in text for text in refused for w in words):
        return f"{kind}:(withheld: it holds a credential)" if kind else "(withheld: it holds a credential)"
    return actor


_WORD = re.compile(r"[^\s/.:?=&,;]+")  # a name's words: a file name's stem, a URL's parts
_REPEATED = 6  # a name's word this long found in a refused text may be the refused value itself


def refuse_credentials(
    store: Store, scope: Scope, records: Sequence[MemoryRecord], now: datetime, *, label: str = "items"
) -> None:
    """SecretRefusedError, after auditing the refusal (field and kinds only), if any record holds a credential."""
    found = [(i, record, fields) for i, record in enumerate(records) if (fields := credential_fields(record))]
    if not found:
        return
    entries = [
        _refusal(record.id, audit_actor(str(record.source), _texts(record)), now, f"{field} holds {', '.join(kinds)}")
        for _, record, fields in found
        for field, kinds in fields
    ]
    with store.transaction():
        store.append_audit(scope, entries)
    first, _, fields = found[0]
    where = fields[0][0] if len(records) == 1 else f"{label}[{first}].{fields[0][0]}"
    kinds = tuple(dict.fromkeys(kind for _, _, fs in found for _, ks in fs for kind in ks))
    raise SecretRefusedError(kinds, count=len(found), batch=len(records), field=where)


def admit_revision(
    store: Store,
    scope: Scope,
    record: MemoryRecord,
    now: datetime,
    *,
    embedder: Embedder | None,
    vectors: tuple[Vectors | None, Vectors | None] = (None, None),
    policy: ScanPolicy | None = None,
) -> MemoryRecord:
    """A new version of a stored record (an edit, a rollback) as the gate admits it: refused if it holds a
    credential, else judged again as a write from its source would be (the verdict a version carried is a claim
    of its history, not a judgement of its words); ``vectors``: its whole-text and passage vectors, if known."""
    policy = policy or ScanPolicy()
    refuse_credentials(store, scope, [record], now)
    judged = [record]
    scan_records(judged, [None], policy)
    scan_with_vectors(judged, scanned(judged, [None], policy), embedder, {0: vectors}, policy)
    return judged[0]


def refuse_credentials_in(
    store: Store, scope: Scope, texts: Iterable[tuple[str, str]], actor: str, now: datetime, also: Sequence[Hit] = ()
) -> None:
    """The same for free text outside a record (rows of an import, held writes): ``texts`` are (field, text);
    ``also``: fields already known to hold a credential."""
    texts = list(texts)
    found = _found(texts) + list(also)
    if not found:
        return
    who = audit_actor(actor, [text for _, text in texts])
    with store.transaction():
        entries = [_refusal("", who, now, f"{shown_name(f)} holds {', '.join(ks)}") for f, ks in found]
        store.append_audit(scope, entries)
    raise SecretRefusedError(tuple(dict.fromkeys(k for _, ks in found for k in ks)), field=found[0][0])


def refuse_credentials_given(store: Store, scope: Scope, items: Sequence[object], now: datetime) -> None:
    """The same for writes whose fields broke a rule before they became records: a credential in a field that is
    also malformed (a token pasted as a tag) is refused as a credential, and audited, not answered as a bad field."""
    texts: list[tuple[str, str]] = []
    together: Found = []
    for i, item in enumerate(items):
        prefix = "" if len(items) == 1 else f"items[{i}]."
        fields = [("content", getattr(item, "content", None)), ("context", getattr(item, "context", None))]
        fields.append(("source", str(getattr(item, "source", ""))))
        tags = getattr(item, "tags", ())
        fields += [(f"tags[{k}]", tag) for k, tag in enumerate(tags if isinstance(tags, list | tuple) else ())]
        metadata = getattr(item, "metadata", None)
        if isinstance(metadata, dict):
            fields += [(_meta_field(key, k), f"{key}: {value}") for k, (key, value) in enumerate(metadata.items())]
            note = getattr(item, "content", None)
            if isinstance(note, str):
                together += [(prefix + field, kinds) for field, kinds in _read_together(note, metadata.items())]
        texts += [(prefix + field, text) for field, text in fields if isinstance(text, str) and text]
    refuse_credentials_in(store, scope, texts, "writer", now, together)


def _meta_field(key: object, position: int) -> str:
    """A metadata field as a refusal names it: by its key, or by its position when the key is odd or a credential."""
    plain = isinstance(key, str) and 0 < len(key) <= 64 and key.isprintable() and not find_secrets(key)
    return f"metadata.{key}" if plain else f"metadata[{position}]"


def admit_block(
    store: Store,
    scope: Scope,
    name: str,
    texts: Sequence[str],
    *,
    actor: str,
    now: datetime,
    policy: ScanPolicy | None = None,
) -> None:
    """Refuse a core block's new text (and description) holding a credential, or reading like instructions."""
    field = f"core.{name}"
    labelled = [(field if i == 0 else f"{field}.description", text) for i, text in enumerate(texts) if text]
    refuse_credentials_in(store, scope, labelled, actor, now)
    settings = (policy or ScanPolicy()).core
    if not settings.scan:
        return
    for where, text in labelled:
        verdict = injection_score(text)
        if verdict.score >= settings.quarantine_at:
            detail = f"refused: {shown_name(where)} reads like instructions (injection score {verdict.score:.2f})"
            with store.transaction():
                store.append_audit(scope, [_refusal("", audit_actor(actor), now, detail)])
            raise InjectionRefusedError(where, verdict.score, verdict.reasons)


def _found(texts: Iterable[tuple[str, str]]) -> Found:
    return [(field, kinds) for field, text in texts if (kinds := find_secrets(text))]


def _texts(record: MemoryRecord) -> list[str]:
    """What a refusal of ``record`` refused, but its source (which names the writer)."""
    return [text for field, text in record_texts(record) if field != "source"]


def _refusal(record_id: str, actor: str, now: datetime, what: str) -> AuditEntry:
    detail = what if what.startswith("refused") else f"refused: {what} (the value is not recorded)"
    return AuditEntry(record_id, now, actor, "refuse", 0, None, None, detail)
