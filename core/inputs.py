"""Inputs declared once, in one language for the whole service: each query parameter, field of
a JSON body or key of a job's `params` is one field (its name, kind, bounds, the sentence and
code of its 400, what it means), and reading it, its OpenAPI schema, its row in the docs'
table and the example of its error code all come from that declaration. The values go into a
frozen dataclass, whose field defaults are the inputs' defaults.

Django-free (the standard library only): every room may import it, the engine included
(CONTRIBUTING.md, the rooms). A refusal is a `Refused` carrying its sentence and code; the
error path (core/errors.py) answers it 400. drf-spectacular's query parameters are built in
core/inputs_schema.py.

`manage.py docs_tables` writes the tables into the docs between markers naming the
declaration (`docs_tables` below); a test checks the committed docs equal the written ones."""

import dataclasses
import importlib
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path, PurePath

COLOR = "#[0-9A-Fa-f]{6}"  # a #RRGGBB colour: the one place the pattern is written
NO_NUL = "^[^\\u0000]*$"  # a text without NUL characters, as a schema's pattern
# The same for a trimmed text that may not be blank: something besides white space, as
# Python's str.strip() (what DRF and a Form trim with) sees it. ECMA's \s differs: it leaves
# out U+001C-U+001F and U+0085, which Python strips, and takes in U+FEFF, which it keeps.
PYTHON_WHITE_SPACE = (
    r"\t\n\u000b\f\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028"
    r"\u2029\u202f\u205f\u3000"
)
NOT_BLANK = rf"^[^\u0000]*[^{PYTHON_WHITE_SPACE}\u0000][^\u0000]*$"
TRUE, FALSE = ("1", "true"), ("0", "false")  # a boolean's texts, in any case


class Refused(ValueError):
    """A refused input: `detail` is the sentence, `code` its code (core/error_codes.py),
    `status` 400, 413 for an upload over its size limit, or the field's own (404)."""

    def __init__(self, detail: str, code: str | None = None, status: int = 400):
        super().__init__(detail)
        self.detail = detail
        self.code = code
        self.status = status


def is_true(text: str) -> bool | None:
    """`1`/`true` → True, `0`/`false` → False (any case), anything else → None."""
    lowered = text.lower()
    return True if lowered in TRUE else False if lowered in FALSE else None


def number_shown(number: float) -> str:
    """A bound as the sentences and tables write it: 64, 0.5, 1048576 (never 1.04858e+06)."""
    if isinstance(number, int) or float(number).is_integer():
        return str(int(number))
    return repr(float(number))


@dataclasses.dataclass(frozen=True)
class Field:
    """One input. `parse` reads a JSON value (strictly typed), `read` the non-empty, trimmed
    text of a query parameter; both raise `Refused` with one of `refusals()` and `code`.
    `attribute` is its field in the values' dataclass (its name when empty); `absent` says in
    words what an absent value means when that is not one value."""

    name: str
    description: str
    code: str = "option_invalid"
    attribute: str = ""
    absent: str = ""
    required: str = "no"  # in a form: yes, no, or when
    missing: str = ""  # in a form: the sentence when it is absent or blank, if refused so
    missing_code: str = ""
    status: int = 400  # of its refusals (404: a value that names nothing, as a path would)

    def parse(self, value, where: str | None = None):
        raise NotImplementedError

    def read(self, text: str, where: str | None = None):
        return self.parse(text, where)

    def schema(self) -> dict:
        raise NotImplementedError

    def accepted(self) -> str:
        """What a valid value is, in words (the docs' table)."""
        raise NotImplementedError

    def refusals(self, where: str | None = None) -> tuple[str, ...]:
        """The 400 sentences a bad value gets (named `where`, else by its name), for the
        docs' table and the error codes' examples."""
        sentences = (self._sentence(t, where) for t, _ in self._refusing())
        # what the client sends is written KEY (a key) and N (a count) in the docs
        shown = (s.replace("{key}", "KEY").replace("{count}", "N") for s in sentences)
        return tuple(dict.fromkeys(shown))

    def refused_with(self, code: str, where: str | None = None) -> str:
        """The first sentence this field refuses with `code` (an error code's example)."""
        for template, refusing in self._refusing():
            if refusing == code:
                return self._sentence(template, where)
        raise KeyError(f"{self.name} never refuses with {code}")

    def _refusing(self) -> tuple[tuple[str, str], ...]:
        """Each refusal's template and code."""
        missing = ((self.missing, self.missing_code),) if self.missing else ()
        return (*missing, *((t, self.code) for t in self._templates()))

    def _templates(self) -> tuple[str, ...]:
        raise NotImplementedError

    def _sentence(self, template: str, where: str | None = None) -> str:
        shown = {key: number_shown(v) for key, v in vars(self).items() if _is_number(v)}
        # {key} and {count} are the client's: put in after the sentence is made
        fields = {**vars(self), **shown, "accepted": self.accepted()}
        fields.update(key="{key}", count="{count}")
        return template.format(**{**fields, "name": where or self.name})

    def _refused(self, template: str, where: str | None, code: str = "") -> Refused:
        return Refused(self._sentence(template, where), code or self.code, self.status)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclasses.dataclass(frozen=True)
