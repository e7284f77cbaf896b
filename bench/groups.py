"""Text masks and groups (issue 41): `python bench/groups.py [--runs N] [--skip-fill]`.

In one process, the library calls, each case after a warm-up run:
- speed of groups: names_3000.xlsx in heart.png at 2000×2000 (the benchmark heart), once in
  one region and once in 10 groups (column 2: the rows dealt round-robin after a seeded
  shuffle), N runs each interleaved; medians of wall and CPU seconds, and their ratio;
- cost of a text mask: load_mask for MASK_TEXT "2026" on a 2000×2000 canvas against
  load_mask for heart.png at 2000×2000 (IMAGE), N runs each; medians;
- fill: MASK_TEXT "2026" with the 3,000 names in 4 groups and "毕业快乐" with them in 4
  classes, each region's box coverage and smallest font size (metrics' groups).
Prints the figures; docs/benchmarks.md keeps them with the command.
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wordclouds.engine import generate, load_mask, parse_params, read_names  # noqa: E402

FIXTURES = ROOT / "bench" / "fixtures"
HEART = {"MODE": "IMAGE", "DATA_COL_INDEX": 1, "WIDTH": 2000, "HEIGHT": 2000, "SEED": 1}


def grouped_list(path: Path, groups: int) -> Path:
    """names_3000's names with a group column: rows dealt round-robin after a shuffle."""
    names = read_names(FIXTURES / "names_3000.xlsx", column=1, skip_rows=1)
    order = list(range(len(names)))
    random.Random(41).shuffle(order)
    group = {index: f"Class {k % groups + 1}" for k, index in enumerate(order)}
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["", "name", "class"])
    for index, name in enumerate(names):
        sheet.append([index + 1, name.text, group[index]])
    workbook.save(path)
    return path


def timed(call) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def speed_of_groups(scratch: Path, runs: int) -> None:
    names = grouped_list(scratch / "grouped.xlsx", 10)
    runs_of = {"one region": [], "10 groups": []}
    params = {"one region": HEART, "10 groups": {**HEART, "GROUP_COL_INDEX": 2}}
    for round_ in range(runs + 1):
        for case, config in params.items():
            out = scratch / f"{case}-{round_}"
            figures = timed(
                lambda out=out, config=config: generate(
                    names_path=names, out_dir=out, params=config, mask_path=FIXTURES / "heart.png"
                )
            )
            if round_:  # the first round warms up
                runs_of[case].append(figures)
    medians = {
        case: tuple(statistics.median(f[k] for f in figures) for k in (0, 1))
        for case, figures in runs_of.items()
    }
    for case, (wall, cpu) in medians.items():
        print(f"heart, 3,000 names, {case}: wall {wall:.2f} s, CPU {cpu:.2f} s (median of {runs})")
    ratio = [medians["10 groups"][k] / medians["one region"][k] for k in (0, 1)]
    print(f"10 groups ÷ one region: wall {ratio[0]:.2f}×, CPU {ratio[1]:.2f}×")


def cost_of_text(runs: int) -> None:
    text = parse_params({"MASK_TEXT": "2026", "WIDTH": 2000, "HEIGHT": 2000})
    image = parse_params({"MODE": "IMAGE", "WIDTH": 2000, "HEIGHT": 2000})
    found = {"text": [], "image": []}
    for round_ in range(runs + 1):
        for case, call in (
            ("text", lambda: load_mask(None, params=text)),
            ("image", lambda: load_mask(FIXTURES / "heart.png", params=image)),
        ):
            figures = timed(call)
            if round_:
                found[case].append(figures)
    wall = {case: statistics.median(f[0] for f in figures) for case, figures in found.items()}
    print(
        f"load_mask at 2000×2000: MASK_TEXT 2026 {wall['text']:.3f} s, heart.png "
        f"{wall['image']:.3f} s, the text costs {wall['text'] - wall['image']:+.3f} s (wall, "
        f"median of {runs})"
    )


def fill(scratch: Path) -> None:
    names = grouped_list(scratch / "four.xlsx", 4)
    for text, width in (("2026", 6000), ("毕业快乐", 6000)):
        params = {"MASK_TEXT": text, "WIDTH": width, "DATA_COL_INDEX": 1, "GROUP_COL_INDEX": 2}
        metrics = generate(names_path=names, out_dir=scratch / text, params={**params, "SEED": 1})
        canvas = metrics["canvas"]
        print(
            f"MASK_TEXT {text} at {canvas['width']}×{canvas['height']}, 3,000 names in 4 groups: "
            f"{metrics['names_placed']} placed, {metrics['total_seconds']} s"
        )
        for group, figures in metrics["groups"].items():
            print(
                f"  {group} ({figures['region']}): {figures['placed']} names, box coverage "
                f"{figures['box_coverage']}, smallest {figures['font_size']['min']} px"
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-fill", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        cost_of_text(args.runs * 2)
        speed_of_groups(scratch, args.runs)
        if not args.skip_fill:
            fill(scratch)


if __name__ == "__main__":
    main()
