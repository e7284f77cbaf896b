"""Glyph forms by language (LOCALE): each name is shaped in its language with the face of the
collection that declares it, checked against HarfBuzz's own command-line shaper, hb-shape
(Debian's libharfbuzz-bin, installed by `make system-deps`)."""

import re
import sqlite3
import subprocess

import numpy as np
import pytest
from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from tests.names import write_names
from wordclouds.engine import default_font_path, font_faces, generate, placement_outlines
from wordclouds.engine.fonts import DEFAULT_FACE, load_typeface, open_face
from wordclouds.engine.layout import WordShapes

HB_SHAPE = "/usr/bin/hb-shape"
JAPANESE = ["鈴木 直子", "さくら", "佐藤ハルカ", "直美ちゃん"]
KOREAN = ["김민준", "이서연", "박 지훈"]
SIMPLIFIED = ["王直", "刘军", "骨角今写"]
TRADITIONAL = ["陳冠宇", "黃志明", "直骨"]
NAMES = JAPANESE + KOREAN + SIMPLIFIED + TRADITIONAL


def hb_glyphs(font, face_index: int, language: str, text: str) -> list[int]:
    """The glyph ids hb-shape gives ``text`` in face ``face_index`` and ``language``."""
    out = subprocess.run(
        [
            HB_SHAPE,
            "--no-glyph-names",
            "--no-positions",
            "--no-clusters",
            f"--face-index={face_index}",
            f"--language={language}",
            str(font),
            text,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [int(gid) for gid in re.findall(r"\d+", out)]


def expected_language(name: str, locale: str) -> str:
    if re.search("[\u3040-\u30ff]", name):
        return "ja"
    if re.search("[\uac00-\ud7af]", name):
        return "ko"
    return locale


@pytest.mark.parametrize("locale", ["zh-Hans", "zh-Hant", "ja", "ko"])
def test_every_word_has_the_glyphs_harfbuzz_gives_its_face_and_language(tmp_path, locale):
    # given a list mixing Japanese, Korean, Simplified and Traditional names, drawn
    names_path = write_names(tmp_path / "names.xlsx", NAMES)
    params = {"WIDTH": 600, "HEIGHT": 400, "SEED": 2, "LOCALE": locale, "PREFER_HORIZONTAL": 1}
    generate(names_path=names_path, out_dir=tmp_path / "out", params=params)
    words = sqlite3.connect(tmp_path / "out" / "positions.db").execute("SELECT name FROM words")
    drawn = sorted(name for (name,) in words)
    assert drawn == sorted(NAMES)

    # when each word's shaped glyphs are read as the run drew them
    faces = {face["language"]: face["index"] for face in reversed(font_faces(default_font_path()))}
    shapes = WordShapes(load_typeface(None, faces[locale]), "auto", locale)
    for name in drawn:
        outline, _ = shapes.get(name, False)
        language = expected_language(name, locale)

        # then the face is the one of the name's language, the glyphs hb-shape's for it
        assert {index for index, _ in outline.glyphs} == {faces[language]}, name
        assert [gid for _, gid in outline.glyphs] == hb_glyphs(
            default_font_path(), faces[language], language, name
        ), (name, language)


def test_a_japanese_and_a_simplified_chinese_zhi_are_different_outlines():
    shapes = WordShapes(load_typeface(None, DEFAULT_FACE), "auto", "zh-Hans")
    japanese, _ = shapes.get("直美ちゃん", False)
    chinese, _ = shapes.get("王直", False)

    (face_ja, zhi_ja), (face_zh, zhi_zh) = japanese.glyphs[0], chinese.glyphs[1]

    assert zhi_ja != zhi_zh
    ja_points = open_face(default_font_path(), face_ja).glyph(zhi_ja).points
    zh_points = open_face(default_font_path(), face_zh).glyph(zhi_zh).points
    assert ja_points.shape != zh_points.shape or not np.allclose(ja_points, zh_points)


def test_the_svg_is_redrawn_exactly_from_the_database_with_the_locale(tmp_path):
    names_path = write_names(tmp_path / "names.xlsx", NAMES)
    params = {"WIDTH": 600, "HEIGHT": 400, "SEED": 4, "LOCALE": "ja"}
    generate(names_path=names_path, out_dir=tmp_path / "out", params=params)
    svg = (tmp_path / "out" / "wordcloud.svg").read_text()

    paths = dict(re.findall(r'<path id="w(\d+)" fill="[^"]+" d="([^"]*)"', svg))
    for row, d in placement_outlines(tmp_path / "out" / "positions.db"):
        assert paths[str(row["id"])] == d, row["name"]


@pytest.fixture(scope="module")
def two_face_collection(tmp_path_factory):
    """An uploaded-style collection: the bundled SC and JP faces cut to the test's
    characters, SC first (so face 1 is the Japanese one, unlike the bundled order)."""
    text = "".join(NAMES).replace(" ", "")
    fonts = []
    for index in (2, 0):
        font = TTFont(str(default_font_path()), fontNumber=index)
        options = subset.Options()
        options.name_IDs = ["*"]
        options.layout_features = ["*"]
        options.layout_scripts = ["*"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text + " ")
        subsetter.subset(font)
        fonts.append(font)
    collection = TTCollection()
    collection.fonts = fonts
    path = tmp_path_factory.mktemp("fonts") / "two-faces.ttc"
    collection.save(str(path))
    return path


def test_an_uploaded_collection_draws_each_language_with_the_face_declaring_it(
    tmp_path, two_face_collection
):
    assert [(f["family"], f["language"]) for f in font_faces(two_face_collection)] == [
        ("Noto Sans CJK SC", "zh-Hans"),
        ("Noto Sans CJK JP", "ja"),
    ]
    names = JAPANESE + SIMPLIFIED
    names_path = write_names(tmp_path / "names.xlsx", names)
    for locale in ("zh-Hans", "ja"):
        metrics = generate(
            names_path=names_path,
            out_dir=tmp_path / locale,
            params={"WIDTH": 500, "HEIGHT": 300, "SEED": 1, "LOCALE": locale},
            font_path=two_face_collection,
        )
        assert metrics["font"]["face"] == {"zh-Hans": 0, "ja": 1}[locale]
        shapes = WordShapes(
            load_typeface(two_face_collection, metrics["font"]["face"]), "auto", locale
        )
        for name in names:
            outline, _ = shapes.get(name, False)
            language = expected_language(name, locale)
            face = {"zh-Hans": 0, "ja": 1}[language]
            assert {index for index, _ in outline.glyphs} == {face}, name
            assert [gid for _, gid in outline.glyphs] == hb_glyphs(
                two_face_collection, face, language, name
            )
