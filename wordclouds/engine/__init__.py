"""The word-cloud engine: a library (no Django) that lays out every name of a list inside a
shape and writes the PNG, the SVGs, the position database and the metrics.

Entry points: :func:`generate` for a whole run, the input checks the API uses before a job
exists (:func:`parse_params`, :func:`read_names`, :func:`load_mask`, :func:`check_font`,
:func:`check_drawable`),
a revision of a finished layout (:func:`check_edits`, :func:`revise`),
and :func:`svg_outlines`, :func:`placement_outlines` / :func:`path_contours` for redrawing a
finished job.
"""

from .artifacts import ARTIFACTS
from .errors import InputError, LayoutError, WorkbookTooLarge
from .fonts import CHAIN_COVERAGE, DEFAULT_FACE, FontInfo, check_font, default_font_path, font_faces
from .generate import STAGES, generate
from .mask import Mask, load_mask
from .names import Name, first_rows, read_names
from .params import Params, parse_params
from .path_data import path_contours
from .positions import placement_outlines, read_meta
from .print_size import print_size_advice, size_advice
from .region_preview import region_preview
from .render import svg_outlines
from .restamp import INKS
from .revision import PROOF, REVISION_STAGES, Parent, check_edits, revise
from .shaping import check_drawable

__all__ = [
    "ARTIFACTS",
    "CHAIN_COVERAGE",
    "DEFAULT_FACE",
    "INKS",
    "PROOF",
    "REVISION_STAGES",
    "STAGES",
    "FontInfo",
    "InputError",
    "WorkbookTooLarge",
    "LayoutError",
    "Mask",
    "Name",
    "Params",
    "Parent",
    "check_drawable",
    "check_edits",
    "check_font",
    "default_font_path",
    "first_rows",
    "font_faces",
    "generate",
    "load_mask",
    "parse_params",
    "path_contours",
    "placement_outlines",
    "print_size_advice",
    "read_meta",
    "read_names",
    "region_preview",
    "revise",
    "size_advice",
    "svg_outlines",
]