class Number(Field):
    """A finite number from `low` to `high` (above `low` when `above_low`; a whole number
    when `integer`); `least`, when set, is a tighter lower bound inside that range with a
    sentence of its own. `high_shown` writes a bound too long to read (2^63-1)."""

    low: float = 0.0
    high: float = 0.0
    above_low: bool = False
    integer: bool = False
    not_number: str = "{name} must be a number"
    below: str = "{name} must be from {low} to {high}"
    above: str = "{name} must be from {low} to {high}"
    least: float | None = None
    below_least: str = ""
    high_shown: str = ""
    exact: bool = False  # kept as sent (an integer stays one), not made a float

    def parse(self, value, where=None):
        # Compared before any float conversion: a huge JSON integer must not overflow.
        if not _is_number(value) or (self.integer and not isinstance(value, int)):
            raise self._refused(self.not_number, where)
        if isinstance(value, float) and not math.isfinite(value):
            raise self._refused(self.not_number, where)
        if value < self.low or (self.above_low and value == self.low):
            raise self._refused(self.below, where)
        if value > self.high:
            raise self._refused(self.above, where)
        if self.least is not None and value < self.least:
            raise self._refused(self.below_least, where)
        return value if self.integer or self.exact else float(value)

    def read(self, text, where=None):
        try:
            number = int(text) if self.integer else float(text)
        except ValueError:
            raise self._refused(self.not_number, where) from None
        return self.parse(number, where)

    def schema(self) -> dict:
        kind = {"type": "integer", "format": "int64"} if self.integer else {"type": "number"}
        if self.least is not None:
            low = {"minimum": self.least}
        elif self.above_low:
            low = {"minimum": self.low, "exclusiveMinimum": True}
        else:
            low = {"minimum": self.low}
        return {**kind, **low, "maximum": self.high}

    def accepted(self) -> str:
        article = "an integer" if self.integer else "a number"
        high = self.high_shown or number_shown(self.high)
        if self.least is not None:
            return f"{article} from {number_shown(self.least)} to {high}"
        if self.above_low:
            return f"{article} above {number_shown(self.low)} and at most {high}"
        return f"{article} from {number_shown(self.low)} to {high}"

    def _templates(self):
        return (self.not_number, self.below, self.above) + (
            (self.below_least,) if self.least is not None else ()
        )


def said_alike(sentence: str) -> dict[str, str]:
    """A Number's refusals when it says one thing whatever is wrong (`{name} must be
    {accepted}`): its not_number, below and above."""
    return {"not_number": sentence, "below": sentence, "above": sentence}


@dataclasses.dataclass(frozen=True)
class Boolean(Field):
    """true or false in JSON; 0, 1, true or false in any case in a query."""

    refusal: str = "{name} must be 0, 1, true or false"
    words: str = "0, 1, true, false (any case)"

    def parse(self, value, where=None):
        if not isinstance(value, bool):
            raise self._refused(self.refusal, where)
        return value

    def read(self, text, where=None):
        value = is_true(text)
        if value is None:
            raise self._refused(self.refusal, where)
        return value

    def schema(self) -> dict:
        return {"type": "boolean"}

    def accepted(self) -> str:
        return self.words

    def _templates(self):
        return (self.refusal,)


