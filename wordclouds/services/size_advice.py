"""Size advice: on which standard sheet a list's names fit at MIN_NAME_PT, from a job's
inputs, without laying out (docs/engine.md, "Printed size")."""

from django.core.files.uploadedfile import UploadedFile

from core.isolated import run_heavy
from wordclouds import engine, storage
from wordclouds.services.fonts import DEFAULT_FONT_ID
from wordclouds.services.job_inputs import _engine_call, font_id_path, job_inputs_check


def size_advice(
    *,
    params: str | None,
    name_list: UploadedFile | None,
    mask_image: UploadedFile | None = None,
    font_file: UploadedFile | None = None,
    font_id: str = "",
) -> dict:
    """The inputs checked as a job's (the same 400s and 413s), then the advice, in a child
    with the heavy-work limits; nothing is stored."""
    with storage.scratch_dir("advice-") as staging:
        inputs = job_inputs_check(
            folder=staging,
            params=params,
            name_list=name_list,
            mask_image=mask_image,
            font_file=font_file,
            font_id=font_id,
        )
        font_path = (
            staging / inputs.font_file
            if inputs.font_file
            else font_id_path(inputs.font_id or DEFAULT_FONT_ID)
        )
        return run_heavy(
            "size advice",
            _engine_call,
            engine.print_size_advice,
            names_path=staging / inputs.name_list,
            params=inputs.params,
            mask_path=staging / inputs.mask_image if inputs.mask_image else None,
            font_path=font_path,
            code="size_advice_refused",
        )
