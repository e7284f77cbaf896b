"""The regions preview: which letters of MASK_TEXT each group of a list will fill, and in
which colour, from a job's inputs, without laying out (docs/engine.md, Groups; the
studio draws it before the poster is made)."""

from typing import Unpack

from core.errors import InvalidInput
from core.isolated import run_heavy
from wordclouds import engine, storage
from wordclouds.services.job_inputs import (
    JobUploads,
    StagedInputs,
    _engine_call,
    contents_check,
    job_inputs_staged,
)


def regions_preview(**uploads: Unpack[JobUploads]) -> dict:
    """The inputs checked as a job's (the same 400s and 413s; a list of more groups than
    letters too), then engine.region_preview, in one child with the heavy-work limits;
    nothing is stored. 400 ``regions_preview_refused`` without MASK_TEXT or GROUP_COL_INDEX."""
    with storage.scratch_dir("regions-") as staging:
        staged = job_inputs_staged(folder=staging, **uploads)
        if staged.parsed.mode != "TEXT" or staged.parsed.group_col_index is None:
            raise InvalidInput(
                "the regions preview needs params.MASK_TEXT and params.GROUP_COL_INDEX",
                code="regions_preview_refused",
            )
        return run_heavy("regions preview", _preview, staged)


def _preview(staged: StagedInputs) -> dict:
    """The contents checked as a job's, then the preview (runs in the forked child)."""
    contents = contents_check(staged)
    return _engine_call(
        engine.region_preview,
        contents.names,
        contents.typeface,
        contents.mask,
        staged.parsed,
        code="params_invalid",
    )