@dataclasses.dataclass(frozen=True)
class Choice(Field):
    choices: tuple[str, ...] = ()
    refusal: str = "{name} must be one of {listed}"

    @property
    def listed(self) -> str:
        return ", ".join(self.choices)

    def parse(self, value, where=None):
        if not isinstance(value, str) or value not in self.choices:
            raise self._refused(self.refusal, where)
        return value

    def schema(self) -> dict:
        return {"type": "string", "enum": list(self.choices)}

    def accepted(self) -> str:
        return f"{', '.join(self.choices[:-1])} or {self.choices[-1]}".removeprefix(" or ")

    def _templates(self):
        return (self.refusal,)

    def _sentence(self, template, where=None):
        return super()._sentence(template.replace("{listed}", self.listed), where)


@dataclasses.dataclass(frozen=True)
class Pattern(Field):
    """A text matching `pattern` whole (upper-cased when `upper`), refused with `refusal`;
    `also` are words taken as they are besides (`transparent`)."""

    pattern: str = ""
    refusal: str = "{name} must be {accepted}"
    meaning: str = ""  # what a valid value is, in words
    upper: bool = False
    also: tuple[str, ...] = ()

    def parse(self, value, where=None):
        if isinstance(value, str) and value in self.also:
            return value
        if not isinstance(value, str) or not re.fullmatch(self.pattern, value):
            raise self._refused(self.refusal, where)
        return value.upper() if self.upper else value

    def schema(self) -> dict:
        alternatives = "|".join((self.pattern, *self.also))
        return {
            "type": "string",
            "pattern": f"^({alternatives})$" if self.also else f"^{alternatives}$",
        }

    def accepted(self) -> str:
        return self.meaning

    def _templates(self):
        return (self.refusal,)


def Color(name: str, description: str, **declared) -> Pattern:  # noqa: N802 (a kind of field)
    """A #RRGGBB colour, written upper-case (unless `upper=False`)."""
    meaning = " or ".join(("#RRGGBB", *declared.get("also", ())))
    declared.setdefault("upper", True)
    return Pattern(name, description, pattern=COLOR, meaning=meaning, **declared)


@dataclasses.dataclass(frozen=True)
class Text(Field):
    """A text (of a form: trimmed by the form; of a JSON body: trimmed when `trim`), refused
    when it holds a NUL character (which PostgreSQL cannot store), a lone surrogate (when
    `surrogate` says so: UTF-8 cannot hold one) or is longer than `high` characters as sent
    (None: any length)."""

    high: int | None = None
    not_text: str = "{name} must be a string"
    nul: str = "{name} must not contain NUL characters"
    nul_code: str = "text_contains_nul"
    too_long: str = "{name} must be at most {high} characters"
    too_long_code: str = "text_too_long"
    empty: str = ""  # set: the empty text (once trimmed) is refused with it
    meaning: str = ""
    trim: bool = False  # white space at either end dropped, as str.strip() drops it
    surrogate: str = ""  # set: a lone surrogate is refused with it

    def parse(self, value, where=None):
        if not isinstance(value, str):
            raise self._refused(self.not_text, where)
        sent, value = value, value.strip() if self.trim else value
        if self.empty and not value:
            raise self._refused(self.empty, where)
        if "\x00" in value:
            raise self._refused(self.nul, where, self.nul_code)
        if self.surrogate and any("\ud800" <= c <= "\udfff" for c in value):
            raise self._refused(self.surrogate, where)
        if self.high is not None and len(sent) > self.high:
            raise self._refused(self.too_long, where, self.too_long_code)
        return value

    def schema(self) -> dict:
        low = {"minLength": 1} if self.empty else {}
        high = {"maxLength": self.high} if self.high is not None else {}
        # a text refused when blank once trimmed (by the form, or by itself) says so
        blank_refused = self.missing or self.trim and self.empty
        return {"type": "string", "pattern": NOT_BLANK if blank_refused else NO_NUL, **low, **high}

    def accepted(self) -> str:
        return self.meaning or (
            f"a text of at most {self.high} characters" if self.high else "a text"
        )

    def _refusing(self):
        long = ((self.too_long, self.too_long_code),) if self.high is not None else ()
        surrogate = ((self.surrogate, self.code),) if self.surrogate else ()
        return (*super()._refusing(), (self.nul, self.nul_code), *surrogate, *long)

    def _templates(self):
        return (self.not_text, *((self.empty,) if self.empty else ()))


