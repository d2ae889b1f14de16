"""The folder tree is the layer diagram: no module imports a higher layer, and no module outgrows 500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tiermem"
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"

# (layer, order within the layer): a module may import its own package, lower layers, and earlier peers.
LAYERS: dict[str, tuple[int, int]] = {
    "errors": (0, 0),
    "types": (0, 1),
    "config": (0, 2),
    "threads": (0, 3),
    "message": (0, 4),  # the one message value: the window's, a transcript's
    "lazy": (0, 5),  # a package's public names imported on first use
    "jsonl": (0, 6),  # JSON Lines read with each bad line named (the CLI's inputs)
    "text_rules": (0, 7),  # what every written text meets; which characters show nothing
    "tokens": (1, 0),
    "embed": (1, 0),
    "text_index": (1, 0),
    "english": (2, 0),
    "store": (3, 0),
    "trust": (4, 0),
    "llm": (4, 1),  # the model client carries the outbound gate, which masks with trust.pii
    "recall": (4, 2),
    "write": (4, 3),
    "lifecycle": (4, 4),
    "context": (5, 0),
    "memory_api": (5, 1),  # the methods Memory and RemoteMemory share, typed once
    "remote": (5, 2),  # the HTTP client behind Memory.open("http://..."): below the facade that returns it
    "memory": (6, 0),
    "agent": (7, 0),
    "eval": (8, 0),
    "bench": (8, 0),
    "server": (8, 0),  # REST, MCP and the web inspector
    "integrations": (8, 0),  # LangGraph, OpenAI Agents SDK
    "cli": (8, 1),
}
MAX_LINES = 500


def _component(path: Path) -> str:
    """The top-level package or module of tiermem a file belongs to."""
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _imported_components(tree: ast.AST) -> set[str]:
    """The tiermem components a module imports, at any depth (function-level imports included)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "tiermem" and len(parts) > 1 and parts[1] in LAYERS:
                found.add(parts[1])
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p != PACKAGE / "__init__.py")


def test_every_component_has_a_layer() -> None:
    components = {_component(p) for p in _modules()}
    assert components <= set(LAYERS), f"add these to LAYERS and docs/architecture.md: {components - set(LAYERS)}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_imports_only_lower_layers(path: Path) -> None:
    own = _component(path)
    upward = [
        other
        for other in _imported_components(ast.parse(path.read_text(encoding="utf-8")))
        if other != own and (LAYERS[other] > LAYERS[own] or (LAYERS[other] == LAYERS[own]))
    ]
    assert not upward, f"{path.relative_to(PACKAGE)} ({own}, layer {LAYERS[own]}) imports upward or sideways: {upward}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_stays_under_500_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE)} has {lines} lines (limit {MAX_LINES}): split it"


def test_architecture_doc_names_every_package() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    missing = [name for name in sorted(packages) if f"`{name}/`" not in text]
    assert not missing, f"docs/architecture.md has no paragraph for {missing}"


# Modules a user may import from; every other module says "(internal)" at the start of its docstring. A package's
# public names (``tiermem.embed``, ``tiermem.llm``) are listed as its module name would be.
PUBLIC = {
    "errors.py", "types.py", "config.py", "tokens.py", "embed.py", "llm.py", "memory.py", "memory_api.py",
    "message.py", "text_index.py",
    "store/base.py", "store/context_base.py", "store/maintenance_base.py", "store/access_base.py",
    "store/summary_base.py", "store/vector_file.py", "context/trace.py",
    "recall/factors.py", "recall/fusion.py", "recall/policy.py", "recall/search.py", "recall/relevance.py",
    "recall/pipeline.py", "recall/stages.py", "recall/related.py",
    "write/path.py", "write/extract.py", "write/neighbours.py", "write/messages.py", "write/conversation.py",
    "write/behind.py", "write/judge.py",
    "trust/injection.py", "trust/normalise.py", "trust/pii.py",
    "context/budget.py", "context/compile.py", "context/core.py", "context/messages.py", "context/summary.py",
    "context/window.py", "agent/loop.py", "agent/tools.py", "agent/approval.py", "remote/client.py",
    "integrations/langgraph.py", "integrations/openai_agents.py", "integrations/mem0_import.py",
    "integrations/letta_import.py",
}  # fmt: skip


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_is_public_or_says_it_is_internal(path: Path) -> None:
    name = path.relative_to(PACKAGE).as_posix()
    if name in PUBLIC or path.name == "__init__.py":
        return
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert doc.startswith("(internal)"), f"{name}: add it to PUBLIC or start its docstring with '(internal)'"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Each module of tiermem and the tiermem modules it imports (at any depth, ``TYPE_CHECKING`` included)."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found |= {
                    f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in paths else node.module for a in node.names
                }
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
        graph[name] = {m for m in found if m in paths and m != name}
    return graph


@pytest.mark.parametrize("package", ["recall", "english"])
def test_no_module_of_the_package_is_in_an_import_cycle(package: str) -> None:
    graph = _import_graph()
    prefix = f"tiermem.{package}"
    for start in (m for m in graph if m == prefix or m.startswith(prefix + ".")):
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            assert module != start, f"{start} imports itself through {sorted(seen)}"
            if module not in seen:
                seen.add(module)
                todo.extend(graph[module])
