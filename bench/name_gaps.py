"""The name-gap and neighbour-colour rules over many seeds: `python bench/name_gaps.py`.

For each case and SEED 1..20 (or --seeds A B): one engine run, measured from the outlines in
its wordcloud.svg by tests/engine/name_gap_rule.py (the same measurement as the tests):
reading-direction neighbour pairs, pairs closer than NAME_GAP em of the smaller, pairs of one
colour, pairs of similar size (within 1.5×) whose colours read as one (CIEDE2000 under 15,
or under 10 seen with deuteranopia) and the least CIEDE2000 of such a pair (normal,
deuteranopia), the metrics' least_neighbour_difference, names placed, box coverage and the
run's seconds. Cases:
- heart: names_3000.xlsx (DATA_COL_INDEX 1) in heart.png at 2000×2000, the benchmark case;
- latin300: 300 Latin names (First Last) at 1600×1000, no mask;
- latin3000: 3,000 Latin names at 2000×2000, no mask.
Prints one line per run and a summary per case; --only CASE runs one; --show N prints the
first N findings of each run.
"""

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.engine.name_gap_rule import measure  # noqa: E402
from tests.names import latin_names, write_names  # noqa: E402
from wordclouds.engine import generate  # noqa: E402

FIXTURES = ROOT / "bench" / "fixtures"
GAP = 0.3  # NAME_GAP's default


def cases(scratch: Path) -> dict:
    """Case name: (names file, mask or None, params)."""
    return {
        "heart": (
            FIXTURES / "names_3000.xlsx",
            FIXTURES / "heart.png",
            {"MODE": "IMAGE", "DATA_COL_INDEX": 1, "WIDTH": 2000, "HEIGHT": 2000},
        ),
        "latin300": (
            write_names(scratch / "latin300.xlsx", latin_names(300, seed=300)),
            None,
            {"WIDTH": 1600, "HEIGHT": 1000},
        ),
        "latin3000": (
            write_names(scratch / "latin3000.xlsx", latin_names(3000, seed=3000)),
            None,
            {"WIDTH": 2000, "HEIGHT": 2000},
        ),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", nargs=2, type=int, default=(1, 20))
    parser.add_argument("--only", choices=("heart", "latin300", "latin3000"))
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        for case, (names, mask, params) in cases(scratch).items():
            if args.only and case != args.only:
                continue
            totals = {"runs": 0, "pairs": 0, "close": 0, "same": 0, "alike": 0, "unplaced": 0}
            coverage, least = [], [(float("inf"), float("inf"))]
            for seed in range(args.seeds[0], args.seeds[1] + 1):
                out = scratch / f"{case}-{seed}"
                metrics = generate(
                    names_path=names, out_dir=out, params={**params, "SEED": seed}, mask_path=mask
                )
                found = measure(out, GAP)
                unplaced = metrics["names_read"] - metrics["names_placed"]
                print(
                    f"{case} seed {seed}: {found.pairs} pairs, {len(found.close)} closer than "
                    f"{GAP} em, {len(found.same_color)} of one colour, {len(found.alike)} "
                    f"similar-size alike, least ΔE00 {found.least[0]:.1f} (deuteranopia "
                    f"{found.least[1]:.1f}), metrics {metrics.get('least_neighbour_difference')}, "
                    f"{unplaced} not placed, box coverage {metrics['box_coverage']}, "
                    f"{metrics['total_seconds']} s",
                    flush=True,
                )
                for finding in (found.close + found.same_color)[: args.show]:
                    print("   ", finding)
                totals["runs"] += 1
                totals["pairs"] += found.pairs
                totals["close"] += len(found.close)
                totals["same"] += len(found.same_color)
                totals["alike"] += len(found.alike)
                least.append(found.least)
                totals["unplaced"] += unplaced
                coverage.append(metrics["box_coverage"])
            print(
                f"{case}: {totals['runs']} seeds, {totals['pairs']} pairs, {totals['close']} "
                f"closer than {GAP} em, {totals['same']} of one colour, {totals['alike']} "
                f"similar-size alike, least ΔE00 {min(n for n, _ in least):.1f} (deuteranopia "
                f"{min(d for _, d in least):.1f}), {totals['unplaced']} names not placed, box "
                f"coverage {min(coverage)}–{max(coverage)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
