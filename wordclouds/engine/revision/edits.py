"""The edits of a revision read and checked: their lists, ids, names, spots and sizes
(docs/engine.md, "Revisions")."""

from ..errors import InputError
from ..layout import FLOOR_FONT_SIZE
from ..names import MAX_NAME_LENGTH, clean_cell
from ..params import (
    COLOR_PATTERN,
    MAX_KEEP_OUT,
    MAX_SEED,
    check_shapes,
    finite_number,
    parse_shape,
)
from ..shaping import undrawable
from .parent import Parent, _check_spots, _shapes

# Bounds on every list of a revision (docs/engine.md, "Revisions").
LIST_BOUNDS = {
    "add": 10_000,
    "remove": 10_000,
    "rename": 1_000,
    "move": 1_000,
    "resize": 1_000,
    "recolor": 10_000,
    "keepOut": MAX_KEEP_OUT,
}
EDIT_KEYS = (*LIST_BOUNDS, "seed")
WORD_EDITS = ("rename", "move", "resize", "recolor")
MAX_WEIGHT = 1e9


def _word_id(value, where: str, ids) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{where} must be a word id (an integer)")
    if value not in ids:
        raise InputError(f"{where}: no word with id {value}")
    return value


def _entry(value, where: str, fields: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise InputError(f"{where} must be an object with {', '.join(fields)}")
    for name in value:
        if name not in fields:
            raise InputError(f'{where}: unknown field "{str(name)[:40]}"')
    for name in fields:
        if name not in value:
            raise InputError(f"{where}.{name} is required")
    return value


def _new_name(value, where: str) -> str:
    text = clean_cell(value) if isinstance(value, str) else None
    if not text:
        raise InputError(f"{where} must be a name that is not empty")
    if len(text) > MAX_NAME_LENGTH:
        raise InputError(f"{where} is longer than {MAX_NAME_LENGTH} characters")
    return text


def check_edits(edits: dict, *, parent_dir, mask_path=None, font_path=None) -> dict:
    """The edits of a revision, checked against the parent's files and normalised; raises
    :class:`InputError` naming the first problem (see docs/engine.md for the rules)."""
    return _checked(edits, Parent(parent_dir), mask_path, font_path)


def _checked(edits, parent: Parent, mask_path, font_path) -> dict:
    if not isinstance(edits, dict):
        raise InputError("the edits must be a JSON object")
    for key in edits:
        if key not in EDIT_KEYS:
            raise InputError(f'unknown edit "{str(key)[:40]}"; edits are {", ".join(EDIT_KEYS)}')
    for key, bound in LIST_BOUNDS.items():
        value = edits.get(key, [])
        if not isinstance(value, list):
            raise InputError(f"{key} must be a list")
        if len(value) > bound:
            raise InputError(f"{key} has {len(value)} entries; at most {bound} are allowed")
    if not any(edits.get(key) for key in LIST_BOUNDS):
        raise InputError("no edit given: add, remove, rename, move, resize, recolor or keepOut")
    ids = parent.rows
    seed = edits.get("seed")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
    ):
        raise InputError("seed must be an integer from 0 to 2^63-1")
    clean = {"seed": seed}
    clean["add"] = []
    for k, item in enumerate(edits.get("add", [])):
        where = f"add[{k}]"
        if isinstance(item, dict):
            entry = _entry({"weight": 1, **item}, where, ("name", "weight"))
            weight = finite_number(entry["weight"], f"{where}.weight")
            if not 0 < weight <= MAX_WEIGHT:
                raise InputError(f"{where}.weight must be above 0 and at most {MAX_WEIGHT:g}")
            name = _new_name(entry["name"], f"{where}.name")
        else:
            name, weight = _new_name(item, where), 1.0
        clean["add"].append({"name": name, "weight": weight})
    clean["remove"] = [
        _word_id(v, f"remove[{k}]", ids) for k, v in enumerate(edits.get("remove", []))
    ]
    named = {}  # word id → the edits naming it
    for word_id in clean["remove"]:
        if "remove" in named.get(word_id, ()):
            raise InputError(f"id {word_id} is in remove twice")
        named.setdefault(word_id, []).append("remove")
    side = min(parent.width, parent.height)
    fields = {"rename": ("id", "name"), "move": ("id", "x", "y"), "resize": ("id", "fontSize"),
              "recolor": ("id", "color")}  # fmt: skip
    for kind in WORD_EDITS:
        clean[kind] = []
        for k, item in enumerate(edits.get(kind, [])):
            where = f"{kind}[{k}]"
            entry = dict(_entry(item, where, fields[kind]))
            word_id = entry["id"] = _word_id(entry["id"], f"{where}.id", ids)
            earlier = named.setdefault(word_id, [])
            if kind in earlier or "remove" in earlier:
                other = kind if kind in earlier else "remove"
                raise InputError(f"id {word_id} is in both {other} and {kind}")
            earlier.append(kind)
            if kind == "rename":
                entry["name"] = _new_name(entry["name"], f"{where}.name")
            elif kind == "move":
                entry["x"], entry["y"] = (
                    finite_number(entry[c], f"{where}.{c}") for c in ("x", "y")
                )
                if not (0 <= entry["x"] < parent.width and 0 <= entry["y"] < parent.height):
                    raise InputError(
                        f"{where}: ({entry['x']:g}, {entry['y']:g}) is outside the canvas "
                        f"({parent.width}×{parent.height} px)"
                    )
            elif kind == "resize":
                size = finite_number(entry["fontSize"], f"{where}.fontSize")
                if not FLOOR_FONT_SIZE <= size <= side / 2:
                    raise InputError(
                        f"{where}.fontSize must be from {FLOOR_FONT_SIZE:g} to {side / 2:g} px"
                    )
                entry["fontSize"] = round(size, 2)
            elif not isinstance(entry["color"], str) or not COLOR_PATTERN.fullmatch(entry["color"]):
                raise InputError(f"{where}.color must be #RRGGBB")
            else:
                entry["color"] = entry["color"].upper()
            clean[kind].append(entry)
    clean["keepOut"] = [
        parse_shape(v, f"keepOut[{k}]") for k, v in enumerate(edits.get("keepOut", []))
    ]
    check_shapes(clean["keepOut"], "keepOut", parent.width, parent.height)
    typeface = _shapes(parent, font_path).typeface
    for where, entries in (("add", clean["add"]), ("rename", clean["rename"])):
        for k, entry in enumerate(entries):
            missing = undrawable(entry["name"], typeface)
            if missing:
                points = ", ".join(f"U+{ord(char):04X}" for char in missing)
                raise InputError(
                    f'{where}[{k}]: "{entry["name"]}" has characters the poster\'s font cannot '
                    f"draw ({points})"
                )
    pinned = {e["id"] for e in clean["move"] + clean["resize"]}
    if pinned:
        _check_spots(clean, parent, mask_path, font_path)
    return clean
