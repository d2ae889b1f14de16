"""Letta agents into tiermem: an Agent File (``.af``) and archival passages, through tiermem's own write calls.

An Agent File holds ``agents`` (one is imported), the ``blocks`` they name by ``block_ids``, and each agent's
``messages``; files of earlier Letta versions hold one agent with its blocks under ``core_memory``. They become:

- each block a core block of the scope (``CoreMemory.define``), with its label as the name, its value,
  description and read-only flag. Letta caps a block in characters, tiermem in tokens: the cap becomes the
  characters / 4, at least the tokens the value holds, and the caps are scaled down together when they would not
  fit the core budget (the values must fit it). A block the scope already holds with other text stops the import
  before anything is written; one with the same text is left as it is.
- the conversation a transcript (``Memory.remember_messages``, session ``letta`` unless named): user messages
  (unwrapped from Letta's ``{"type": "user_message", "message": ...}`` packaging) and what the assistant said
  (its ``send_message`` calls, else its text), with their times; the system prompt, tool calls and results, and
  Letta's heartbeat and login events are left out.
- archival passages (Letta ``text``, ``created_at``, ``tags``, ``id``) records from source ``import:letta``.
  The Agent File does not carry passages today: a file may hold them under ``passages``, or be the list of
  passages Letta's archival-memory API returns.

Everything is read and checked before anything is written. The write gate then judges each write as it is
stored (a credential refuses it, core-block text that reads like instructions is refused): a refusal stops the
import there, with what came before it kept. Importing the same file again adds only what is missing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from tiermem.context.core import CoreMemory, check_block_name
from tiermem.errors import ConfigError, ConflictError, ValidationError
from tiermem.integrations.importing import ImportSummary, counted, optional_text, tags_at, text_at, time_at
from tiermem.memory import Memory
from tiermem.store.context_base import CoreBlock, StoreWithContext
from tiermem.tokens import TokenCounter
from tiermem.types import MemoryType, Scope
from tiermem.write.conversation import distinct_keys
from tiermem.write.messages import parse_message
from tiermem.write.path import NewMemory

__all__ = ["CHARS_PER_TOKEN", "SESSION", "SOURCE", "LettaAgent", "LettaBlock", "import_letta", "read_letta"]

SOURCE = "import:letta"
SESSION = "letta"
CHARS_PER_TOKEN = 4  # Letta's caps are characters; English text runs about four to a token
_RUNTIME_EVENTS = ("heartbeat", "login", "system_alert")  # Letta's own user-role messages, not the user's words


@dataclass(frozen=True, slots=True)
class LettaBlock:
    """A core memory block as Letta keeps it: its cap is in characters."""

    label: str
    value: str
    limit: int
    description: str = ""
    read_only: bool = False


@dataclass(frozen=True, slots=True)
class LettaAgent:
    """What of a Letta file tiermem imports, read and checked."""

    name: str | None
    blocks: tuple[LettaBlock, ...]
    messages: tuple[dict[str, Any], ...]
    passages: tuple[NewMemory, ...]
    left_out: int  # messages that are not conversation (system prompt, tool traffic, runtime events)


def _list(value: object, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValidationError(where, "must be a list", given=type(value).__name__)
    return value


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValidationError(where, "must be an object", given=type(value).__name__)
    return value


def _block(raw: object, where: str) -> LettaBlock:
    item = _object(raw, where)
    label = text_at(item, "label", where)
    try:
        check_block_name(label)
    except ValidationError as exc:
        raise ValidationError(f"{where}.label", exc.problem, given=label) from None
    value = (optional_text(item, "value", where) or "").strip()
    limit = item.get("limit", len(value) or 1)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValidationError(f"{where}.limit", "must be a whole number of characters, at least 1", given=limit)
    read_only = item.get("read_only") or False
    if not isinstance(read_only, bool):
        raise ValidationError(f"{where}.read_only", "must be true or false", given=read_only)
    return LettaBlock(label, value, limit, optional_text(item, "description", where) or "", read_only)


def _text(item: Mapping[str, Any]) -> str:
    """A Letta message's text: its text content parts (or the ``text`` of earlier versions)."""
    content = item.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, Mapping) and p.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str))
    text = item.get("text")
    return text if isinstance(text, str) else ""


