import pytest
from fontTools.ttLib import TTCollection, TTFont

from wordclouds.engine import InputError, check_drawable, check_font, default_font_path
from wordclouds.engine.fonts import (
    DEFAULT_FACE,
    choose_face,
    fallback_fonts,
    load_typeface,
    open_face,
)
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


def _fonttools_faces(path):
    with open(path, "rb") as file:
        collection = file.read(4) == b"ttcf"
    return (
        TTCollection(str(path), lazy=True).fonts if collection else [TTFont(str(path), lazy=True)]
    )


def test_a_faces_family_and_em_box_are_those_fonttools_reads(tmp_path):
    # Given the bundled fonts' faces, and a WOFF copy of one (which HarfBuzz does not read)
    woff = TTFont(str(fallback_fonts()[0][0]))
    woff.flavor = "woff"
    woff.save(tmp_path / "noto.woff")
    paths = [default_font_path(), *dict(fallback_fonts()), tmp_path / "noto.woff"]
    for path in paths:
        for index, font in enumerate(_fonttools_faces(path)):
            # When the engine opens the face
            face = open_face(path, index)
            # Then its family name and em box are those fontTools reads
            metrics = font["OS/2"]
            assert face.family == font["name"].getBestFamilyName()
            assert (face.ascent, face.descent) == (
                metrics.sTypoAscender * face.scale,
                -metrics.sTypoDescender * face.scale,
            )


@pytest.mark.parametrize(
    "record",
    [
        (3, 1, 0x409, "Odd".encode("utf_16_be") + b"\0"),  # odd-length UTF-16
        (1, 0, 0, b"\0D\0o\0u\0b"),  # UTF-16 in a Mac name: encoded twice
        (3, 1, 0x804, "思源".encode("utf_16_be")),  # no English name
    ],
)
def test_a_family_name_fonttools_repairs_is_read_as_fonttools_reads_it(tmp_path, record):
    # Given a font whose only family name is an irregular record
    font = TTFont(str(fallback_fonts()[0][0]))
    names = font["name"]
    names.names = [name for name in names.names if name.nameID not in (1, 16, 21)]
    platform, encoding, language, string = record
    names.setName(string, 1, platform, encoding, language)
    path = tmp_path / "irregular.ttf"
    font.save(path)
    # When the engine opens it, then its family is the one fontTools reads
    assert open_face(path, 0).family == TTFont(str(path))["name"].getBestFamilyName()
