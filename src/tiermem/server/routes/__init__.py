"""(internal) The REST routes, one module per concern; every route is under /v1 and needs a credential."""
