"""Hand-made SVGs for the export tests, each exercising one part of the reader, and
word-cloud-like fill styles (dots, lines, rings inside a glyph) made as plain shapes."""

import io
from functools import lru_cache

import numpy as np
import resvg_py
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTCollection
from PIL import Image

from exports.svg_text import bundled_font_path

SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'

NESTED_TRANSFORMS = (
    SVG_HEAD
    + """ width="320" height="240" viewBox="0 0 160 120">
  <g transform="translate(20 10) rotate(15)">
    <rect x="0" y="0" width="40" height="25" fill="#1f77b4"/>
    <g transform="matrix(0.9 0.2 -0.1 1.1 50 5) scale(1.2, 0.8)">
      <polygon points="0,0 30,5 20,30 5,25" fill="#d62728" stroke="black" stroke-width="1.5"/>
      <g transform="skewX(20) skewY(-10) translate(10,40)">
        <circle cx="10" cy="10" r="9" fill="#2ca02c"/>
        <line x1="0" y1="0" x2="40" y2="10" stroke="#9467bd" stroke-width="3"/>
      </g>
    </g>
  </g>
  <svg x="100" y="60" width="50" height="50" viewBox="0 0 10 10">
    <rect x="1" y="1" width="8" height="8" fill="orange"/>
  </svg>
</svg>"""
)

ARCS = (
    SVG_HEAD
    + """ width="300" height="200">
  <path d="M20 100 A40 25 0 0 1 100 100 A40 25 30 1 0 140 60 a20 20 0 1,1 30 30 l10 -40 z"
        fill="#8c564b" stroke="#222" stroke-width="2"/>
  <path d="m180 150 a30 30 0 0011 40 h20 v-30 q20 -30 40 0 t40 -10 c10 -20 20 -20 30 0 s10 20 -20 20 Z"
        fill="teal"/>
  <path d="M20 20 H80 V60 L40 70 Z M100 20 l30 0 0 30 -30 0 z" fill="#e377c2"/>
</svg>"""
)

ROUNDED_AND_ELLIPSES = (
    SVG_HEAD
    + """ width="300" height="200">
  <rect x="10" y="10" width="120" height="70" rx="20" fill="#17becf"/>
  <rect x="150" y="10" width="120" height="70" rx="15" ry="30" fill="none" stroke="#bcbd22" stroke-width="6"/>
  <ellipse cx="70" cy="140" rx="60" ry="35" fill="#7f7f7f" transform="rotate(-20 70 140)"/>
  <circle cx="220" cy="140" r="45" style="fill: rgb(200, 30, 60); stroke: navy; stroke-width: 4"/>
</svg>"""
)

EVEN_ODD = (
    SVG_HEAD
    + """ width="300" height="160">
  <path fill-rule="evenodd" fill="#000080"
        d="M80 10 L120 150 L10 60 L150 60 L40 150 Z"/>
  <path fill-rule="evenodd" fill="#800000"
        d="M170 20 h110 v120 h-110 z M200 50 h50 v60 h-50 z"/>
  <g fill-rule="evenodd"><circle cx="230" cy="80" r="10" fill="#008000"/></g>
  <path fill="#553300" d="M10 100 h60 v50 h-60 z M25 115 v20 h30 v-20 z"/>
</svg>"""
)

DASHED_STROKES = (
    SVG_HEAD
    + """ width="300" height="200">
  <g fill="none" stroke="black">
    <path d="M20 20 H280" stroke-width="6" stroke-dasharray="20 10"/>
    <path d="M20 50 H280" stroke-width="8" stroke-dasharray="15,5,5,5" stroke-linecap="round"/>
    <path d="M20 80 H280" stroke-width="6" stroke-dasharray="10" stroke-dashoffset="5" stroke-linecap="square"/>
    <polyline points="20,180 70,110 120,180 170,110" stroke-width="10" stroke-linejoin="bevel"/>
    <polyline points="190,180 220,110 250,180" stroke-width="10" stroke-linejoin="miter" stroke-miterlimit="10"/>
    <circle cx="270" cy="150" r="20" stroke="#c00" stroke-width="5" stroke-dasharray="8 4"/>
  </g>
</svg>"""
)

CJK_TEXT = (
    SVG_HEAD
    + """ width="360" height="200">
  <text x="20" y="60" font-size="40" fill="#202020">词云 Poster</text>
  <text x="180" y="120" font-size="32" text-anchor="middle" fill="#0a5">
    你好 <tspan fill="#a05" font-size="24">世界</tspan>
  </text>
  <g transform="translate(40 150) rotate(-8)">
    <text font-size="28" style="fill:#003399">李雷 韩梅梅</text>
  </g>
</svg>"""
)

