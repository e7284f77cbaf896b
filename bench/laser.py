"""Time the laser files of the 3,000-name heart: `python bench/laser.py`.

The engine lays out bench/fixtures/names_3000.xlsx in heart.png at 2000 x 2000 (as
bench/engine.py does); then the laser drawing (exports/laser/drawing.py) runs on its
wordcloud.svg outlines and its mask, 420 mm wide: the piece (outlines flattened within
0.01 mm, the mask's outline traced), the DXF with and without hatches, and the laser SVG.
Wall time of each step, best of 3, and the files' sizes."""

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from exports.laser.drawing import dxf_document, mask_outline, piece, svg_document  # noqa: E402
from wordclouds import engine  # noqa: E402

FIXTURES = ROOT / "bench" / "fixtures"
PARAMS = {"DATA_COL_INDEX": 1, "SEED": 1, "WIDTH": 2000, "HEIGHT": 2000, "MODE": "IMAGE"}


def best(function, *args, **kwargs):
    times, result = [], None
    for _ in range(3):
        start = time.perf_counter()
        result = function(*args, **kwargs)
        times.append(time.perf_counter() - start)
    return min(times), result


def main():
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        engine.generate(
            names_path=FIXTURES / "names_3000.xlsx",
            out_dir=out,
            params=PARAMS,
            mask_path=FIXTURES / "heart.png",
        )
        outlines = engine.svg_outlines((out / "wordcloud.svg").read_text())
    words = [[d] for _, d in sorted(outlines.items())]
    inside = engine.load_mask(FIXTURES / "heart.png", params=engine.parse_params(PARAMS)).inside
    outline_s, outline = best(mask_outline, inside, 2000, 2000)
    piece_s, drawn = best(piece, words, outline, width_mm=420)
    dxf_s, dxf = best(dxf_document, drawn, hatch=False)
    hatch_s, hatched = best(dxf_document, drawn, hatch=True)
    svg_s, svg = best(svg_document, drawn, hairline=False)
    contours = sum(len(word) for word in drawn.words)
    print(
        json.dumps(
            {
                "names": len(words),
                "contours": contours,
                "piece_mm": [round(drawn.width_mm, 1), round(drawn.height_mm, 1)],
                "thin_names_at_0.1mm": int((drawn.strokes_mm < 0.1).sum()),
                "smallest_stroke_mm": round(float(drawn.strokes_mm.min()), 3),
                "seconds": {
                    "mask_outline": round(outline_s, 2),
                    "piece": round(piece_s, 2),
                    "dxf": round(dxf_s, 2),
                    "dxf_hatch": round(hatch_s, 2),
                    "laser_svg": round(svg_s, 2),
                },
                "megabytes": {
                    "dxf": round(len(dxf) / 1e6, 1),
                    "dxf_hatch": round(len(hatched) / 1e6, 1),
                    "laser_svg": round(len(svg) / 1e6, 1),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