def _user_words(text: str) -> str | None:
    """The user's words of a user message, or None for Letta's own events sent in the user's role."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return text
    try:
        packed = json.loads(stripped)
    except ValueError:
        return text
    if not isinstance(packed, Mapping) or "type" not in packed:
        return text
    if packed["type"] == "user_message" and isinstance(packed.get("message"), str):
        return str(packed["message"])
    return None if packed["type"] in _RUNTIME_EVENTS else text


def _said(item: Mapping[str, Any]) -> str:
    """What the assistant said: its send_message calls' messages, else its text."""
    said = []
    for call in item.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, Mapping) else None
        if isinstance(function, Mapping) and function.get("name") == "send_message":
            try:
                arguments = json.loads(function.get("arguments") or "{}")
            except (TypeError, ValueError):
                continue
            if isinstance(arguments, Mapping) and isinstance(arguments.get("message"), str):
                said.append(arguments["message"])
    return "\n".join(said) if said else _text(item)


def _message(raw: object, where: str) -> dict[str, Any] | None:
    item = _object(raw, where)
    role = item.get("role")
    if role == "user":
        text = _user_words(_text(item))
    elif role == "assistant":
        text = _said(item)
    else:  # system prompt, tool results and other runtime messages
        return None
    if text is None or not text.strip():
        return None
    message: dict[str, Any] = {"role": role, "content": text, "metadata": {"imported_from": "letta"}}
    created = time_at(item, "created_at", where)
    if created is not None:
        message["created_at"] = created
    for key in ("id", "name"):
        value = optional_text(item, key, where)
        if value:
            message[key] = value
    return message


def _passage(raw: object, where: str) -> NewMemory:
    item = _object(raw, where)
    metadata = {"letta_passage_id": str(item["id"])} if item.get("id") is not None else {}
    at: datetime | None = time_at(item, "created_at", where)
    return NewMemory(
        text_at(item, "text", where), MemoryType.SEMANTIC, SOURCE, tags_at(item, "tags", where), None, at, metadata
    )


def _agent(data: Mapping[str, Any]) -> tuple[Mapping[str, Any], str, list[tuple[str, object]]]:
    """The agent, the prefix of its fields, and its blocks with where each is, in either Agent File layout."""
    if "agents" not in data:  # earlier Letta versions: one agent, blocks under core_memory
        return data, "", [(f"core_memory[{i}]", b) for i, b in enumerate(_list(data.get("core_memory"), "core_memory"))]
    agents = _list(data["agents"], "agents")
    if len(agents) != 1:
        raise ValidationError("agents", "must hold exactly one agent (import one agent at a time)", given=len(agents))
    agent = _object(agents[0], "agents[0]")
    listed = _list(data.get("blocks"), "blocks")
    by_id = {b.get("id"): (f"blocks[{i}]", b) for i, b in enumerate(listed) if isinstance(b, Mapping)}
    blocks: list[tuple[str, object]] = []
    for j, block_id in enumerate(_list(agent.get("block_ids"), "agents[0].block_ids")):
        if block_id not in by_id:
            raise ValidationError(f"agents[0].block_ids[{j}]", "names no block of the file", given=block_id)
        blocks.append(by_id[block_id])
    return agent, "agents[0].", blocks


def read_letta(data: object) -> LettaAgent:
    """What a Letta file holds for tiermem: an Agent File (either layout) or a list of archival passages."""
    if isinstance(data, list):
        return LettaAgent(None, (), (), tuple(_passage(p, f"passages[{i}]") for i, p in enumerate(data)), 0)
    if not isinstance(data, Mapping) or not ({"agents", "core_memory"} & set(data)):
        raise ValidationError(
            "file",
            "must be a Letta Agent File (with 'agents', or 'core_memory') or a list of passages",
            given=type(data),
        )
    agent, at, raw_blocks = _agent(data)
    blocks = tuple(_block(raw, where) for where, raw in raw_blocks)
    labels = [b.label for b in blocks]
    if len(set(labels)) != len(labels):
        raise ValidationError(f"{at}blocks", "name a block twice", given=labels)
    raw_messages = _list(agent.get("messages"), f"{at}messages")
    read = [_message(m, f"{at}messages[{i}]") for i, m in enumerate(raw_messages)]
    messages = tuple(m for m in read if m is not None)
    for where, message in ((f"{at}messages[{i}]", m) for i, m in enumerate(read) if m is not None):
        try:
            parse_message(message, 0)  # checked now, so a bad message stops the import before any write
        except ValidationError as exc:
            field = exc.field.replace("messages[0]", where)
            raise ValidationError(field, exc.problem, given=exc.given, limit=exc.limit) from None
    raw_passages = _list(data.get("passages"), "passages") or _list(agent.get("passages"), f"{at}passages")
    passages = tuple(_passage(p, f"passages[{i}]") for i, p in enumerate(raw_passages))
    name = agent.get("name") if isinstance(agent.get("name"), str) else None
    return LettaAgent(name, blocks, messages, passages, len(read) - len(messages))


