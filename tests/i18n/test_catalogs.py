"""The catalogs are complete: every string the project marks for translation is in
locale/zh_Hans and has a Simplified Chinese translation. A string added to a template, a
model or a page's script without updating the catalogs fails here, with the command that
updates them (docs/i18n.md, "Adding a string")."""

import shutil
import subprocess
import sys

import pytest

from tests.i18n.catalogs import DOMAINS, LOCALE, chinese_catalog, read_po
from tests.processes import BASE_DIR

# What makemessages reads: the project's own code, templates and page scripts.
SOURCES = ("config", "core", "wordclouds", "commerce", "exports", "templates", "static")
UPDATE = "docs/i18n.md, 'Adding a string': make messages-update, then translate in locale/zh_Hans"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_has_a_chinese_translation(domain):
    untranslated = [message.msgid for message in chinese_catalog(domain) if not message.translated]

    assert untranslated == [], f"untranslated or fuzzy in {domain}.po ({UPDATE}): {untranslated}"


@pytest.fixture(scope="module")
def fresh_catalogs(tmp_path_factory):
    """makemessages run on the sources as they are, into a copy of the catalogs, in a copy of
    the sources: makemessages writes each template's Python rendering (`page.html.py`) beside
    the template and deletes it after, so run on the sources themselves (or on links to them)
    it would write into the working tree, where another test walking the sources, or this
    fixture on the other xdist worker, meets a file that comes and goes."""
    tree = tmp_path_factory.mktemp("makemessages")
    for name in SOURCES:
        shutil.copytree(BASE_DIR / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(LOCALE, tree / "locale")
    for domain in DOMAINS:
        made = subprocess.run(
            [
                sys.executable,
                "-m",
                "django",
                "makemessages",
                "--settings=config.settings",
                "-l",
                "zh_Hans",
                "-d",
                domain,
                "--no-obsolete",
                "--verbosity=0",
            ],
            cwd=tree,
            env={"PYTHONPATH": str(BASE_DIR), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
        )
        assert made.returncode == 0, f"makemessages -d {domain} failed:\n{made.stderr}"
    return tree / "locale" / "zh_Hans" / "LC_MESSAGES"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalogs_hold_every_string_the_sources_mark(domain, fresh_catalogs):
    committed = {message.msgid for message in chinese_catalog(domain)}
    found = {message.msgid for message in read_po(fresh_catalogs / f"{domain}.po")}

    assert sorted(found - committed) == [], f"not in {domain}.po yet ({UPDATE})"
    assert sorted(committed - found) == [], f"in {domain}.po but no longer used ({UPDATE})"
