"""Laser files drawn (docs/exports.md, "Laser files"): a job's names as closed outlines in
millimetres and the cut outline, written as DXF (through ezdxf) and as an SVG of a real size.
Pure functions of prepared inputs: the words' path data in canvas px (custom.svg's groups)
and the drawable shape (the mask's `inside`, or None for the canvas); the service reads them.

The piece is the cut outline: `width_mm` is the width of the mask's outline (the canvas
without a mask), `height_mm` its height, and both files put the top-left corner of its
bounding box at the origin."""

import io
import re
from dataclasses import dataclass

import numpy as np
import shapely

from wordclouds.engine.path_data import curve_pieces, path_segments
from wordclouds.engine.render import layer_id, layer_open

FLATNESS_MM = 0.01  # curves become straight pieces within this of the curve
HAIRLINE_MM = 0.025
CUT_SMOOTHING_PX = 0.75  # the mask's pixel staircase simplified within this
ENGRAVE, CUT = "ENGRAVE", "CUT"
RED = 1  # the DXF colour index of the cut layer
_GROUP = re.compile(r'<g id="w(\d+)">(.*?)</g>', re.S)
_PATH_DATA = re.compile(r'<path d="([^"]*)"')


@dataclass(frozen=True)
class Piece:
    """What a laser file draws, in mm with y down from the top-left corner of the cut
    outline's bounding box: each word's closed contours, and the cut outline's rings."""

    width_mm: float
    height_mm: float
    words: list[list[np.ndarray]]  # per word, (n, 2) arrays, each implicitly closed
    cut: list[np.ndarray]
    strokes_mm: np.ndarray  # each word's mean stroke width (2 × ink area / outline length)


def word_paths(custom_svg: str) -> list[list[str]]:
    """The path data of each word group (`<g id="w<ID>">`) of a custom.svg, in order."""
    return [_PATH_DATA.findall(body) for _, body in _GROUP.findall(custom_svg)]


def word_ids(custom_svg: str) -> list[int]:
    """The id of each word group (`<g id="w<ID>">`) of a custom.svg, in order."""
    return [int(word_id) for word_id, _ in _GROUP.findall(custom_svg)]


LAYER_UNSAFE = re.compile(r'[<>/\\":;?*|=`]')  # what a DXF layer name may not hold


def group_layer(group: str) -> str:
    """The DXF layer of a group's names: ENGRAVE and the group's name, LAYER_UNSAFE
    characters made _."""
    return f"{ENGRAVE} {LAYER_UNSAFE.sub('_', group)}"


def mask_outline(inside: np.ndarray | None, width: float, height: float):
    """The drawable shape's outline as a shapely geometry in canvas px: the union of the
    mask's pixel runs, its staircase simplified; the canvas rectangle without a mask."""
    if inside is None:
        return shapely.box(0, 0, width, height)
    padded = np.pad(inside, ((0, 0), (1, 1))).astype(np.int8)
    rows, starts = np.nonzero(np.diff(padded, axis=1) == 1)
    _, ends = np.nonzero(np.diff(padded, axis=1) == -1)
    shape = shapely.union_all(shapely.box(starts, rows, ends, rows + 1))
    return shapely.simplify(shape, CUT_SMOOTHING_PX)


def piece(
    words: list[list[str]], outline, *, width_mm: float | None, height_mm: float | None = None
) -> Piece:
    """The piece `width_mm` wide, else `height_mm` high, else at 96 px per inch."""
    x0, y0, x1, y1 = shapely.bounds(outline).tolist()
    if width_mm:
        scale = width_mm / (x1 - x0)  # mm per px
    else:
        scale = height_mm / (y1 - y0) if height_mm else 25.4 / 96
    origin = np.array([x0, y0])
    contours, owner = _contours([d for paths in words for d in paths], FLATNESS_MM / scale)
    word_of_path = np.repeat(np.arange(len(words)), [len(paths) for paths in words])
    by_word: list[list[np.ndarray]] = [[] for _ in words]
    for points, path in zip(contours, owner.tolist()):
        by_word[word_of_path[path]].append((points - origin) * scale)
    rings = [
        (np.asarray(ring.coords)[:-1] - origin) * scale
        for polygon in getattr(outline, "geoms", [outline])
        for ring in [polygon.exterior, *polygon.interiors]
    ]
    return Piece(
        (x1 - x0) * scale,
        (y1 - y0) * scale,
        by_word,
        rings,
        np.array([_stroke(w) for w in by_word]),
    )


def _contours(path_data: list[str], tolerance: float) -> tuple[list[np.ndarray], np.ndarray]:
    """Every contour of the paths, flattened within `tolerance`, and the path of each."""
    if not path_data:
        return [], np.zeros(0, dtype=np.int64)
    segments = path_segments(path_data)
    starts, _, contour = curve_pieces(segments, tolerance)
    points = np.column_stack([starts.real, starts.imag])
    cuts = np.flatnonzero(np.diff(contour)) + 1
    return np.split(points, cuts), segments.contour_path[contour[np.r_[0, cuts]]]


