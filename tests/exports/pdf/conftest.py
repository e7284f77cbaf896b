"""The fixture posters of the print PDF tests, made once by the engine: every script the
engine covers (the shaping corpus) on a coloured background, a ring mask with a hole, and
vertical CJK stacked upright. A test gets a copy as a finished job folder of its own."""

import shutil
import uuid

import pytest

from tests.engine.conftest import ring_mask
from tests.engine.test_shaping import CORPUS
from tests.names import write_names
from tests.wordclouds.conftest import jobs_root
from wordclouds import engine

CJK = ["李雷", "韩梅梅", "王芳", "张伟", "刘洋", "陈静", "杨光", "赵敏", "欧阳娜娜", "司马懿"]
POSTERS = {
    "scripts": (
        CORPUS,
        {"WIDTH": 1600, "HEIGHT": 1200, "SEED": 3, "BACKGROUND_COLOR": "#FFF3E0"},
    ),
    "mask": (CJK + ["Anna Berg", "Chloé", "Dmitri", "Émile"], {"MODE": "IMAGE", "SEED": 3}),
    "vertical": (
        CJK,
        {"WIDTH": 800, "HEIGHT": 600, "SEED": 3, "PREFER_HORIZONTAL": 0, "VERTICAL_STYLE": "stack"},
    ),
}


@pytest.fixture(scope="session")
def poster_folders(tmp_path_factory):
    base = tmp_path_factory.mktemp("posters")
    mask = ring_mask(base / "ring.png", size=(960, 800))
    folders = {}
    for name, (names, params) in POSTERS.items():
        folders[name] = base / name
        engine.generate(
            names_path=write_names(base / f"{name}.xlsx", names),
            out_dir=folders[name],
            params=params,
            mask_path=mask if params.get("MODE") == "IMAGE" else None,
        )
    return folders


@pytest.fixture
def poster_job(poster_folders, media_root):
    """A factory: the named fixture poster as a finished job folder; returns the job id."""

    def make(name: str) -> str:
        job_id = uuid.uuid4().hex
        shutil.copytree(poster_folders[name], jobs_root() / job_id)
        return job_id

    return make