@dataclasses.dataclass(frozen=True)
class Nullable(Field):
    """The field `value`, or null (None) where null means something (no print size)."""

    value: Field | None = None

    def parse(self, value, where=None):
        return None if value is None else self.value.parse(value, where)

    def schema(self) -> dict:
        return {**self.value.schema(), "nullable": True}

    def accepted(self) -> str:
        return f"{self.value.accepted()}, or null"

    def _templates(self):
        return ()

    def refusals(self, where=None):
        return self.value.refusals(where)

    def refused_with(self, code, where=None):
        return self.value.refused_with(code, where)


def nullable(field: Field) -> Nullable:
    """`field`, or null: named, described and kept (its attribute) as `field` is."""
    return Nullable(
        field.name, field.description, code=field.code, attribute=field.attribute, value=field
    )


@dataclasses.dataclass(frozen=True)
class Items(Field):
    """A JSON array of `low` to `high` values of the field `item`, read into a tuple; each
    item is refused by its own sentence naming its place (`name[2]`), or all by `refusal`
    when `refusal_items` is set."""

    item: Field | None = None
    low: int = 0
    high: int = 0
    refusal: str = "{name} must be {accepted}"
    item_words: str = ""  # what an item is, in the plural (`#RRGGBB colours`)
    refusal_items: bool = False  # a bad item is refused as the array is
    too_many: str = ""  # the sentence of too many items, when not `refusal`
    too_many_code: str = ""

    def parse(self, value, where=None):
        if not isinstance(value, list) or len(value) < self.low:
            raise self._refused(self.refusal, where)
        if len(value) > self.high:
            detail = self._sentence(self.too_many or self.refusal, where)
            code = self.too_many_code or self.code
            raise Refused(detail.replace("{count}", str(len(value))), code)
        name = where or self.name
        try:
            return tuple(self.item.parse(v, f"{name}[{k}]") for k, v in enumerate(value))
        except Refused:
            if self.refusal_items:
                raise self._refused(self.refusal, where) from None
            raise

    def schema(self) -> dict:
        low = {"minItems": self.low} if self.low else {}
        return {"type": "array", "items": self.item.schema(), **low, "maxItems": self.high}

    def accepted(self) -> str:
        items = self.item_words or f"items, each {self.item.accepted()}"
        if self.low:
            return f"an array of {self.low} to {self.high} {items}"
        return f"an array of at most {self.high} {items}"

    def _templates(self):
        return (self.refusal,)

    def _refusing(self):
        many = ((self.too_many, self.too_many_code or self.code),) if self.too_many else ()
        return (*super()._refusing(), *many)

    def refusals(self, where=None):
        own = super().refusals(where)
        return own if self.refusal_items else own + self.item.refusals(f"{where or self.name}[k]")

    def refused_with(self, code, where=None):
        try:
            return super().refused_with(code, where)
        except KeyError:
            return self.item.refused_with(code, f"{where or self.name}[0]")