HAND_MADE = {
    "nested-transforms": NESTED_TRANSFORMS,
    "arcs": ARCS,
    "rounded-rects-ellipses": ROUNDED_AND_ELLIPSES,
    "even-odd-holes": EVEN_ODD,
    "dashed-strokes": DASHED_STROKES,
    "cjk-text": CJK_TEXT,
}

FORBIDDEN = {
    "image": '<image href="data:image/png;base64,AAAA" width="10" height="10"/>',
    "pattern": '<defs><pattern id="p" width="4" height="4"><rect width="2" height="2"/></pattern></defs>'
    '<rect width="10" height="10" fill="url(#p)"/>',
    "linearGradient": '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>'
    '</defs><rect width="10" height="10" fill="url(#g)"/>',
    "radialGradient": '<defs><radialGradient id="g"><stop offset="0" stop-color="red"/></radialGradient>'
    '</defs><rect width="10" height="10" stroke="url(#g)"/>',
    "clipPath": '<clipPath id="c"><rect width="5" height="5"/></clipPath>'
    '<rect width="10" height="10" clip-path="url(#c)"/>',
    "mask": '<mask id="m"><rect width="5" height="5" fill="white"/></mask>'
    '<rect width="10" height="10" mask="url(#m)"/>',
    "filter": '<filter id="f"><feGaussianBlur stdDeviation="2"/></filter>'
    '<rect width="10" height="10" filter="url(#f)"/>',
    "opacity": '<g opacity="0.5"><rect width="10" height="10"/></g>',
    "fill-opacity": '<rect width="10" height="10" style="fill-opacity: 50%"/>',
    "stroke-opacity": '<rect width="10" height="10" stroke="red" stroke-opacity=".3"/>',
}


def svg_document(body: str, width: int = 100, height: int = 100) -> str:
    return f'{SVG_HEAD} width="{width}" height="{height}">{body}</svg>'


def glyph_path(char: str, *, size: float, x: float, y: float) -> str:
    """The outline of `char` from the bundled font as SVG path data (baseline at y)."""
    font = next(
        f
        for f in TTCollection(str(bundled_font_path()), lazy=True).fonts
        if f["name"].getDebugName(1) == "Noto Sans CJK SC"
    )
    glyphs = font.getGlyphSet()
    scale = size / font["head"].unitsPerEm
    pen = SVGPathPen(glyphs)
    glyphs[font.getBestCmap()[ord(char)]].draw(TransformPen(pen, (scale, 0, 0, -scale, x, y)))
    return pen.getCommands()


@lru_cache(maxsize=1)
def fill_styles(char: str = "福", size: int = 240) -> dict[str, str]:
    """One glyph filled three ways, as a custom fill-style export draws them: dots (circles),
    lines (horizontal polylines) and rings (stroked circles), each only where the glyph
    has ink."""
    width = height = size + 20
    outline = glyph_path(char, size=size, x=10, y=size * 0.88 + 10)
    inside = _glyph_mask(outline, width, height)
    step = 8
    dots, rings, lines = [], [], []
    for y in range(step // 2, height, step):
        for x in range(step // 2, width, step):
            if inside[y, x]:
                dots.append(f'<circle cx="{x}" cy="{y}" r="3" fill="#cc2233"/>')
                rings.append(
                    f'<circle cx="{x}" cy="{y}" r="2.5" fill="none" stroke="#2233cc" stroke-width="1.5"/>'
                )
        runs = _runs(inside[y])
        lines += [
            f'<polyline points="{a},{y} {b},{y}" fill="none" stroke="#118844" stroke-width="4"/>'
            for a, b in runs
        ]
    return {
        name: svg_document("".join(parts), width, height)
        for name, parts in (("dots", dots), ("lines", lines), ("rings", rings))
    }


def _glyph_mask(outline: str, width: int, height: int) -> np.ndarray:
    png = resvg_py.svg_to_bytes(
        svg_string=svg_document(f'<path d="{outline}"/>', width, height), background="#ffffff"
    )
    return np.asarray(Image.open(io.BytesIO(bytes(png))).convert("L")) < 128


def _runs(row: np.ndarray) -> list[tuple[int, int]]:
    runs, start = [], None
    for x, value in enumerate(row):
        if value and start is None:
            start = x
        elif not value and start is not None:
            runs.append((start, x - 1))
            start = None
    return [(a, b) for a, b in runs if b - a >= 3]
