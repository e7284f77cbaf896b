"""The edits of a revision read and checked: their shape declared once (:data:`EDITS`, in
the service's language of inputs, core/inputs.py: the API's schema, docs/engine.md's table
and :func:`read_edits`, which reads no file), then their ids, names, spots and sizes against
the parent (docs/engine.md, "Revisions")."""

import dataclasses
import json

from core.inputs import Color, Either, Field, Items, Number, Object, Refused, Text, said_alike

from ..errors import InputError
from ..layout import FLOOR_FONT_SIZE
from ..names import MAX_NAME_LENGTH, clean_cell
from ..params import MAX_CANVAS_SIDE, MAX_KEEP_OUT, MAX_SEED, SHAPE, check_shapes
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


CODE = "edits_invalid"


@dataclasses.dataclass(frozen=True)
class NewName(Field):
    """A name to place: a text, cleaned as a spreadsheet's cell is, not empty, at most
    MAX_NAME_LENGTH characters."""

    code: str = CODE
    empty: str = "{name} must be a name that is not empty"
    too_long: str = f"{{name}} is longer than {MAX_NAME_LENGTH} characters"

    def parse(self, value, where=None):
        text = clean_cell(value) if isinstance(value, str) else None
        if not text:
            raise self._refused(self.empty, where)
        if len(text) > MAX_NAME_LENGTH:
            raise self._refused(self.too_long, where)
        return text

    def schema(self) -> dict:
        return {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH}

    def accepted(self) -> str:
        return f"a name of 1 to {MAX_NAME_LENGTH} characters"

    def _templates(self):
        return (self.empty, self.too_long)


def _entry(name: str, *fields: Field, optional=()) -> Object:
    """One entry of an edit's list: an object of exactly these fields, each one present
    (but those `optional`), each refused naming it."""
    return Object(
        name,
        "",
        code=CODE,
        fields=fields,
        refusal="{name} must be an object with {listed}",
        unknown='{name}: unknown field "{key}"',
        missing_key="{name}.{key} is required",
        optional=optional,
        missing_first=True,
        words="{" + ", ".join(f'"{field.name}"' for field in fields) + "}",
    )


def _number(name: str, low: float, high: float, **declared) -> Number:
    return Number(name, "", code=CODE, low=low, high=high, **declared)


WORD_ID = _number(
    "id",
    1,
    MAX_SEED,
    integer=True,
    high_shown="2^63-1",
    not_number="{name} must be a word id (an integer)",
    below="{name} must be a word id (an integer from 1 to 2^63-1)",
    above="{name} must be a word id (an integer from 1 to 2^63-1)",
)
IN_CANVAS = "{name} must be {accepted}"  # the bound knowable without the parent's canvas
ADDED = Either(
    "add",
    "",
    code=CODE,
    other=NewName("name", ""),
    whole=_entry(
        "add",
        NewName("name", ""),
        _number(
            "weight",
            0,
            MAX_WEIGHT,
            above_low=True,
            below=f"{{name}} must be above 0 and at most {MAX_WEIGHT:g}",
            above=f"{{name}} must be above 0 and at most {MAX_WEIGHT:g}",
        ),
        Text("group", "", code=CODE, high=100, empty="{name} must not be empty"),
        optional=(("weight", 1.0), ("group", None)),
    ),
)
ENTRIES = {
    "add": ADDED,
    "remove": WORD_ID,
    "rename": _entry("rename", WORD_ID, NewName("name", "")),
    "move": _entry(
        "move",
        WORD_ID,
        *(_number(c, 0, MAX_CANVAS_SIDE, below=IN_CANVAS, above=IN_CANVAS) for c in "xy"),
    ),
    "resize": _entry(
        "resize",
        WORD_ID,
        _number(
            "fontSize",
            FLOOR_FONT_SIZE,
            MAX_CANVAS_SIDE / 2,
            below="{name} must be from {low} to {high} px",
            above="{name} must be from {low} to {high} px",
        ),
    ),
    "recolor": _entry("recolor", WORD_ID, Color("color", "", code=CODE)),
    "keepOut": dataclasses.replace(SHAPE, code=CODE),
}
# The edits object: each list within its bound (an absent one empty), and the seed.
EDITS = Object(
    "",
    "The edits of a revision (docs/engine.md, Revisions); every key is optional.",
    code=CODE,
    fields=(
        *(
            Items(
                key,
                "",
                code=CODE,
                item=ENTRIES[key],
                high=bound,
                refusal="{name} must be a list",
                too_many="{name} has {count} entries; at most {high} are allowed",
            )
            for key, bound in LIST_BOUNDS.items()
        ),
        _number(
            "seed",
            0,
            MAX_SEED,
            integer=True,
            high_shown="2^63-1",
            **said_alike("{name} must be {accepted}"),
        ),
    ),
    refusal="the edits must be a JSON object",
    unknown=f'unknown edit "{{key}}"; edits are {", ".join(EDIT_KEYS)}',
    optional=(*((key, ()) for key in LIST_BOUNDS), ("seed", None)),
)