@dataclasses.dataclass(frozen=True)
class Object(Field):
    """A JSON object of exactly the `fields` (each required), read into a dict; refused with
    `refusal` when it is not one, else by the first bad field's own sentence (`name.x`)."""

    fields: tuple[Field, ...] = ()
    refusal: str = "{name} must be an object with {listed}"
    words: str = ""  # what it is, in words (the docs' table)
    # Set, these name the problem instead of `refusal`: a key not declared, one not sent (a
    # field in `optional` takes its value there when not sent).
    unknown: str = ""  # "{name} has an unknown key: {key}"
    missing_key: str = ""  # "{name}.{key} is required"
    optional: tuple[tuple[str, object], ...] = ()
    missing_first: bool = False  # every key's presence checked before any value
    # A request body a service writes from: read into the fields sent, by attribute, an
    # absent optional one left out (the service keeps or sets its own value); null is a
    # field not sent, refused with `missing_key` (but for a Nullable field), and a
    # `partial` read (a PATCH's) requires no field.
    sent_only: bool = False

    @property
    def listed(self) -> str:
        return ", ".join(field.name for field in self.fields)

    def parse(self, value, where=None, *, partial: bool = False):
        names, optional = [field.name for field in self.fields], dict(self.optional)
        if not isinstance(value, dict) or not self.unknown and sorted(value) != sorted(names):
            raise self._refused(self.refusal, where)
        name = where or self.name
        extra = [key for key in value if key not in names]
        if extra:
            detail = self._sentence(self.unknown, where).replace("{key}", str(extra[0])[:40])
            raise Refused(detail, self.code)
        if self.sent_only:
            return self._sent(value, where, partial)
        required = [f.name for f in self.fields if f.name not in optional]
        missing = [key for key in required if key not in value] if self.missing_first else []
        parsed = {}
        # null for an optional field whose default is none is that field not sent
        value = {k: v for k, v in value.items() if v is not None or optional.get(k, 0) is not None}
        for field in self.fields:
            if missing or field.name not in value and field.name not in optional:
                key = missing[0] if missing else field.name
                detail = self._sentence(self.missing_key, where).replace("{key}", key)
                raise Refused(detail, self.code)
            if field.name in value:
                parsed[field.name] = field.parse(value[field.name], self._within(name, field))
            else:
                parsed[field.name] = optional[field.name]
        return parsed

    def _sent(self, value: dict, where: str | None, partial: bool) -> dict:
        """The fields sent (`sent_only`), by attribute, each read in the declared order."""
        parsed = {}
        for field in self.fields:
            sent = value.get(field.name)
            if sent is None and not (field.name in value and isinstance(field, Nullable)):
                if field.name in value or not partial and field.name not in dict(self.optional):
                    detail = self._sentence(self.missing_key, where)
                    raise Refused(detail.replace("{key}", field.name), self.code)
                continue
            within = self._within(where or self.name, field)
            parsed[field.attribute or field.name] = field.parse(sent, within)
        return parsed

    @staticmethod
    def _within(name: str, field: Field) -> str:
        """A field's name in the sentences: `add[0].weight`; alone in a nameless object."""
        return f"{name}.{field.name}" if name else field.name

    def schemas(self) -> dict[str, dict]:
        """Its fields' schemas (a request body made of them: core.serializers.WithInputs)."""
        return self.schema()["properties"]

    def required_names(self) -> list[str]:
        return self.schema()["required"]

    def rows(self) -> list[dict[str, str]]:
        """The docs' table: one row per field (its default, when not sent)."""
        optional = dict(self.optional)
        return [
            {
                "name": f.name,
                "default": _shown(optional[f.name]) if f.name in optional else "required",
                "accepted": f.accepted(),
                "error (400)": " / ".join(f"`{s}`" for s in f.refusals(self._within("", f))),
            }
            for f in self.fields
        ]

    def schema(self) -> dict:
        optional = {k: list(v) if isinstance(v, tuple) else v for k, v in self.optional}
        properties = {
            field.name: {
                **field.schema(),
                **(
                    {"default": optional[field.name]}
                    if optional.get(field.name) is not None
                    else {}
                ),
                **({"description": field.description} if field.description else {}),
            }
            for field in self.fields
        }
        return {
            "type": "object",
            "required": [field.name for field in self.fields if field.name not in optional],
            "additionalProperties": False,
            "properties": properties,
        }

    def accepted(self) -> str:
        return self.words

    def _templates(self):
        return (self.refusal, *(t for t in (self.unknown, self.missing_key) if t))

    def _sentence(self, template, where=None):
        return super()._sentence(template.replace("{listed}", self.listed), where)

    def refused_with(self, code, where=None):
        name = where or self.name
        for field in (self, *self.fields):
            try:
                if field is self:
                    return super().refused_with(code, where)
                return field.refused_with(code, self._within(name, field))
            except KeyError:
                continue
        raise KeyError(f"{self.name} never refuses with {code}")

    def refusals(self, where=None):
        name = where or self.name
        inner = (s for field in self.fields for s in field.refusals(self._within(name, field)))
        return tuple(dict.fromkeys((*super().refusals(where), *inner)))


