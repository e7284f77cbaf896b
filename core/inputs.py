"""Inputs declared once: each query parameter (or field of a JSON body) an endpoint reads is
one `Option` (name, kind, bounds, the sentences of its 400s, what it means), and reading it,
its OpenAPI schema and its row in the docs' table all come from that declaration. The values
go into a frozen dataclass, whose field defaults are the inputs' defaults.

`manage.py docs_tables` writes the tables into the docs between markers naming the
declaration (`docs_tables` below); a test checks the committed docs equal the written ones."""

import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from django.utils.module_loading import import_string
from drf_spectacular.utils import OpenApiParameter

from core.errors import InvalidInput

TRUE, FALSE = ("1", "true"), ("0", "false")  # a boolean's texts, in any case


def is_true(text: str) -> bool | None:
    """`1`/`true` → True, `0`/`false` → False (any case), anything else → None."""
    lowered = text.lower()
    return True if lowered in TRUE else False if lowered in FALSE else None


@dataclasses.dataclass(frozen=True)
class Option:
    """One input: its value is read from a non-empty, trimmed text."""

    name: str
    description: str

    def parse(self, text: str):
        raise NotImplementedError

    def schema(self) -> dict:
        raise NotImplementedError

    def accepted(self) -> str:
        """What a valid value is, for the docs' table."""
        raise NotImplementedError

    def refusals(self) -> tuple[str, ...]:
        """The 400 sentences a bad value gets, for the docs' table."""
        raise NotImplementedError

    def _refused(self, sentence: str) -> InvalidInput:
        return InvalidInput(sentence.format(**vars(self)), code="option_invalid")


@dataclasses.dataclass(frozen=True)
class Number(Option):
    """A finite number from `low` to `high` (above `low` when `above_low`); `least`, when
    set, is a tighter lower bound inside that range with a sentence of its own."""

    low: float = 0.0
    high: float = 0.0
    above_low: bool = False
    not_number: str = "{name} must be a number"
    below: str = "{name} must be from {low:g} to {high:g}"
    above: str = "{name} must be from {low:g} to {high:g}"
    least: float | None = None
    below_least: str = ""

    def parse(self, text: str) -> float:
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise self._refused(self.not_number)
        if number < self.low or (self.above_low and number == self.low):
            raise self._refused(self.below)
        if number > self.high:
            raise self._refused(self.above)
        if self.least is not None and number < self.least:
            raise self._refused(self.below_least)
        return number

    def schema(self) -> dict:
        if self.least is not None:
            low = {"minimum": self.least}
        elif self.above_low:
            low = {"minimum": self.low, "exclusiveMinimum": True}
        else:
            low = {"minimum": self.low}
        return {"type": "number", **low, "maximum": self.high}

    def accepted(self) -> str:
        if self.least is not None:
            return f"a number from {self.least:g} to {self.high:g}"
        if self.above_low:
            return f"a number above {self.low:g} and at most {self.high:g}"
        return f"a number from {self.low:g} to {self.high:g}"

    def refusals(self) -> tuple[str, ...]:
        sentences = (self.not_number, self.below, self.above)
        sentences += (self.below_least,) if self.least is not None else ()
        return tuple(dict.fromkeys(s.format(**vars(self)) for s in sentences))


@dataclasses.dataclass(frozen=True)
class Boolean(Option):
    """0, 1, true or false in any case (a JSON body may send true or false)."""

    def parse(self, text: str) -> bool:
        value = is_true(text)
        if value is None:
            raise self._refused(self.refusals()[0])
        return value

    def schema(self) -> dict:
        return {"type": "boolean"}

    def accepted(self) -> str:
        return "0, 1, true, false (any case)"

    def refusals(self) -> tuple[str, ...]:
        return (f"{self.name} must be 0, 1, true or false",)


@dataclasses.dataclass(frozen=True)
class Choice(Option):
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> str:
        if text not in self.choices:
            raise self._refused(self.refusals()[0])
        return text

    def schema(self) -> dict:
        return {"type": "string", "enum": list(self.choices)}

    def accepted(self) -> str:
        return ", ".join(self.choices)

    def refusals(self) -> tuple[str, ...]:
        return (f"{self.name} must be one of {', '.join(self.choices)}",)


