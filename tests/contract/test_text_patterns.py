r"""The patterns the schema gives text inputs say exactly what DRF's text fields accept: a
generated client that checks a value against them is never refused for it. The patterns are
ECMA regular expressions, checked here with Python's, so they must not use the escapes whose
meaning differs between the two (`\s` is not the same white space in ECMA and in Python)."""

import re

import pytest
from rest_framework import serializers

from core.inputs import NO_NUL, NOT_BLANK

# Every character of the Basic Multilingual Plane but NUL (refused by a pattern of its own).
CHARACTERS = [chr(code) for code in range(1, 0x10000) if not 0xD800 <= code < 0xE000]


@pytest.mark.parametrize("pattern", [NO_NUL, NOT_BLANK])
def test_the_patterns_use_no_escape_whose_meaning_differs_between_ecma_and_python(pattern):
    assert not re.search(r"\\[sSwWdDbB]", pattern), pattern


@pytest.mark.parametrize("padding", ["", " ", "\u001d", "\ufeff"])
def test_a_not_blank_text_matches_the_pattern_exactly_when_drf_accepts_it(padding):
    field = serializers.CharField()
    pattern = re.compile(NOT_BLANK)

    for character in CHARACTERS:
        text = padding + character + padding
        try:
            field.run_validation(text)
            accepted = True
        except serializers.ValidationError:
            accepted = False
        assert bool(pattern.search(text)) == accepted, hex(ord(character))
