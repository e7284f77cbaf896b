"""Every name drawn right: a corpus of names in many scripts is shaped by the engine and
compared with Pango's drawing of the same string in the same fonts."""

import html
import os
import subprocess
import unicodedata

import numpy as np
import pytest
from PIL import Image

from wordclouds.engine import shaping
from wordclouds.engine.fonts import DEFAULT_FACE, fallback_fonts, load_typeface
from wordclouds.engine.raster import coverage, flatten
from wordclouds.engine.shaping import script_of, shape_text

CORPUS = [
    # Latin with Extended-A/B, Vietnamese stacked marks, decomposed combining marks
    "Łukasz Żółć",
    "Antonín Dvořák",
    "Şükrü Çağlar",
    "Nguyễn Thị Minh Khai",
    "Søren Ærø",
    "José María Núñez",
    "Ǆemal Ǧoković",
    "Jürgen Müller-Weiß",
    "Zoe\u0308 Ba\u0301rbara",
    "Đặng Văn Lâm",
    "Ægir Þórsson",
    "Chloë Brontë",
    # Greek, Cyrillic
    "Αλέξανδρος Παπαδόπουλος",
    "Ελένη Οικονόμου",
    "Наталья Иванова",
    "Дмитрий Шостакович",
    "Ґанна Їжакевич",
    # Arabic, Hebrew (right to left, joined)
    "محمد علي",
    "فاطمة الزهراء",
    "عبد الله بن عمر",
    "شريف",
    "שלום כהן",
    "דוד בן גוריון",
    "מרים",
    # Thai, Devanagari, Tamil, Telugu, Khmer (marks, reordering, conjuncts)
    "สมชาย ใจดี",
    "ประยุทธ์",
    "प्रिया शर्मा",
    "अर्जुन कृष्ण",
    "தமிழ்செல்வன்",
    "கார்த்திக்",
    "వెంకటేశ్వర",
    "శ్రీనివాస్",
    "សុខា",
    "ចាន់ធីតា",
    # Chinese, Japanese kana, Korean
    "王小明",
    "欧阳娜娜",
    "司马懿",
    "さくら",
    "ラーメン太郎",
    "ジョン・スミス",
    "김민준",
    "이서연",
    # Emoji: single, with variation selector, skin tone, ZWJ sequences, flags
    "😀 Lily",
    "❤️ Anna",
    "👍🏽 Tom",
    "👨\u200d👩\u200d👧",
    "🇨🇳 王芳",
    "🇵🇱 Ola",
    "🌸さくら🌸",
    "👩\u200d💻 Mei",
    # Mixed scripts
    "Anna 王",
    "Ali محمد",
    "Иван Smith",
    "李 Lee",
    "Sarah שרה",
    "Ωmega Łódź",
    "Ken 김",
    "Priya प्रिया",
    # Long names
    "Maria Anna Sophia Katharina von Hohenzollern-Sigmaringen",
    "Ahmad bin Muhammad bin Abdullah Al-Rashidi",
    "أبو عبد الله محمد بن موسى الخوارزمي",
    "Wolfeschlegelsteinhausenbergerdorff",
    "欧阳修 Ouyang Xiu 醉翁",
]
SIZE = 96  # px per em: large enough that one pixel of alignment is a small share of a stroke


@pytest.fixture(scope="module")
def typeface():
    return load_typeface(None, DEFAULT_FACE)