@dataclasses.dataclass(frozen=True)
class Pattern(Option):
    """A text matching `pattern` whole (upper-cased when `upper`), refused with `refusal`."""

    pattern: str = ""
    refusal: str = ""
    meaning: str = ""  # what a valid value is, in words
    upper: bool = False

    def parse(self, text: str) -> str:
        if not re.fullmatch(self.pattern, text):
            raise self._refused(self.refusal)
        return text.upper() if self.upper else text

    def schema(self) -> dict:
        return {"type": "string", "pattern": f"^{self.pattern}$"}

    def accepted(self) -> str:
        return self.meaning

    def refusals(self) -> tuple[str, ...]:
        return (self.refusal,)


@dataclasses.dataclass(frozen=True)
class Inputs:
    """A set of options read into the frozen dataclass `values` (one field per option, its
    default the option's default), checked in the order declared."""

    values: type
    options: tuple[Option, ...]

    def __post_init__(self):
        fields = sorted(field.name for field in dataclasses.fields(self.values))
        if fields != sorted(self.names):
            raise TypeError(f"{self.values.__name__}'s fields are not the options declared")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(option.name for option in self.options)

    def default(self, name: str):
        return self.values.__dataclass_fields__[name].default

    def parse(self, given: Mapping):
        """The values from query parameters or a JSON object; absent or empty: the default.
        The first bad value (in the declared order) is refused with its sentence."""
        values = {}
        for option in self.options:
            text = _text(given.get(option.name))
            if text:
                values[option.name] = option.parse(text)
        return self.values(**values)

    def schemas(self) -> dict[str, dict]:
        """Each option's OpenAPI schema, with its default and description."""
        schemas = {}
        for option in self.options:
            schema = option.schema()
            if self.default(option.name) is not None:
                schema["default"] = self.default(option.name)
            schemas[option.name] = {**schema, "description": option.description}
        return schemas

    def required(self) -> list[str]:
        """None: an absent option takes its default."""
        return []

    def parameters(self) -> list[OpenApiParameter]:
        """The options as drf-spectacular query parameters."""
        return [
            OpenApiParameter(
                name,
                {key: value for key, value in schema.items() if key != "description"},
                description=schema["description"],
            )
            for name, schema in self.schemas().items()
        ]

    def rows(self) -> list[dict[str, str]]:
        """The docs' table: one row per option."""
        return [
            {
                "parameter": option.name,
                "default": _shown(self.default(option.name)),
                "accepted": option.accepted(),
                "error (400)": " / ".join(f"`{s}`" for s in option.refusals()),
                "meaning": option.description,
            }
            for option in self.options
        ]


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip()


def _shown(default) -> str:
    """A default as the docs' tables write it."""
    if default is None:
        return "—"
    if isinstance(default, bool):
        return "true" if default else "false"
    if isinstance(default, float):
        return f"{default:g}"
    return f"`{default}`" if isinstance(default, str) else str(default)


def markdown_table(rows: Sequence[Mapping[str, str]]) -> str:
    """Rows (column → cell, the first row's columns in order) as a Markdown table."""
    columns = list(rows[0])
    lines = [columns, ["---"] * len(columns)]
    lines += [[row[column].replace("|", "\\|") for column in columns] for row in rows]
    return "\n".join(f"| {' | '.join(cells)} |" for cells in lines)


TABLE = re.compile(r"(<!-- table: (\S+) [^\n]*-->\n)(.*?)(<!-- end of table -->)", re.DOTALL)


def docs_tables(text: str) -> str:
    """The Markdown `text` with each generated table written anew from the declaration its
    marker names: an object with `rows()`, or a function returning the rows."""

    def table(match: re.Match) -> str:
        source = import_string(match[2])
        rows = source.rows() if hasattr(source, "rows") else source()
        return f"{match[1]}{markdown_table(rows)}\n{match[4]}"

    return TABLE.sub(table, text)


def docs_with_tables(folder: Path) -> dict[Path, str]:
    """Every Markdown page of `folder` that has generated tables, as it should read."""
    return {
        path: docs_tables(path.read_text())
        for path in sorted(folder.glob("*.md"))
        if TABLE.search(path.read_text())
    }
