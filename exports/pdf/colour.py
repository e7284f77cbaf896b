"""Colour for the print PDF: sRGB to a press's CMYK through its ICC profile with littleCMS
(Pillow's ImageCms), each colour converted once per document; pure black kept on the black
plate; raster images converted through their own embedded profile (sRGB when they have none)."""

import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from PIL import Image, ImageCms

from core.errors import ServiceError

RGB = tuple[float, float, float]
CMYK = tuple[float, float, float, float]
RICH_BLACK: CMYK = (0.6, 0.4, 0.4, 1.0)
PURE_BLACK: CMYK = (0.0, 0.0, 0.0, 1.0)
BLACKS = ("k", "rich", "icc")


@dataclass(frozen=True)
class PressProfile:
    """A press condition: its ICC file (in ICC_PROFILE_DIR), the identifier print shops and
    preflight tools know it by (OutputConditionIdentifier of the ICC registry) and its
    description."""

    file: str
    identifier: str
    condition: str


PROFILES = {
    "fogra39": PressProfile(
        "ISOcoated_v2_eci.icc", "FOGRA39", "Offset, coated paper (ISO 12647-2:2004), ISO Coated v2"
    ),
    "fogra51": PressProfile(
        "PSOcoated_v3.icc", "FOGRA51", "Offset, coated paper (ISO 12647-2:2013), PSO Coated v3"
    ),
    "gracol2006": PressProfile(
        "GRACoL2006_Coated1v2.icc", "CGATS TR 006", "Offset, GRACoL 2006 coated #1 (US)"
    ),
    "swop": PressProfile(
        "SWOP2006_Coated3v2.icc", "CGATS TR 003", "Web offset, SWOP 2006 coated #3 (US)"
    ),
}
DEFAULT_PROFILE = "fogra39"
PROFILES_MISSING = "the print profiles are not installed (make profiles)"


class ProfilesMissing(ServiceError):
    status_code = 503


def profile_path(name: str) -> Path:
    path = Path(settings.ICC_PROFILE_DIR) / PROFILES[name].file
    if not path.is_file():
        raise ProfilesMissing(PROFILES_MISSING, code="icc_profiles_missing")
    return path


@cache
def profile_bytes(name: str) -> bytes:
    return profile_path(name).read_bytes()


@cache
def srgb_profile_bytes() -> bytes:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


@cache
def _transform(profile: str, source: bytes | None, mode: str) -> ImageCms.ImageCmsTransform:
    """source: an embedded ICC profile (None: sRGB) of images in `mode` (RGB or RGBA)."""
    source_profile = (
        ImageCms.ImageCmsProfile(io.BytesIO(source)) if source else ImageCms.createProfile("sRGB")
    )
    return ImageCms.buildTransform(
        source_profile,
        ImageCms.getOpenProfile(str(profile_path(profile))),
        mode,
        "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )


class CmykConverter:
    """sRGB colours (0..1) to CMYK (0..1) for one profile and black rule; each distinct
    colour goes through littleCMS once."""

    def __init__(self, profile: str, black: str):
        self.transform = _transform(profile, None, "RGB")
        self.black = black
        self.known: dict[RGB, CMYK] = {}

    def __call__(self, rgb: RGB) -> CMYK:
        cmyk = self.known.get(rgb)
        if cmyk is None:
            cmyk = self.known[rgb] = self._convert(rgb)
        return cmyk

    def _convert(self, rgb: RGB) -> CMYK:
        if self.black != "icc" and max(rgb) == 0:
            return PURE_BLACK if self.black == "k" else RICH_BLACK
        pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in rgb))
        converted = self.transform.apply(pixel).getpixel((0, 0))
        return tuple(round(v / 255, 4) for v in converted)


def image_to_cmyk(image: Image.Image, profile: str) -> Image.Image:
    """An RGB image's pixels in the press's CMYK, through the image's own ICC profile (its
    `icc_profile`, sRGB when it has none or an unreadable one)."""
    source = image.info.get("icc_profile") or None
    try:
        transform = _transform(profile, source, "RGB")
    except (OSError, ImageCms.PyCMSError):
        transform = _transform(profile, None, "RGB")
    return transform.apply(image.convert("RGB"))
