import pytest

from wordclouds.engine import InputError, check_drawable, check_font, default_font_path
from wordclouds.engine.fonts import DEFAULT_FACE, choose_face, load_typeface, open_face
from wordclouds.engine.names import Name
from wordclouds.engine.shaping import itemize


def test_the_default_font_is_the_bundled_cjk_collection():
    info = check_font(default_font_path())
    assert info.face_count == 10 and "Noto Sans CJK" in info.family
    assert choose_face(default_font_path(), ["王小明"]) == DEFAULT_FACE


def test_a_file_that_is_not_a_font_is_rejected(tmp_path):
    path = tmp_path / "fake.ttf"
    path.write_bytes(b"\x00\x01\x00\x00" + b"garbage" * 20)
    with pytest.raises(InputError, match="^font_file is not a valid font$"):
        check_font(path)


def test_a_run_the_chosen_font_lacks_takes_the_first_chain_font_that_covers_it(latin_font):
    # Given a chosen font with ASCII only
    typeface = load_typeface(latin_font, 0)
    # When a name mixes ASCII, Chinese and Polish letters
    runs = itemize("Anna 王 Łukasz", typeface)
    # Then the ASCII run keeps the chosen font and the others take whole chain fonts
    assert [(run.script, run.face.family) for run in runs] == [
        ("Latin", typeface.primary.family),
        ("Han", "Noto Sans CJK SC"),
        ("Latin", "Noto Sans"),
    ]
    assert check_font(latin_font).face_count == 1


def test_a_fallback_font_is_opened_only_when_a_name_needs_it():
    # Given no face opened yet in this process
    open_face.cache_clear()
    # When a Chinese-only list is checked and shaped, only the chosen face is opened
    typeface = check_drawable([Name("王小明", 2), Name("欧阳 修", 3)], None)
    itemize("王小明", typeface)
    assert open_face.cache_info().currsize == 1
    # Then a Polish name opens the chain up to the first face that covers it (Noto Sans)
    assert [run.face.family for run in itemize("Łukasz", typeface)] == ["Noto Sans"]
    assert open_face.cache_info().currsize == 2
