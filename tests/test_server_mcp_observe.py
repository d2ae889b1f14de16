"""/mcp on the REST server is observed like /v1: its own route in the log and metrics, 429s as the app's problems."""

from __future__ import annotations

from pathlib import Path

import httpx

from live_server import live_server
from test_mcp_http import INITIALIZE
from tiermem.server.settings import RateLimit

ACCEPT = {"Accept": "application/json, text/event-stream"}


def test_mcp_requests_are_logged_and_counted_under_their_own_route(tmp_path: Path) -> None:
    with live_server(tmp_path / "o.db") as server:
        key = server.key("acme", "alice")
        refused = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers={"X-Request-ID": "mcp-refused"})
        headers = {"Authorization": f"Bearer {key}", "X-Request-ID": "mcp-ok", **ACCEPT}
        answered = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=headers)
        assert (refused.status_code, answered.status_code) == (401, 200)
        lines = {line["request_id"]: line for line in server.log_lines()}
        assert lines["mcp-refused"]["route"] == lines["mcp-ok"]["route"] == "/mcp"
        assert lines["mcp-ok"]["credential"].startswith("key:") and lines["mcp-refused"]["credential"] is None
        metrics = httpx.get(f"{server.url}/metrics").text
    assert 'tiermem_http_requests_total{method="POST",route="/mcp",status="200"} 1' in metrics
    assert 'tiermem_http_requests_total{method="POST",route="/mcp",status="401"} 1' in metrics
    assert 'route="unmatched"' not in metrics


def test_mcp_over_the_rate_limit_is_a_429_problem_with_retry_after(tmp_path: Path) -> None:
    with live_server(tmp_path / "r.db", rate=RateLimit(per_second=0.5, burst=1)) as server:
        headers = {"Authorization": f"Bearer {server.key('acme', 'alice')}", **ACCEPT}
        first = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=headers)
        second = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=headers)
    assert first.status_code == 200
    assert second.status_code == 429 and int(second.headers["retry-after"]) >= 1
    body = second.json()
    assert body["type"] == "urn:tiermem:problem:rate-limited" and body["request_id"] == second.headers["x-request-id"]
