"""A revision against a full layout: `python bench/revisions.py [--only 10000|50000] [--runs N]`.

For each case, the parent is laid out once (the heart at the benchmark's canvas, seed 1,
its time the "full layout"), then revised N times (default 3) by the issue's edit mix: 20
names added, 20 removed, 20 renamed, 5 moved (ids and spots from a fixed generator); the
revision's engine time (`metrics.json`'s total), wall time and stage times are their
medians. Also prints the words displaced against the words the edits named. Cases:
names_10000.xlsx at 4000×4000 and 50,000 generated names at 7071×7071 (as bench/engine.py).
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.engine import FIXTURES, generated_names  # noqa: E402
from wordclouds.engine import generate, revise  # noqa: E402
from wordclouds.engine.positions import read_meta  # noqa: E402

CASES = {"10000": (FIXTURES / "names_10000.xlsx", 4000), "50000": (50_000, 7071)}


def edits_for(parent: Path) -> dict:
    """20 added, 20 removed, 20 renamed, 5 moved by a short distance (fixed generator)."""
    import sqlite3

    with sqlite3.connect(parent / "positions.db") as connection:
        words = list(connection.execute("SELECT id, name, x, y FROM words ORDER BY id"))
    rng = random.Random(30)
    chosen = rng.sample(words, 45)
    return {
        "add": [f"新同学{k}" for k in range(20)],
        "remove": [word[0] for word in chosen[:20]],
        "rename": [{"id": word[0], "name": word[1] + "明"} for word in chosen[20:40]],
        "move": [
            {
                "id": word[0],
                "x": round(word[2] + rng.uniform(-20, 20), 1),
                "y": round(word[3] + rng.uniform(-20, 20), 1),
            }  # fmt: skip
            for word in chosen[40:45]
        ],
    }


def _medians(stages: list[dict]) -> dict:
    """Each stage's median seconds over the runs."""
    return {stage: round(statistics.median(s[stage] for s in stages), 3) for stage in stages[0]}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", choices=list(CASES))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    mask = FIXTURES / "heart.png"
    for case, (source, side) in CASES.items():
        if args.only and case != args.only:
            continue
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            names = (
                source if isinstance(source, Path) else generated_names(folder / "n.xlsx", source)
            )
            params = {"DATA_COL_INDEX": 1, "SEED": 1, "WIDTH": side, "HEIGHT": side}
            started = time.perf_counter()
            layout = generate(
                names_path=names, out_dir=folder / "parent", params=params, mask_path=mask
            )
            full = time.perf_counter() - started
            edits = edits_for(folder / "parent")
            engine, wall, displaced, stages = [], [], [], []
            for run in range(args.runs):
                started = time.perf_counter()
                metrics = revise(
                    parent_dir=folder / "parent",
                    out_dir=folder / f"r{run}",
                    edits=edits,
                    mask_path=mask,
                )
                wall.append(time.perf_counter() - started)
                engine.append(metrics["total_seconds"])
                stages.append(metrics["stage_seconds"])
                displaced.append(len(metrics["changes"]["displaced"]))
            named = (
                len(edits["add"]) + len(edits["remove"]) + len(edits["rename"]) + len(edits["move"])
            )
            print(
                f"{case} names at {side}²: full layout {full:.2f} s (engine {layout['total_seconds']} s); "
                f"revision engine {statistics.median(engine):.2f} s "
                f"({min(engine):.2f}–{max(engine):.2f}), wall {statistics.median(wall):.2f} s, "
                f"{statistics.median(engine) / layout['total_seconds']:.0%} of the layout; "
                f"displaced {statistics.median(displaced):g} for {named} named words; "
                f"stages (medians) {_medians(stages)}; seed {read_meta(folder / 'parent' / 'positions.db')['seed']}"
            )


if __name__ == "__main__":
    main()
