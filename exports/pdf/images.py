"""Raster images for the print PDF (a project's PNG, JPEG, GIF and WebP stickers): their
pixels in the press's CMYK (or in sRGB for `colour=rgb`) through their own ICC profile with
littleCMS, and their alpha as PDF/X allows it: a hard edge (every pixel fully transparent or
fully opaque) as an explicit 1-bit /Mask, which PDF/X-1a accepts; a soft edge as an /SMask in
PDF/X-4 and plain PDF, or, in PDF/X-1a (no transparency), flattened over the poster's
background colour, its fully transparent pixels still masked out."""

import io
from dataclasses import dataclass

from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from core.errors import Unprocessable
from exports.pdf.colour import RGB, image_to_cmyk

# How a PDF's images keep their alpha, from the least involved; a document reports the most
# involved one any of its images needed (the X-PDF-Transparency header).
TRANSPARENCY = ("none", "mask", "soft-mask", "flattened")


@dataclass(frozen=True)
class Raster:
    """An image ready to be written: 8-bit samples (`components` 4: DeviceCMYK, 3: sRGB),
    and at most one of a 1-bit mask (1: not painted) and an 8-bit soft mask."""

    width: int
    height: int
    samples: bytes
    components: int
    mask: bytes | None
    soft_mask: bytes | None
    transparency: str


def raster(data: bytes, *, colour: str, profile: str, standard: str, backdrop: RGB) -> Raster:
    """The image file `data` as a Raster; `backdrop` (sRGB 0..1): what a soft edge is
    flattened over in PDF/X-1a. 422 when it does not decode."""
    try:
        image = Image.open(io.BytesIO(data))
        icc = image.info.get("icc_profile")
        image = ImageOps.exif_transpose(image)
        image.load()
    except (OSError, ValueError, UnidentifiedImageError, Image.DecompressionBombError) as error:
        raise Unprocessable(
            "an image sticker cannot be read", code="image_sticker_unreadable"
        ) from error
    has_alpha = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    rgba = image.convert("RGBA")
    alpha = rgba.getchannel("A") if has_alpha else None
    transparency = _alpha_kind(alpha)
    mask = soft_mask = None
    if transparency == "soft-mask" and standard == "x1a":
        transparency = "flattened"
        under = Image.new("RGBA", rgba.size, (*(round(v * 255) for v in backdrop), 255))
        rgba = Image.alpha_composite(under, rgba)
    if transparency == "soft-mask":
        soft_mask = alpha.tobytes()
    elif transparency in ("mask", "flattened") and alpha.getextrema()[0] == 0:
        hidden = alpha.point(lambda a: 255 if a == 0 else 0)
        mask = hidden.convert("1", dither=Image.Dither.NONE).tobytes()
    rgb = rgba.convert("RGB")
    if icc:
        rgb.info["icc_profile"] = icc
    if colour == "cmyk":
        samples, components = image_to_cmyk(rgb, profile).tobytes(), 4
    else:
        samples, components = _to_srgb(rgb).tobytes(), 3
    return Raster(image.width, image.height, samples, components, mask, soft_mask, transparency)


def _alpha_kind(alpha: Image.Image | None) -> str:
    """none (opaque), mask (only 0 and 255) or soft-mask."""
    if alpha is None or alpha.getextrema()[0] == 255:
        return "none"
    counts = alpha.histogram()
    return "mask" if sum(counts[1:255]) == 0 else "soft-mask"


def _to_srgb(image: Image.Image) -> Image.Image:
    """The pixels in sRGB from the image's own profile (as they are when it has none)."""
    icc = image.info.get("icc_profile")
    if not icc:
        return image
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        return ImageCms.profileToProfile(image, source, ImageCms.createProfile("sRGB"))
    except (OSError, ImageCms.PyCMSError):
        return image


def most_involved(kinds) -> str:
    return max(kinds, key=TRANSPARENCY.index, default="none")
