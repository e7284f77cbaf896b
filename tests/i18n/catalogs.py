"""The project's translation catalogs (locale/<lang>/LC_MESSAGES/*.po) read as Python data:
what the i18n tests compare pages and the admin with."""

import re
from dataclasses import dataclass
from pathlib import Path

from tests.processes import BASE_DIR

LOCALE = BASE_DIR / "locale"
CHINESE = LOCALE / "zh_Hans" / "LC_MESSAGES"
DOMAINS = ("django", "djangojs")
FIELD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$')
CONTINUED = re.compile(r'^"(.*)"$')


@dataclass(frozen=True)
class Message:
    msgid: str
    plural: str | None
    translations: tuple[str, ...]
    fuzzy: bool

    @property
    def translated(self) -> bool:
        return not self.fuzzy and all(self.translations) and bool(self.translations)


def _unquote(text: str) -> str:
    return re.sub(r'\\(["\\nt])', lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), text)


def read_po(path: Path) -> list[Message]:
    """Every entry but the header; obsolete (#~) entries are left out."""
    messages = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields, key, fuzzy = {}, None, False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if line.startswith("#"):
                continue
            if match := FIELD.match(line):
                key = match[1]
                fields[key] = _unquote(match[2])
            elif (match := CONTINUED.match(line)) and key:
                fields[key] += _unquote(match[1])
        if fields.get("msgid"):
            translations = tuple(
                value for name, value in fields.items() if name.startswith("msgstr")
            )
            messages.append(
                Message(fields["msgid"], fields.get("msgid_plural"), translations, fuzzy)
            )
    return messages


def chinese_catalog(domain: str) -> list[Message]:
    return read_po(CHINESE / f"{domain}.po")