@dataclasses.dataclass(frozen=True)
class Keyed(Field):
    """A JSON object of `low` to `high` entries whose keys are free texts, each read by the
    field `key` (refused as `a key of {name}`, naming no key, which may be what is wrong),
    and whose values are each read by the field `value` (refused naming its key:
    `{name}["3班"]`); read into a dict in the order sent. `entry_words` says what an entry
    is (`{group: "#RRGGBB"}`). The keys' bounds, which OpenAPI 3.0 cannot state, are served
    as the schema's `x-propertyNames`."""

    key: Field | None = None
    value: Field | None = None
    low: int = 0
    high: int = 0
    refusal: str = "{name} must be {accepted}"
    entry_words: str = ""

    def parse(self, value, where=None):
        if not isinstance(value, dict) or not self.low <= len(value) <= self.high:
            raise self._refused(self.refusal, where)
        name = where or self.name
        parsed = {}
        for key, entry in value.items():
            key = self.key.parse(key, self._key_of(name))
            parsed[key] = self.value.parse(entry, self._value_of(name, key))
        return parsed

    @staticmethod
    def _key_of(name: str) -> str:
        return f"a key of {name}"

    @staticmethod
    def _value_of(name: str, key: str) -> str:
        return f'{name}["{key}"]'

    def schema(self) -> dict:
        low = {"minProperties": self.low} if self.low else {}
        return {
            "type": "object",
            "additionalProperties": self.value.schema(),
            "x-propertyNames": self.key.schema(),
            **low,
            "maxProperties": self.high,
        }

    def accepted(self) -> str:
        entries = self.entry_words or f"whose values are each {self.value.accepted()}"
        count = f"{self.low} to {self.high}" if self.low else f"at most {self.high}"
        return f"an object of {count} entries {entries}, each key {self.key.accepted()}"

    def _templates(self):
        return (self.refusal,)

    def refusals(self, where=None):
        name = where or self.name
        keys = self.key.refusals(self._key_of(name))
        values = self.value.refusals(self._value_of(name, "{key}"))
        return tuple(dict.fromkeys((*super().refusals(where), *keys, *values)))

    def refused_with(self, code, where=None):
        name = where or self.name
        try:
            return super().refused_with(code, where)
        except KeyError:
            pass
        try:
            return self.key.refused_with(code, self._key_of(name))
        except KeyError:
            return self.value.refused_with(code, self._value_of(name, self.key.name))


@dataclasses.dataclass(frozen=True)
class Either(Field):
    """A JSON value of the type `by` (an object, unless said) read by `whole`, anything else
    by `other`: a name, or a name and its weight; a colour, or an array of letter indexes."""

    whole: Field | None = None
    other: Field | None = None
    by: type = dict

    def parse(self, value, where=None):
        return (self.whole if isinstance(value, self.by) else self.other).parse(value, where)

    def schema(self) -> dict:
        return {"oneOf": [self.other.schema(), self.whole.schema()]}

    def accepted(self) -> str:
        return f"{self.other.accepted()}, or {self.whole.accepted()}"

    def _templates(self):
        return ()

    def refusals(self, where=None):
        both = (*self.other.refusals(where), *self.whole.refusals(where))
        return tuple(dict.fromkeys(both))

    def refused_with(self, code, where=None):
        try:
            return self.other.refused_with(code, where)
        except KeyError:
            return self.whole.refused_with(code, where)


MB = 1024 * 1024


def too_large(name: str, limit: int) -> str:
    """The 413 sentence of an upload over its limit of `limit` bytes."""
    return f"{name} exceeds {limit // MB} MB"


