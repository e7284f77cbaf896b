"""Size advice: on which standard sheet a list's names fit at MIN_NAME_PT, from a job's
inputs, without laying out (docs/engine.md, "Printed size")."""

from typing import Unpack

from core.isolated import run_heavy
from wordclouds import engine, storage
from wordclouds.services.job_inputs import (
    JobUploads,
    StagedInputs,
    _engine_call,
    contents_check,
    job_inputs_staged,
)
from wordclouds.services.sheets import shop_sizes


def size_advice(**uploads: Unpack[JobUploads]) -> dict:
    """The inputs checked as a job's (the same 400s and 413s), then the advice from what the
    checks read, in one child with the heavy-work limits (the list is read once); nothing is
    stored."""
    with storage.scratch_dir("advice-") as staging:
        staged = job_inputs_staged(folder=staging, **uploads)
        return run_heavy("size advice", _advice, staged, shop_sizes())


def _advice(staged: StagedInputs, sizes) -> dict:
    """The contents checked as a job's, then engine.size_advice on the names, mask and
    typeface they read and the shop's ``sizes`` (runs in the forked child)."""
    contents = contents_check(staged)
    mask = contents.mask
    if mask is None:  # the canvas itself
        mask = _engine_call(
            engine.load_mask, None, params=staged.parsed, code="size_advice_refused"
        )
    return _engine_call(
        engine.size_advice,
        contents.names,
        contents.typeface,
        mask,
        staged.parsed,
        sizes,
        code="size_advice_refused",
    )
