import pytest

from wordclouds.engine import InputError, check_font, default_font_path
from wordclouds.engine.fonts import DEFAULT_FACE, Typeface, choose_face, open_face


def test_the_default_font_is_the_bundled_cjk_collection():
    info = check_font(default_font_path())
    assert info.face_count == 10 and "Noto Sans CJK" in info.family
    assert choose_face(default_font_path(), ["王小明"]) == DEFAULT_FACE


def test_a_file_that_is_not_a_font_is_rejected(tmp_path):
    path = tmp_path / "fake.ttf"
    path.write_bytes(b"\x00\x01\x00\x00" + b"garbage" * 20)
    with pytest.raises(InputError, match="^font_file is not a valid font$"):
        check_font(path)


def test_missing_characters_fall_back_to_the_default_font(latin_font):
    latin = open_face(latin_font, 0)
    typeface = Typeface(latin, open_face(default_font_path(), DEFAULT_FACE))
    assert latin.glyph("王") is None
    assert typeface.glyph("王").codes.size > 0  # drawn by the fallback, not a .notdef box
    assert typeface.glyph("A") is latin.glyph("A")
    assert check_font(latin_font).face_count == 1
