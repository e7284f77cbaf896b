"""Every function of the engine fits on a screen: none under wordclouds/engine/ is longer
than 60 lines (its decorators, signature, docstring and body), nested functions and methods
included. The count comes from the source's syntax tree, so it fails on the function that
grew, by name."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "wordclouds" / "engine"
LONGEST = 60


def long_functions() -> list[tuple[str, str, int]]:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = node.end_lineno - first + 1
                if length > LONGEST:
                    found.append((path.relative_to(ENGINE).as_posix(), node.name, length))
    return found


def test_no_engine_function_is_longer_than_60_lines():
    assert long_functions() == []
