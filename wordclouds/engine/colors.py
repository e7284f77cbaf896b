"""Readable colours: WCAG contrast against the background, and colours moved to at least
:data:`LEAST_CONTRAST` by changing only their OKLab lightness (hue and chroma kept, chroma
reduced only as far as the sRGB gamut demands)."""

import numpy as np

LEAST_CONTRAST = 3.0  # WCAG 2's least contrast for graphics and large text
# Aimed at a little above the least, so rounding to 8 bits never falls below it.
_AIM = LEAST_CONTRAST + 0.03
_STEPS = 24  # bisection steps: 2^-24 of lightness, far below one 8-bit level


def to_rgb(color: str) -> tuple[int, int, int]:
    """``#RRGGBB`` as (red, green, blue)."""
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def to_hex(rgb) -> str:
    """(red, green, blue) as ``#RRGGBB``."""
    return "#{:02X}{:02X}{:02X}".format(*(int(v) for v in rgb))


def _linear(rgb8):
    c = np.asarray(rgb8, dtype=float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _encoded(linear):
    c = np.clip(linear, 0.0, 1.0)
    c = np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)
    return np.rint(c * 255).astype(np.int64)


def luminance(rgb8) -> np.ndarray:
    """WCAG relative luminance of 8-bit sRGB colours (..., 3)."""
    return _linear(rgb8) @ np.array([0.2126, 0.7152, 0.0722])


def contrast(rgb8, background) -> np.ndarray:
    """WCAG contrast ratio (1–21) of colours (..., 3) with one background colour."""
    a, b = luminance(rgb8), float(luminance(background))
    return (np.maximum(a, b) + 0.05) / (np.minimum(a, b) + 0.05)


_TO_LMS = np.array(
    [
        [0.4122214708, 0.5363325363, 0.0514459929],
        [0.2119034982, 0.6806995451, 0.1073969566],
        [0.0883024619, 0.2817188376, 0.6299787005],
    ]
)
_LMS_TO_LAB = np.array(
    [
        [0.2104542553, 0.7936177850, -0.0040720468],
        [1.9779984951, -2.4285922050, 0.4505937099],
        [0.0259040371, 0.7827717662, -0.8086757660],
    ]
)
_FROM_LMS = np.linalg.inv(_TO_LMS)
_LAB_TO_LMS = np.linalg.inv(_LMS_TO_LAB)


def _to_oklab(linear):
    return np.cbrt(linear @ _TO_LMS.T) @ _LMS_TO_LAB.T


def _from_oklab(lab):
    return (lab @ _LAB_TO_LMS.T) ** 3 @ _FROM_LMS.T


def _in_gamut(lightness, ab):
    """Linear sRGB for OKLab (lightness, ab), with chroma cut (hue kept) as far as needed to
    fall inside the sRGB gamut."""
    keep = np.ones_like(lightness)
    low, high = np.zeros_like(lightness), np.ones_like(lightness)
    linear = _from_oklab(np.column_stack((lightness, ab)))
    outside = ((linear < -1e-9) | (linear > 1 + 1e-9)).any(axis=1)
    if outside.any():
        for _ in range(_STEPS):
            middle = (low + high) / 2
            trial = _from_oklab(np.column_stack((lightness, ab * middle[:, None])))
            fits = ((trial >= -1e-9) & (trial <= 1 + 1e-9)).all(axis=1)
            low, high = np.where(fits, middle, low), np.where(fits, high, middle)
        keep = np.where(outside, low, 1.0)
    return _from_oklab(np.column_stack((lightness, ab * keep[:, None])))


def _lightness_for(lab, target, darker):
    """The OKLab lightness nearest each colour's own, towards black (``darker``) or white,
    whose luminance reaches ``target`` (at most it when darker, at least it when lighter)."""
    near, far = lab[:, 0].copy(), np.full(len(lab), 0.0 if darker else 1.0)
    for _ in range(_STEPS):
        middle = (near + far) / 2
        y = _in_gamut(middle, lab[:, 1:]) @ np.array([0.2126, 0.7152, 0.0722])
        good = y <= target if darker else y >= target
        far, near = np.where(good, middle, far), np.where(good, near, middle)
    return far


def readable(colors: list[str], background: str) -> list[str]:
    """Each colour, or when its contrast with ``background`` is below LEAST_CONTRAST the
    colour of the same hue and chroma (chroma cut only where the gamut ends) at the nearest
    lightness that reaches it, darker or lighter, whichever changes less."""
    rgb = np.array([to_rgb(c) for c in colors], dtype=np.int64).reshape(-1, 3)
    back = float(luminance(to_rgb(background)))
    low = contrast(rgb, to_rgb(background)) < _AIM
    if not low.any():
        return list(colors)
    lab = _to_oklab(_linear(rgb[low]))
    options = []
    for darker, target in (
        (True, (back + 0.05) / _AIM - 0.05),
        (False, _AIM * (back + 0.05) - 0.05),
    ):
        if 0.0 <= target <= 1.0:
            lightness = _lightness_for(lab, target, darker)
            options.append((np.abs(lightness - lab[:, 0]), lightness))
    distance = np.stack([d for d, _ in options])
    choice = np.stack([v for _, v in options])[distance.argmin(axis=0), np.arange(len(lab))]
    rgb[low] = _encoded(_in_gamut(choice, lab[:, 1:]))
    return [to_hex(c) for c in rgb]


