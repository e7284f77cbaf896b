"""The rooms of CONTRIBUTING.md, read from the import statements of every module of the apps:
another app uses wordclouds through its face (wordclouds/services/designs.py) and its engine
(a library), never its api, drawing, selectors or management commands; commerce uses exports
through its face (exports/production.py) only; wordclouds imports
nothing of commerce or exports; core imports no app; the engine imports nothing of the project
but the declared inputs' language (core/inputs.py) and no Django, and that language imports
only the standard library; wordclouds/drawing/ reads no models or storage and does not fork."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("core", "wordclouds", "commerce", "exports")
FACE = "wordclouds.services.designs"
EXPORTS_FACE = "exports.production"  # commerce's way to a design's production files
ENGINE = "wordclouds.engine"
INPUTS = "core.inputs"  # the one language of inputs: Django-free, every room may import it


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[str]:
    """The absolute names of what `path` imports, modules and names in them (relative
    imports resolved)."""
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            # `from wordclouds import storage` imports a module: each name counts too
            names += [module, *(f"{module}.{alias.name}" for alias in node.names)]
    return names


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _room(module: str) -> str:
    return ENGINE if _within(module, ENGINE) else module.split(".")[0]


def _allowed(room: str, name: str) -> bool:
    """May a module of `room` import `name`?"""
    if room == ENGINE:
        return (
            _within(name, ENGINE) or _within(name, INPUTS) or _room(name) not in (*APPS, "django")
        )
    target = _room(name)
    if target == room or target not in (*APPS, ENGINE):
        return True  # its own modules, Django and the other libraries
    if room == "core":
        return False  # core is what every app shares: it knows none of them
    if target == "core":
        return True
    if room == "wordclouds":
        return target == ENGINE
    # commerce and exports: wordclouds through its face and its engine; commerce also
    # exports through its face; nothing else
    if room == "commerce" and _within(name, EXPORTS_FACE):
        return True
    return target == ENGINE or _within(name, FACE)


def _modules() -> list[Path]:
    return [path for app in APPS for path in sorted((ROOT / app).rglob("*.py"))]


@pytest.mark.parametrize("room", [*APPS, ENGINE])
def test_each_room_imports_only_what_it_may(room):
    crossing = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in _modules()
        if _room(_module_name(path)) == room
        for name in _imports(path)
        if not _allowed(room, name)
    ]

    assert crossing == []


# What drawing/ must not reach: it takes prepared inputs (CONTRIBUTING.md, the rooms).
IMPURE = (
    "django",
    "wordclouds.models",
    "wordclouds.storage",
    "wordclouds.selectors",
    "wordclouds.services",
    "wordclouds.api",
    "core.isolated",
    "sqlite3",
    "multiprocessing",
    "subprocess",
)


def test_drawing_reads_no_models_or_storage_and_does_not_fork():
    reaching = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "wordclouds" / "drawing").glob("*.py"))
        for name in _imports(path)
        if any(_within(name, impure) for impure in IMPURE) or name in ("os.fork", "os")
    ]

    assert reaching == []


# The modules that open SQLite files themselves: positions.db's one owner (STYLE.md, "One owner
# per file format": the others, the revision engine among them, ask it for rows by column
# name), and the backup of the service's own SQLite database. The lookups and
# the placements write SQL against the service's database through Django, not sqlite3.
SQLITE_OPENERS = (
    "wordclouds/engine/positions.py",
    "wordclouds/services/backups.py",
)


def test_only_the_owner_of_positions_db_opens_sqlite():
    opening = [
        str(path.relative_to(ROOT))
        for path in _modules()
        if any(_within(name, "sqlite3") for name in _imports(path))
    ]

    assert opening == list(SQLITE_OPENERS)  # a stale entry fails too


def test_the_inputs_language_imports_only_the_standard_library():
    # the engine imports it: it must bring no Django (nor DRF, nor any app) along
    imported = {name.split(".")[0] for name in _imports(ROOT / "core" / "inputs.py")}

    assert imported <= set(sys.stdlib_module_names)


def test_the_rules_catch_what_they_forbid():
    # the rules themselves, on imports each room must not make
    assert not _allowed("commerce", "wordclouds.selectors")
    assert not _allowed("exports", "wordclouds.api.lookup")
    assert not _allowed("exports", "wordclouds.drawing.custom_svg")
    assert not _allowed("commerce", "wordclouds.management.commands.runcluster")
    assert not _allowed("commerce", "exports.pdf.services")
    assert _allowed(ENGINE, "core.inputs.Number")
    assert not _allowed(ENGINE, "core.errors")
    assert not _allowed(ENGINE, "django.conf")
    assert not _allowed("wordclouds", "commerce.payments.standin")
    assert not _allowed("core", "wordclouds.models")
    assert not _allowed(ENGINE, "django.conf")
    assert not _allowed(ENGINE, "wordclouds.storage")
    assert _allowed("exports", "wordclouds.engine.svg_geometry")
    assert _allowed("commerce", "wordclouds.services.designs")
    assert _allowed(ENGINE, "numpy")