@pytest.fixture(scope="module")
def pango(tmp_path_factory):
    """pango-view (Debian's pango1.0-tools, installed by `make system-deps`) seeing only the
    engine's fonts, through a fontconfig of its own."""
    folder = tmp_path_factory.mktemp("pango")
    (folder / "fonts").mkdir()
    for path, _ in fallback_fonts():
        (folder / "fonts" / path.name).symlink_to(path)
    (folder / "fonts.conf").write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{folder / "fonts"}</dir>'
        f"<cachedir>{folder / 'cache'}</cachedir></fontconfig>"
    )
    env = {**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")}

    def draw(markup: str) -> np.ndarray:
        out = folder / "out.png"
        subprocess.run(
            [
                "pango-view",
                "--markup",
                "--dpi=72",
                "--hinting=none",
                "--hint-metrics=off",
                "--subpixel-positions",
                "--margin=8",
                "-q",
                "-o",
                str(out),
                f"--font=Noto Sans {SIZE}",
                f"--text={markup}",
            ],
            env=env,
            check=True,
            timeout=60,
        )
        return 1 - np.asarray(Image.open(out).convert("L"), dtype=float) / 255

    return draw


def _crop(ink: np.ndarray) -> np.ndarray:
    rows, cols = np.flatnonzero(ink.max(axis=1) > 0.25), np.flatnonzero(ink.max(axis=0) > 0.25)
    return ink[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]


def aligned_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Coverage-weighted IoU of two drawings after aligning their ink boxes (best of the
    shifts up to one pixel, since the two boxes round differently)."""
    a, b = _crop(a), _crop(b)
    height, width = max(a.shape[0], b.shape[0]) + 2, max(a.shape[1], b.shape[1]) + 2
    canvas_a = np.zeros((height, width))
    canvas_a[1 : 1 + a.shape[0], 1 : 1 + a.shape[1]] = a
    best = 0.0
    for dy in range(3):
        for dx in range(3):
            canvas_b = np.zeros((height, width))
            canvas_b[dy : dy + b.shape[0], dx : dx + b.shape[1]] = b[: height - dy, : width - dx]
            best = max(
                best, np.minimum(canvas_a, canvas_b).sum() / np.maximum(canvas_a, canvas_b).sum()
            )
    return best


def test_the_corpus_spans_at_least_15_scripts_and_60_names():
    scripts = {script_of(c) for name in CORPUS for c in name} - {None}
    assert len(CORPUS) >= 60 and len(scripts) >= 15, scripts


@pytest.mark.parametrize("name", CORPUS)
def test_every_character_of_a_name_is_drawn(name, typeface):
    for stacked in (False, True):
        glyphs, _, _ = shape_text(name, typeface, stacked=stacked)
        assert glyphs and all(glyph.gid != 0 for glyph in glyphs)  # no .notdef
        for glyph in glyphs:
            blank = not glyph.face.glyph(glyph.gid).codes.size
            assert not (blank and glyph.advance and not name[glyph.cluster].isspace()), (
                f"blank advance for {unicodedata.name(name[glyph.cluster])}"
            )


@pytest.mark.parametrize("name", CORPUS)
def test_the_drawing_matches_pango_in_the_same_fonts(name, typeface, pango):
    # Given the engine's shaping of the whole name
    glyphs, runs, _ = shape_text(name, typeface)
    for run in runs:
        # When the glyphs of each run (one font, script and direction) are drawn, and Pango
        # draws that run's text in the same font. Runs are compared one by one because
        # Pango moves a run's baseline by the script it infers for neighbouring symbols
        # (an emoji next to kana sits 0.04 em higher than next to Latin).
        text = html.escape(name[run.start : run.end])
        theirs = pango(f'<span font_family="{run.face.family}">{text}</span>')
        ours = [g for g in glyphs if run.start <= g.cluster < run.end]
        # Then the ink agrees, with the drawings aligned to a quarter pixel (thin strokes
        # such as the emoji outlines lose much of their overlap at half a pixel)
        best = max(
            aligned_iou(_draw(ours, (dx / 4, dy / 4)), theirs) for dx in range(4) for dy in range(4)
        )
        assert best >= 0.9, name[run.start : run.end]


def test_right_to_left_runs_are_ordered_by_the_bidi_algorithm(typeface):
    glyphs, _, _ = shape_text("Ali محمد", typeface)
    latin = [g.x for g in glyphs if g.cluster < 3]
    arabic = {g.cluster: g.x for g in glyphs if g.cluster > 3}
    assert max(latin) < min(arabic.values())  # Latin on the left, then the Arabic run
    assert arabic[4] == max(arabic.values())  # whose first letter is its rightmost


def _draw(glyphs, shift) -> np.ndarray:
    codes, points = [], []
    for shaped in glyphs:
        glyph = shaped.face.glyph(shaped.gid)
        codes.append(glyph.codes)
        points.append(glyph.points + (shaped.x, shaped.y))
    codes, points = np.concatenate(codes), np.concatenate(points) * SIZE + shift
    polygon, ends = flatten(codes, points)
    left, top = np.floor(points.min(axis=0)).astype(int)
    width, height = np.ceil(points.max(axis=0)).astype(int) - (left, top) + 1
    return coverage(polygon, ends, 1.0, left, top, height, width)


def test_the_command_line_refuses_an_undrawable_name_with_the_same_sentence(
    names_file, tmp_path, capsys
):
    from wordclouds.engine.__main__ import main

    names = names_file(["Anna", "Bo\ue000b"])
    assert main([str(names), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err.startswith(
        'error: name_list row 3: "Bo\ue000b" has characters no font can draw (U+E000)'
    )
    assert not (tmp_path / "out").exists()


def test_stacked_cjk_uses_vertical_forms_and_turns_other_runs_sideways(typeface):
    # Given a Japanese name with a long-vowel mark and brackets, and a mixed name
    horizontal, _, _ = shape_text("ラーメン「太郎」", typeface)
    stacked, _, advance = shape_text("ラーメン「太郎」", typeface, stacked=True)
    mark = typeface.primary.glyph(stacked[1].gid).points
    # Then the stacked name takes the vertical alternates: ー turns into a vertical bar
    assert [g.gid for g in stacked] != [g.gid for g in horizontal]
    assert np.ptp(mark[:, 1]) > 3 * np.ptp(mark[:, 0])
    assert advance == pytest.approx(8.0)  # vertical advances: one em per character
    # And a Latin run inside a stacked name is turned as a unit, advancing downwards
    mixed, _, _ = shape_text("王 Ann", typeface, stacked=True)
    latin = [g for g in mixed if g.sideways]
    assert len(latin) == 3 and [g.y for g in latin] == sorted(g.y for g in latin)
    assert len({round(g.x, 6) for g in latin}) == 1


@pytest.mark.parametrize("language", [None, "zh-Hans", "zh-Hant", "ja", "ko"])
def test_the_fast_path_gives_what_harfbuzz_gives(typeface, monkeypatch, language):
    # Given names of ideographs the chosen face maps (the fast path), with regional forms
    names = ["王小明", "欧阳娜娜", "司马 懿", "𠀀𠀁", "龍之介", "諸葛亮", "鈴木 直子", "骨 角 今"]
    fast = [shape_text(name, typeface, language=language) for name in names]
    # When the same names go through itemizing and HarfBuzz
    monkeypatch.setattr(shaping, "_plain_shape", lambda text, face, language: None)
    shaped = [shape_text(name, typeface, language=language) for name in names]
    # Then glyphs, positions and runs are the same
    for (glyphs, runs, advance), (expected, expected_runs, expected_advance) in zip(fast, shaped):
        assert [g.gid for g in glyphs] == [g.gid for g in expected]
        assert [(g.x, g.y, g.advance) for g in glyphs] == [
            pytest.approx((g.x, g.y, g.advance)) for g in expected
        ]
        assert [(r.start, r.end, r.script) for r in runs] == [
            (r.start, r.end, r.script) for r in expected_runs
        ]
        assert advance == pytest.approx(expected_advance)


def test_metrics_count_names_per_script_and_font(names_file, tmp_path):
    from wordclouds.engine import generate

    metrics = generate(
        names_path=names_file(["王小明", "Anna 王", "محمد", "Łukasz"]),
        out_dir=tmp_path / "out",
        params={"WIDTH": 400, "HEIGHT": 300, "SEED": 1},
    )
    assert metrics["scripts"] == {
        "Arabic": {"names": 1, "fonts": {"Noto Sans Arabic": 1}},
        "Han": {"names": 2, "fonts": {"Noto Sans CJK SC": 2}},
        "Latin": {"names": 2, "fonts": {"Noto Sans CJK SC": 1, "Noto Sans": 1}},
    }