def shifted(color: str, background: str, step: int) -> str:
    """``color`` made ``step`` × 0.08 OKLab lightness more distinct from ``background``
    (darker on a light one, lighter on a dark one), still readable: a variant that tells a
    word from a neighbour of the same colour."""
    rgb = np.array([to_rgb(color)])
    lab = _to_oklab(_linear(rgb))
    darker = float(luminance(to_rgb(background))) >= 0.18
    if darker and lab[0, 0] < 0.08 * step or not darker and lab[0, 0] > 1 - 0.08 * step:
        darker = not darker  # no room that way: the other way, then made readable again
    lightness = np.clip(lab[:, 0] + (-0.08 if darker else 0.08) * step, 0.0, 1.0)
    return readable([to_hex(_encoded(_in_gamut(lightness, lab[:, 1:]))[0])], background)[0]


# Perceptual distance. Two colours read as one when their CIEDE2000 difference is below
# LEAST_DIFFERENCE, or below LEAST_DEUTAN_DIFFERENCE once both are seen as a deuteranope sees
# them (:func:`deuteranopia`, the commonest red–green deficiency): neighbours are kept at
# least that far apart (docs/engine.md, Colours).
LEAST_DIFFERENCE = 15.0
LEAST_DEUTAN_DIFFERENCE = 10.0
_WHITE_XYZ = np.array([0.95047, 1.0, 1.08883])  # D65
_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
# Machado, Oliveira and Fernandes (2009), deuteranopia at severity 1.0, on linear sRGB.
_DEUTERANOPIA = np.array(
    [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ]
)


def _lab_of_linear(linear) -> np.ndarray:
    t = (np.asarray(linear, dtype=float) @ _TO_XYZ.T) / _WHITE_XYZ
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack(
        (116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])),
        axis=-1,
    )


def cielab(rgb8) -> np.ndarray:
    """CIELAB (D65) of 8-bit sRGB colours (..., 3)."""
    return _lab_of_linear(_linear(rgb8))


def deuteranopia(rgb8) -> np.ndarray:
    """CIELAB of 8-bit sRGB colours (..., 3) as a deuteranope sees them (Machado 2009)."""
    return _lab_of_linear(np.clip(_linear(rgb8) @ _DEUTERANOPIA.T, 0.0, 1.0))


def ciede2000(lab1, lab2) -> np.ndarray:
    """The CIEDE2000 colour difference (kL = kC = kH = 1) of CIELAB colours, broadcast."""
    lab1, lab2 = np.asarray(lab1, dtype=float), np.asarray(lab2, dtype=float)
    l1, a1, b1 = np.moveaxis(lab1, -1, 0)
    l2, a2, b2 = np.moveaxis(lab2, -1, 0)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1 = np.degrees(np.arctan2(b1, a1)) % 360
    h2 = np.degrees(np.arctan2(b2, a2)) % 360
    both = (c1 * c2) != 0
    dh = h2 - h1
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(both, dh, 0.0)
    big_dh = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    h_mean = np.where(np.abs(h1 - h2) > 180, (h1 + h2 + 360) / 2, (h1 + h2) / 2) % 360
    h_mean = np.where(both, h_mean, h1 + h2)
    t = (
        1
        - 0.17 * np.cos(np.radians(h_mean - 30))
        + 0.24 * np.cos(np.radians(2 * h_mean))
        + 0.32 * np.cos(np.radians(3 * h_mean + 6))
        - 0.20 * np.cos(np.radians(4 * h_mean - 63))
    )
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * c_mean
    s_h = 1 + 0.015 * c_mean * t
    r_c = 2 * np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7))
    r_t = -np.sin(np.radians(2 * 30 * np.exp(-(((h_mean - 275) / 25) ** 2)))) * r_c
    dl, dc, dh_s = (l2 - l1) / s_l, (c2 - c1) / s_c, big_dh / s_h
    return np.sqrt(dl**2 + dc**2 + dh_s**2 + r_t * dc * dh_s)


def differences(colors: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The CIEDE2000 differences of every pair of ``colors`` (#RRGGBB): seen normally and
    under :func:`deuteranopia`, two (n, n) arrays."""
    rgb = np.array([to_rgb(c) for c in colors], dtype=float).reshape(-1, 3)
    found = []
    for lab in (cielab(rgb), deuteranopia(rgb)):
        found.append(ciede2000(lab[:, None, :], lab[None, :, :]))
    return found[0], found[1]


def alike(colors: list[str]) -> np.ndarray:
    """Which pairs of ``colors`` read as one (an (n, n) bool array, the diagonal true):
    closer than LEAST_DIFFERENCE, or than LEAST_DEUTAN_DIFFERENCE under deuteranopia."""
    normal, deutan = differences(colors)
    return (normal < LEAST_DIFFERENCE) | (deutan < LEAST_DEUTAN_DIFFERENCE)
