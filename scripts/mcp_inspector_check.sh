#!/usr/bin/env bash
# The official MCP Inspector's CLI against tiermem: over stdio (`tiermem mcp`) and over streamable HTTP
# (`/mcp` of `tiermem serve`, with an API key) it lists the tools (with --strict: any schema portability
# problem fails), the resources, the resource templates and the prompts, and makes one Letta-style tool call.
# Any error exits non-zero. The Inspector needs Node 22, which is installed beside it from the npm registry
# (the `node` package) into a scratch folder, with the Inspector, unless that folder already holds them.
#
#   scripts/mcp_inspector_check.sh                    # installs into a new temporary folder
#   INSPECTOR_DIR=~/.cache/mcp-inspector scripts/mcp_inspector_check.sh   # installs once, reuses it
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TIERMEM=${TIERMEM:-$ROOT/.venv/bin/tiermem}
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
INSPECTOR_VERSION=${INSPECTOR_VERSION:-2.12.0}
DIR=${INSPECTOR_DIR:-}
OWN_DIR=""
if [[ -z "$DIR" ]]; then
    DIR=$(mktemp -d)
    OWN_DIR=$DIR
fi
WORK=$(mktemp -d)
SERVER=""

finish() {
    if [[ -n "$SERVER" ]]; then
        kill "$SERVER" 2>/dev/null || true
        wait "$SERVER" 2>/dev/null || true
    fi
    rm -rf "$WORK" ${OWN_DIR:+"$OWN_DIR"}
}
trap finish EXIT

if [[ ! -x "$DIR/node_modules/.bin/inspector" || ! -x "$DIR/node_modules/.bin/node" ]]; then
    echo "installing node@22 and @modelcontextprotocol/inspector@$INSPECTOR_VERSION into $DIR" >&2
    npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error \
        "node@22" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2
fi
export PATH="$DIR/node_modules/.bin:$PATH"
export TIERMEM_EMBEDDER=hash
echo "node $(node --version), inspector $(inspector --cli --version 2>/dev/null || echo "$INSPECTOR_VERSION")"

DB="$WORK/memory.db"
LIST_METHODS=(tools/list resources/list resources/templates/list prompts/list)

# One line per call: the transport, the method and the names in the answer (tools without hints are marked).
SUMMARY=$(cat <<'PY'
import json, sys

transport, method, path = sys.argv[1:4]
data = json.load(open(path))
if "tools" in data:
    names = [t["name"] + ("" if "annotations" in t else " (NO HINTS)") for t in data["tools"]]
elif "resourceTemplates" in data:
    names = [t["uriTemplate"] for t in data["resourceTemplates"]]
elif "resources" in data:
    names = [r["uri"] for r in data["resources"]]
elif "prompts" in data:
    names = [p["name"] for p in data["prompts"]]
else:
    names = [c.get("text", "")[:70] for c in data.get("content", [])]
    if data.get("isError"):
        sys.exit(f"{transport} {method}: error result: {names}")
print(f"{transport:5} {method:24} {len(names)}: {', '.join(names)}")
PY
)

run() {  # transport, method, then the Inspector's arguments
    local transport=$1 method=$2
    shift 2
    local extra=()
    [[ "$method" == tools/list ]] && extra=(--strict)
    inspector --cli "$@" --method "$method" "${extra[@]}" >"$WORK/out.json"
    "$PYTHON" -c "$SUMMARY" "$transport" "$method" "$WORK/out.json"
}

STDIO=("$TIERMEM" mcp --db "$DB" --user me --block human=200)
for method in "${LIST_METHODS[@]}"; do
    run stdio "$method" "${STDIO[@]}"
done
run stdio tools/call "${STDIO[@]}" --tool-name core_memory_append --tool-arg label=human "content=Drinks green tea."

KEY=$("$TIERMEM" keys create --db "$DB" --tenant default --user me 2>/dev/null)
PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$TIERMEM" serve --db "$DB" --port "$PORT" --embedder hash --rate 0 2>"$WORK/serve.log" &
SERVER=$!
"$PYTHON" - "$PORT" <<'PY'
import sys, time, urllib.request

for _ in range(300):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/readyz", timeout=2)
        break
    except OSError:
        time.sleep(0.2)
else:
    sys.exit("tiermem serve did not become ready")
PY
HTTP=("http://127.0.0.1:$PORT/mcp" --transport http --header "Authorization: Bearer $KEY")
for method in "${LIST_METHODS[@]}"; do
    run http "$method" "${HTTP[@]}"
done
run http tools/call "${HTTP[@]}" --tool-name core_memory_replace --tool-arg label=human \
    "old_content=green" "new_content=jasmine"
echo "all checks passed"