@dataclasses.dataclass(frozen=True)
class Upload(Field):
    """A file of a form (anything with a `name` and a `size`): its name ends with one of
    `extensions` (else 400 `refusal`; none: any name) and it holds at most `limit()` bytes
    (else 413 `upload_too_large`); `limit` reads the limit when checked (a setting)."""

    extensions: tuple[str, ...] = ()
    refusal: str = ""
    limit: Callable[[], int] = int

    def parse(self, value, where=None):
        suffix = PurePath(value.name or "").suffix.lower()
        if self.extensions and suffix not in self.extensions:
            raise self._refused(self.refusal, where)
        if value.size > self.limit():
            raise Refused(self.too_large(where), "upload_too_large", status=413)
        return value

    def refused_with(self, code, where=None):
        return (
            self.too_large(where)
            if code == "upload_too_large"
            else super().refused_with(code, where)
        )

    def too_large(self, where=None) -> str:
        return too_large(where or self.name, self.limit())

    def schema(self) -> dict:
        return {"type": "string", "format": "binary"}

    def accepted(self) -> str:
        if not self.extensions:
            return f"any file, at most {self.limit() // MB} MB: {self.description}"
        names = " or ".join(
            [", ".join(f"`{e}`" for e in self.extensions[:-1]), f"`{self.extensions[-1]}`"]
        ).removeprefix(" or ")
        return f"{names}, at most {self.limit() // MB} MB: {self.description}"

    def _templates(self):
        return (self.refusal,) if self.extensions else ()


@dataclasses.dataclass(frozen=True)
class JsonText(Field):
    """A form's text holding JSON, refused with `not_json` (code `not_json_code`) when it is
    not JSON (NaN and Infinity are not), then read by the field `value`; without one it must
    be an object (else `not_object`, code `code`), read into a dict whose keys are the
    business of `keys` (the object's schema). Its schema is what the JSON holds."""

    value: Field | None = None
    keys: Callable[[], dict] = dict
    not_json: str = "{name} must be valid JSON"
    not_json_code: str = ""
    not_object: str = "{name} must be JSON object"

    def parse(self, value, where=None):
        try:
            decoded = json.loads(value, parse_constant=_not_json)
        except (TypeError, ValueError):
            raise self._refused(self.not_json, where, self.not_json_code) from None
        if self.value is not None:
            return self.value.parse(decoded, where or self.name)
        if not isinstance(decoded, dict):
            raise self._refused(self.not_object, where)
        return decoded

    def schema(self) -> dict:
        return self.value.schema() if self.value is not None else self.keys()

    def accepted(self) -> str:
        if self.value is None:
            return self.description
        return f"{self.value.accepted()}, as the field's JSON text; {self.description}"

    def _refusing(self):
        own = ((self.not_json, self.not_json_code),)
        if self.value is None:
            return (*own, (self.not_object, self.code))
        return own

    def refusals(self, where=None):
        inner = self.value.refusals(where or self.name) if self.value is not None else ()
        return tuple(dict.fromkeys((*super().refusals(where), *inner)))

    def refused_with(self, code, where=None):
        try:
            return super().refused_with(code, where)
        except KeyError:
            if self.value is None:
                raise
            return self.value.refused_with(code, where or self.name)

    def _templates(self):
        return ()


def _not_json(constant: str):
    raise ValueError(f"{constant} is not JSON")


@dataclasses.dataclass(frozen=True)
class Form:
    """The fields of a multipart form, each `required` yes, no or when; the view hands each
    to its check (the uploads' names and sizes before any file is read)."""

    fields: tuple[Field, ...]

    def __getitem__(self, name: str) -> Field:
        return next(field for field in self.fields if field.name == name)

    def schemas(self) -> dict[str, dict]:
        return {
            f.name: {**f.schema(), "description": f"{f.accepted()} (required: {f.required})"}
            for f in self.fields
        }

    def required_names(self) -> list[str]:
        return [field.name for field in self.fields if field.required == "yes"]

    def refused_with(self, name: str, code: str) -> str:
        """The sentence the field `name` refuses with `code`."""
        return self[name].refused_with(code)

    def read(self, name: str, value):
        """The field `name` from the form's value (a text trimmed): None when absent or blank
        (refused with its `missing` sentence when it has one), else as the field reads it."""
        field = self[name]
        if isinstance(value, str):
            value = value.strip()
        if value is None or value == "":
            if field.missing:
                raise Refused(field._sentence(field.missing), field.missing_code)
            return None
        return field.parse(value)

    def rows(self) -> list[dict[str, str]]:
        """The docs' table of the form."""
        return [
            {
                "field": f.name,
                "required": f.required,
                "accepted": f.accepted(),
                "error (400)": " / ".join(f"`{s}`{_status(f)}" for s in f.refusals()),
            }
            for f in self.fields
        ]


