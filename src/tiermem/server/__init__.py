"""The service edge: REST, MCP and the web inspector over one Memory."""
