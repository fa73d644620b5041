"""The house's structure, as tests: no import circles, the database only
behind objects, and no import that climbs a layer (ARCHITECTURE.md, "Rules
of the house"). Imports inside functions count too: a late import that
closes a circle is still a circle.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("nova", "placement_client")


def _modules() -> dict[str, pathlib.Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


MODULES = _modules()


def _owner(name: str) -> str | None:
    """The module of ours ``name`` (a module or a name in one) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(name: str) -> set[str]:
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            owner = _owner(target)
            if owner and owner != name:
                found.add(owner)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def _circles() -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in GRAPH[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    return circles


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_the_graph_sees_imports():
    # What the rules below rely on: late and relative imports are found.
    assert "nova.db.engines" in GRAPH["nova.objects.base"]
    assert "nova.states.machine" in GRAPH["nova.compute.api.power"]


def test_no_import_circles():
    assert _circles() == []


DATABASE_USERS = ("nova.db", "nova.objects", "nova.cmd")


def test_the_database_is_reached_only_through_objects():
    climbing = sorted(
        f"{module} imports {imported}"
        for module, imports in GRAPH.items()
        if not any(_within(module, allowed) for allowed in DATABASE_USERS)
        for imported in imports
        if _within(imported, "nova.db")
    )
    assert climbing == []


# Who may not import whom: each module under the key's prefix keeps away
# from the modules under the listed prefixes (a layer above, or a room that
# is not its business), except those the third element allows.
LAYERS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    ("nova.states", ("nova",), ("nova.exception", "nova.states")),
    (
        "nova.db",
        ("nova.objects", "nova.compute", "nova.conductor", "nova.scheduler",
         "nova.api", "nova.virt", "nova.network", "nova.volume", "nova.image"),
        (),
    ),
    (
        "nova.objects",
        ("nova.compute", "nova.conductor", "nova.scheduler", "nova.api",
         "nova.virt", "nova.network", "nova.volume", "nova.image", "nova.cmd",
         "nova.launcher", "nova.rpc", "nova.quota"),
        # The network info model is the info cache's data.
        ("nova.network.model",),
    ),
    (
        "nova.virt",
        ("nova.compute", "nova.conductor", "nova.scheduler", "nova.api",
         "nova.cmd", "nova.network", "nova.volume"),
        ("nova.network.model",),
    ),
    (
        # What an instance is told about itself, built for the metadata API
        # and the compute's config drive alike.
        "nova.metadata",
        ("nova.compute", "nova.conductor", "nova.scheduler", "nova.api",
         "nova.virt", "nova.cmd", "nova.network", "nova.volume"),
        ("nova.network.model",),
    ),
    (
        "nova.scheduler",
        ("nova.compute", "nova.conductor", "nova.api", "nova.virt", "nova.cmd"),
        (),
    ),
    (
        "nova.quota",
        ("nova.compute", "nova.conductor", "nova.scheduler", "nova.api"),
        (),
    ),
    (
        "nova.network",
        ("nova.compute", "nova.conductor", "nova.scheduler", "nova.api",
         "nova.virt", "nova.objects"),
        (),
    ),
    (
        "nova.volume",
        ("nova.compute", "nova.conductor", "nova.scheduler", "nova.api",
         "nova.virt", "nova.objects"),
        (),
    ),
    (
        "nova.image",
        ("nova.compute", "nova.conductor", "nova.scheduler", "nova.api"),
        (),
    ),
    ("nova.compute", ("nova.api", "nova.cmd", "nova.launcher"), ()),
    (
        "nova.compute.api",
        ("nova.compute.manager", "nova.compute.flows", "nova.virt"),
        (),
    ),
    ("nova.compute.flows", ("nova.compute.api",), ()),
    ("nova.compute.manager", ("nova.compute.api",), ()),
    (
        "nova.conductor",
        ("nova.api", "nova.compute.api", "nova.compute.manager",
         "nova.compute.flows", "nova.virt", "nova.cmd", "nova.launcher"),
        (),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("layer", "above", "allowed"), LAYERS, ids=lambda v: v)
def test_no_import_climbs_a_layer(layer, above, allowed):
    climbing = sorted(
        f"{module} imports {imported}"
        for module, imports in GRAPH.items()
        if _within(module, layer)
        for imported in imports
        if any(_within(imported, prefix) for prefix in above)
        and not any(_within(imported, prefix) for prefix in allowed)
        and not _within(imported, layer)
    )
    assert climbing == []
