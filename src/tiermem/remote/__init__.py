"""The HTTP client of a tiermem server: ``Memory.open("http://host:port", api_key=...)`` returns a RemoteMemory."""

from tiermem.remote.client import Identity, RemoteMemory

__all__ = ["Identity", "RemoteMemory"]
