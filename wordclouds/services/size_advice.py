"""Size advice: on which standard sheet a list's names fit at MIN_NAME_PT, from a job's
inputs, without laying out (docs/engine.md, "Printed size")."""

from django.core.files.uploadedfile import UploadedFile

from core.isolated import run_heavy
from wordclouds import engine, storage
from wordclouds.services.job_inputs import (
    StagedInputs,
    _engine_call,
    contents_check,
    job_inputs_staged,
)
from wordclouds.services.sheets import shop_sizes


def size_advice(
    *,
    params: str | None,
    name_list: UploadedFile | None,
    mask_image: UploadedFile | None = None,
    font_file: UploadedFile | None = None,
    font_id: str = "",
) -> dict:
    """The inputs checked as a job's (the same 400s and 413s), then the advice from what the
    checks read, in one child with the heavy-work limits (the list is read once); nothing is
    stored."""
    with storage.scratch_dir("advice-") as staging:
        staged = job_inputs_staged(
            folder=staging,
            params=params,
            name_list=name_list,
            mask_image=mask_image,
            font_file=font_file,
            font_id=font_id,
        )
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
