"""Adapters for agent frameworks (extras): ``langgraph`` (a LangGraph store), ``openai_agents`` (SDK tools).

Ways in from other memory systems, which need no extra: ``mem0_import`` (a Mem0 ``get_all`` result) and
``letta_import`` (a Letta Agent File, archival passages). Nothing here is imported by ``import tiermem``; each
adapter imports its framework, which its extra installs.
"""