def _status(field: Field) -> str:
    """A refusal's status in a table whose column is the 400s, when it is not 400."""
    return "" if field.status == 400 else f" ({field.status})"


@dataclasses.dataclass(frozen=True)
class Inputs:
    """A set of fields read into the frozen dataclass `values` (one field per input, its
    default the input's default), checked in the order declared. From a query (`text`) each
    value is read from its trimmed text; from a JSON object (not `text`) by its JSON type.
    `prefix` names the object in the sentences (`params.`)."""

    values: type
    fields: tuple[Field, ...]
    text: bool = True
    prefix: str = ""
    # each parameter at most once: one given twice in a query (a QueryDict) is refused, as
    # the schema's single values say, not read as its last value
    once: bool = False

    def __post_init__(self):
        declared = {f.name for f in dataclasses.fields(self.values) if f.init and f.compare}
        if declared != {self.attribute(field) for field in self.fields}:
            raise TypeError(f"{self.values.__name__}'s fields are not the inputs declared")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(field.name for field in self.fields)

    def __getitem__(self, name: str) -> Field:
        return next(field for field in self.fields if field.name == name)

    @staticmethod
    def attribute(field: Field) -> str:
        return field.attribute or field.name

    def default(self, field: Field):
        return self.values.__dataclass_fields__[self.attribute(field)].default

    def parse(self, given: Mapping, *, text: bool | None = None):
        """The values from query parameters (or a form) or a JSON object (`text` says which
        when not as declared); absent or null (or, from a query, empty): the default. The
        first bad value (in the declared order) is refused."""
        text = self.text if text is None else text
        if self.once and hasattr(given, "getlist"):
            repeated = [name for name in self.names if len(given.getlist(name)) > 1]
            if repeated:
                raise Refused(f"{repeated[0]} must be given once", "parameter_repeated")
        values = {}
        for field in self.fields:
            where = self.prefix + field.name
            if text:
                sent = _text(given.get(field.name))
                if sent:
                    values[self.attribute(field)] = field.read(sent, where)
            elif given.get(field.name) is not None:
                values[self.attribute(field)] = field.parse(given[field.name], where)
        return self.values(**values)

    def schemas(self) -> dict[str, dict]:
        """Each field's OpenAPI schema, with its default and description."""
        schemas = {}
        for field in self.fields:
            schema = field.schema()
            default = self.default(field)
            if default is not None:
                schema["default"] = list(default) if isinstance(default, tuple) else default
            absent = f" Default: {field.absent}." if default is None and field.absent else ""
            schemas[field.name] = {**schema, "description": field.description + absent}
        return schemas

    def required_names(self) -> list[str]:
        """None: an absent input takes its default."""
        return []

    def rows(self) -> list[dict[str, str]]:
        """The docs' table: one row per field."""
        return [
            {
                "name": field.name,
                "default": field.absent or _shown(self.default(field)),
                "accepted": field.accepted(),
                "error (400)": " / ".join(f"`{s}`" for s in self.refusals(field)),
                "meaning": field.description,
            }
            for field in self.fields
        ]

    def refused_with(self, name: str, code: str) -> str:
        """The sentence the field `name` refuses with `code`, as this set names it."""
        return self[name].refused_with(code, self.prefix + name)

    def refusals(self, field: Field) -> tuple[str, ...]:
        """The sentences of `field`'s 400s as this set names it."""
        return field.refusals(self.prefix + field.name)


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
    if isinstance(default, (int, float)):
        return number_shown(default)
    if isinstance(default, tuple):
        return ", ".join(f"`{item}`" for item in default) or "none"
    return f"`{default}`" if isinstance(default, str) else str(default)


def declared(path: str):
    """The object at a dotted path (`wordclouds.engine.params.PARAMS`): how a docs marker or
    an error code names the declaration it is written from, without importing its app."""
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


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
        source = declared(match[2])
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
