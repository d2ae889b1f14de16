"""The agent edge: memory as function-calling tools, and a loop that runs a chat model with them."""