def _stroke(contours: list[np.ndarray]) -> float:
    """The mean stroke width of a word's ink: twice its area over its outline's length (a
    stroke of width w and length L has area wL and outline about 2L); holes wind the other
    way, so the signed areas add up to the ink."""
    area = length = 0.0
    for points in contours:
        x, y = points[:, 0], points[:, 1]
        area += 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
        length += float(np.linalg.norm(points - np.roll(points, -1, axis=0), axis=1).sum())
    return 2 * abs(area) / length if length else 0.0


def dxf_document(drawn: Piece, *, hatch: bool, groups=None) -> bytes:
    """R2010 DXF in millimetres ($INSUNITS 4, $MEASUREMENT 1), y up: each word's contours
    as closed LWPOLYLINEs on ENGRAVE (with `hatch` a HATCH of them too, odd parity keeps the
    holes), the cut outline on CUT in red. With ``groups`` (each word's group, a poster with
    groups) each group's names are on a layer of their own, `ENGRAVE <group>`."""
    import ezdxf  # here: it costs every process ~0.3 s to import, few draw DXF

    document = ezdxf.new("R2010", units=4)
    document.header["$MEASUREMENT"] = 1
    document.header["$EXTMIN"] = (0, 0, 0)
    document.header["$EXTMAX"] = (drawn.width_mm, drawn.height_mm, 0)
    layers = [group_layer(g) for g in groups] if groups and any(groups) else None
    for name in dict.fromkeys(layers or [ENGRAVE]):
        document.layers.add(name, color=7)
    document.layers.add(CUT, color=RED)
    space = document.modelspace()

    def flipped(points: np.ndarray) -> list:
        return np.column_stack([points[:, 0], drawn.height_mm - points[:, 1]]).tolist()

    for k, contours in enumerate(drawn.words):
        layer = layers[k] if layers else ENGRAVE
        for points in contours:
            space.add_lwpolyline(flipped(points), close=True, dxfattribs={"layer": layer})
        if hatch and contours:
            fill = space.add_hatch(dxfattribs={"layer": layer})
            for points in contours:
                fill.paths.add_polyline_path(flipped(points), is_closed=True)
    for ring in drawn.cut:
        space.add_lwpolyline(flipped(ring), close=True, dxfattribs={"layer": CUT, "color": RED})
    stream = io.StringIO()
    document.write(stream)
    return stream.getvalue().encode()


def svg_document(drawn: Piece, *, hairline: bool, groups=None) -> bytes:
    """An SVG whose width and height are in mm and whose user unit is 1 mm: the names in an
    ENGRAVE layer as black filled paths (even-odd; with `hairline` 0.025 mm non-scaling
    strokes instead), the cut outline in a CUT layer as a red hairline. With ``groups``
    (each word's group, a poster with groups) each group's names are in a layer of their
    own instead, named as the DXF's (`ENGRAVE <group>`, id `ENGRAVE-group-<k>`), the
    groups in the order of their first word."""
    width, height = (f"{value:.3f}" for value in (drawn.width_mm, drawn.height_mm))
    line = f'stroke-width="{HAIRLINE_MM}" vector-effect="non-scaling-stroke"'
    paint = f'fill="none" stroke="#000000" {line}' if hairline else 'fill="#000000"'
    layer = 'inkscape:groupmode="layer" id="{0}" inkscape:label="{0}"'
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
        f'width="{width}mm" height="{height}mm" viewBox="0 0 {width} {height}">',
        *_engrave_layers(drawn, paint, layer, groups),
        f"<g {layer.format(CUT)}>",
        f'<path d="{_path_data(drawn.cut)}" fill="none" stroke="#FF0000" {line}/>',
        "</g>",
        "</svg>\n",
    ]
    return "\n".join(parts).encode()


def _engrave_layers(drawn: Piece, paint: str, layer: str, groups) -> list[str]:
    """The laser SVG's lines of the names' layer, or of each group's (svg_document)."""
    names = groups if groups and any(groups) else [None] * len(drawn.words)
    lines = []
    for k, group in enumerate(dict.fromkeys(names), start=1):
        if group is None:
            lines.append(f"<g {layer.format(ENGRAVE)}>")
        else:
            lines.append(layer_open(f"{ENGRAVE}-{layer_id(k)}", group_layer(group)).rstrip())
        lines += [
            f'<path d="{_path_data(contours)}" fill-rule="evenodd" {paint}/>'
            for contours, name in zip(drawn.words, names, strict=True)
            if contours and name == group
        ]
        lines.append("</g>")
    return lines


def _path_data(contours: list[np.ndarray]) -> str:
    """Closed subpaths, every coordinate written in one %-format pass."""
    template = "".join("M%.3f %.3f" + "L%.3f %.3f" * (len(points) - 1) + "Z" for points in contours)
    return template % tuple(np.concatenate(contours).ravel().tolist())
