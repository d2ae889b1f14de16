"""Adapters for agent frameworks (extras): ``langgraph`` (a LangGraph store), ``openai_agents`` (SDK tools).

Nothing here is imported by ``import tiermem``; each module imports its framework, which its extra installs.
"""