def read_edits(edits) -> dict:
    """The edits' shape checked as :data:`EDITS` declares it (types, bounds, unknown keys):
    cheap, it reads no file, so a bad request is refused before any heavy work. Raises
    :class:`InputError` naming the first problem."""
    try:
        return EDITS.parse(edits)
    except Refused as refused:
        raise InputError(refused.detail) from None


def _word_id(word_id: int, where: str, ids) -> int:
    if word_id not in ids:
        raise InputError(f"{where}: no word with id {word_id}")
    return word_id


def check_edits(
    edits: dict, *, parent: Parent, mask_path=None, font_path=None, mask_font_path=None
) -> dict:
    """The edits of a revision, checked against the ``parent``'s files (its positions.db
    read already, by ``Parent(folder)``) and normalised; raises :class:`InputError` naming
    the first problem (see docs/engine.md for the rules)."""
    parent.text_font = mask_font_path
    return _checked(edits, parent, mask_path, font_path)


def _check_groups(added, parent: Parent) -> None:
    """An added name of a poster with groups names one of its groups (it goes into that
    group's region); one of a poster without groups names none."""
    groups = [spec["group"] for spec in json.loads(parent.meta.get("groups", "[]"))]
    for k, entry in enumerate(added):
        group = entry["group"]
        if groups and group is None:
            raise InputError(f"add[{k}].group is required: the poster has groups")
        if group is not None and not groups:
            raise InputError(f"add[{k}].group: the poster has no groups")
        if group is not None and group not in groups:
            raise InputError(f'add[{k}].group is not a group of the poster: "{group}"')


def _checked(edits, parent: Parent, mask_path, font_path) -> dict:
    read = read_edits(edits)
    if not any(read[key] for key in LIST_BOUNDS):
        raise InputError("no edit given: add, remove, rename, move, resize, recolor or keepOut")
    ids = parent.rows
    clean = {"seed": read["seed"]}
    clean["add"] = [
        entry if isinstance(entry, dict) else {"name": entry, "weight": 1.0, "group": None}
        for entry in read["add"]
    ]
    _check_groups(clean["add"], parent)
    clean["remove"] = [_word_id(v, f"remove[{k}]", ids) for k, v in enumerate(read["remove"])]
    named = {}  # word id → the edits naming it
    for word_id in clean["remove"]:
        if "remove" in named.get(word_id, ()):
            raise InputError(f"id {word_id} is in remove twice")
        named.setdefault(word_id, []).append("remove")
    side = min(parent.width, parent.height)
    for kind in WORD_EDITS:
        clean[kind] = []
        for k, entry in enumerate(read[kind]):
            where = f"{kind}[{k}]"
            word_id = _word_id(entry["id"], f"{where}.id", ids)
            earlier = named.setdefault(word_id, [])
            if kind in earlier or "remove" in earlier:
                other = kind if kind in earlier else "remove"
                raise InputError(f"id {word_id} is in both {other} and {kind}")
            earlier.append(kind)
            if kind == "move":
                if not (0 <= entry["x"] < parent.width and 0 <= entry["y"] < parent.height):
                    raise InputError(
                        f"{where}: ({entry['x']:g}, {entry['y']:g}) is outside the canvas "
                        f"({parent.width}×{parent.height} px)"
                    )
            elif kind == "resize":
                size = entry["fontSize"]
                if size > side / 2:  # the declared bound is half the largest canvas's side
                    raise InputError(
                        f"{where}.fontSize must be from {FLOOR_FONT_SIZE:g} to {side / 2:g} px"
                    )
                entry["fontSize"] = round(size, 2)
            clean[kind].append(entry)
    clean["keepOut"] = list(read["keepOut"])
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
