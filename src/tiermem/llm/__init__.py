"""Chat-model plumbing: message values, the ChatClient protocol, a scripted client and an OpenAI-compatible one.

The outbound gate lives here, in the client that sends prompts out of the process: ``OpenAIChatClient`` masks the
personal data of every prompt (``trust.pii``) and unmasks the reply, always, never, or (the default) when its
URL is not this machine; whatever wraps the client, every call it sends passes the gate. A client of your own
gets the same gate by being wrapped in ``MaskedClient``. Each call has its own placeholders: the model reads
``[EMAIL_1]`` and the reply's text and tool-call arguments get the real value back before anyone sees them.

Errors (from the one tree in ``tiermem.errors``): ``ConfigError`` for a client that cannot be used as configured
(bad URL, timeout, exhausted script), ``LLMError`` when the endpoint fails (transport, HTTP status, timeout) or
replies with the wrong shape.

No LLM is needed by the core; this module is only used where a model helps (extraction, summaries, the agent).
"""

from tiermem.errors import LLMError
from tiermem.llm.json_reply import complete_json
from tiermem.llm.messages import ChatClient, ChatMessage, ChatResponse, ScriptedClient, ScriptedReply, ToolCall
from tiermem.llm.openai import OpenAIChatClient
from tiermem.llm.outbound import MaskedClient, PiiMask, is_loopback_url

__all__ = [
    "ChatClient",
    "ChatMessage",
    "ChatResponse",
    "LLMError",
    "MaskedClient",
    "OpenAIChatClient",
    "PiiMask",
    "ScriptedClient",
    "ScriptedReply",
    "ToolCall",
    "complete_json",
    "is_loopback_url",
]