def _caps(core: CoreMemory, blocks: Sequence[LettaBlock], counter: TokenCounter) -> list[int]:
    """Each block's cap in tokens: its Letta cap / 4, at least its value; scaled together to fit the budget."""
    held = [counter.count(b.value) for b in blocks]
    wanted = [max(h, math.ceil(b.limit / CHARS_PER_TOKEN), 1) for h, b in zip(held, blocks, strict=True)]
    room = core.cap_room(
        [CoreBlock(b.label, w, b.value, b.description, b.read_only) for b, w in zip(blocks, wanted, strict=True)]
    )
    if sum(wanted) <= room:
        return wanted
    if sum(held) > room:
        raise ValidationError(
            "core_budget",
            f"the blocks' text alone takes {sum(held)} tokens, more than the {room} the core budget {core.budget} "
            "leaves for caps; import with a larger core budget",
            given=sum(held),
            limit=room,
        )
    spare, extra = room - sum(held), sum(wanted) - sum(held)
    return [max(h + (w - h) * spare // extra, 1) for h, w in zip(held, wanted, strict=True)]


def _define(
    memory: Memory, scope: Scope, blocks: Sequence[LettaBlock], budget: int, counter: TokenCounter
) -> dict[str, int]:
    """Define the blocks the scope lacks; a block it holds with other text stops the import first."""
    if not blocks:
        return {}
    if not callable(getattr(memory.store, "save_core_block", None)):
        raise ConfigError(f"importing core blocks needs a store that keeps core memory ({type(memory.store).__name__})")
    store = cast(StoreWithContext, memory.store)
    # The write gate judges each block's text (credentials, injection) as this memory's policy says.
    home = Scope(scope.tenant, scope.user, scope.agent)
    core = CoreMemory(store, home, counter=counter, budget=budget, scan=memory.write_policy.scan)
    todo = []
    for block in blocks:
        if block.label not in core:
            todo.append(block)
        elif core.get(block.label).value != block.value:
            raise ConflictError(
                f"core block '{block.label}' of {scope} already holds other text; nothing was imported: import "
                "into another agent (--agent) or an empty scope"
            )
    for block, cap in zip(todo, _caps(core, todo, counter), strict=True):
        core.define(
            block.label,
            limit=cap,
            description=block.description,
            read_only=block.read_only,
            value=block.value,
            actor=SOURCE,
        )
    return {"core blocks defined": len(todo), "core blocks already there": len(blocks) - len(todo)}


def import_letta(
    memory: Memory,
    data: object,
    scope: Scope,
    *,
    core_budget: int,
    counter: TokenCounter,
    session: str = SESSION,
) -> ImportSummary:
    """Import a Letta file into ``scope`` (its tenant, user and agent): core blocks, the conversation, passages."""
    agent = read_letta(data)
    counts = _define(memory, scope, agent.blocks, core_budget, counter)
    home = Scope(scope.tenant, scope.user, scope.agent)
    if agent.messages:
        counts |= counted(memory.remember_messages(home, list(agent.messages), session=session), "messages")
        counts["messages left out (system, tools, events)"] = agent.left_out
    if agent.passages:
        passages = list(agent.passages)
        # Keyed by their text: the same file imported again states no passage anew.
        keys = distinct_keys([f"letta-passage:{p.content}" for p in passages])
        counts |= counted(memory.remember_keyed(home, passages, keys), "passages")
    return ImportSummary(SOURCE, counts, (home,))
