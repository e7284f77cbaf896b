"""Word-cloud SVGs from the engine and custom.svg in each fill style convert faithfully:
Ghostscript renders the .ai like resvg renders the SVG, and Scribus finds one object per
placed name."""

import re
import shutil
import uuid

import openpyxl
import pytest

from core.inputs import COLOR
from exports.converter import convert
from tests.exports.readers import ink_iou, render_ai, render_svg, scribus_import
from tests.wordclouds.conftest import jobs_root
from wordclouds import engine

NAMES = [
    "李雷",
    "韩梅梅",
    "Anna Berg",
    "王芳",
    "Chloé",
    "张伟",
    "Dmitri",
    "刘洋",
    "Émile",
    "陈静",
    "杨光",
    "赵敏",
]


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cloud")
    workbook = openpyxl.Workbook()
    for row, name in enumerate(["name", *NAMES], start=1):
        workbook.active.cell(row=row, column=1, value=name)
    workbook.save(folder / "names.xlsx")
    engine.generate(
        names_path=folder / "names.xlsx",
        out_dir=folder / "out",
        params={"WIDTH": 400, "HEIGHT": 300, "SEED": 7},
    )
    return folder / "out"


def assert_same_ink(svg: str):
    expected = render_svg(svg, zoom=2.0)
    height, width = expected.shape[:2]
    drawn = render_ai(convert(svg.encode(), title="cloud.ai"), width=width, height=height, dpi=192)
    assert ink_iou(expected, drawn) >= 0.97


@pytest.mark.parametrize("kind", ["wordcloud", "wordcloud-stroke"])
def test_engine_svg_renders_the_same(cloud, kind):
    assert_same_ink((cloud / f"{kind}.svg").read_text())


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    ["fill=fill", "fill=dot", "fill=line&line_angle=30", "fill=ring", "fill=dot&stroke=true"],
)
def test_custom_svg_of_each_fill_style_renders_the_same(api, cloud, query):
    # given the finished job's folder (a record-less folder is a successful job)
    job_id = uuid.uuid4().hex
    shutil.copytree(cloud, jobs_root() / job_id)
    # when its custom.svg is fetched in a fill style
    response = api.get(f"/api/jobs/{job_id}/custom.svg?{query}")
    assert response.status_code == 200
    # then the .ai of it draws the same
    assert_same_ink(response.content.decode())


def test_scribus_finds_every_name(cloud):
    svg = (cloud / "wordcloud.svg").read_text()
    [items] = scribus_import([convert(svg.encode(), title="cloud.ai")])
    words = re.findall(f'<path[^>]*fill="({COLOR})"', svg)
    assert len(words) >= len(NAMES)
    assert [item.fill for item in items if item.fill != (255, 255, 255)] == [
        tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5)) for colour in words
    ]
