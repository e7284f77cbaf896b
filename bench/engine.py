"""Benchmark the word-cloud engine against the `wordcloud` package: `python bench/engine.py`.

Runs, each in its own process so time and peak memory cover the whole command:
- our engine's command line (all five files) on names_3000.xlsx / heart.png at 2000×2000,
  names_10000.xlsx / heart.png at 4000×4000, and 50,000 generated names at 8000×8000;
  the first case also once with an empty numba cache (the first run after install);
- `wordcloud.WordCloud(...).generate_from_frequencies` with equal weights, the same mask,
  font and canvas, then `to_file` (the PNG), on the first two cases.
Writes the table into the engine section of docs/benchmarks.md. Options: --skip-peer,
--only CASE (the other cases' rows stay), --slow-peer: the peer on 10,000 names too, which
takes it about 25 minutes; without it, that row stays as it was last measured.

`--against DIR [--runs N] [--cases CASE…]` instead compares this checkout's engine with
another checkout's (e.g. `git worktree add ../before SHA`, run with the same virtualenv) on
the given cases (default the 3,000- and 10,000-name ones): one warm-up pair, then N pairs
interleaved (other, this, other, this…), printing the medians and ranges of CPU, wall time
and peak memory, with coverage and font sizes; it writes nothing.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "bench" / "fixtures"
DOC = ROOT / "docs" / "benchmarks.md"
SECTION = "## Word-cloud engine (`bench/engine.py`)"
CASES = {  # name: (names file or generated count, canvas side)
    "3000": ("names_3000.xlsx", 2000),
    "10000": ("names_10000.xlsx", 4000),
    # The issue asks for 8000×8000, but the API caps the canvas at 50 megapixels, which
    # the engine enforces: 7071×7071 is the largest square it accepts (and packs the names
    # 28% tighter than 8000×8000 would).
    "50000": (50_000, 7071),
}

PEER = r"""
import json, sys
import numpy as np, openpyxl
from PIL import Image, ImageDraw, ImageFont
from wordcloud import WordCloud
names_path, mask_path, side, font, out, smallest = sys.argv[1:7]
side, smallest = int(side), int(smallest)
sheet = openpyxl.load_workbook(names_path, read_only=True).worksheets[0]
names = [str(r[1]).strip() for r in sheet.iter_rows(min_row=2, values_only=True) if r[1]]
mask = Image.open(mask_path).convert("L").resize((side, side), Image.Resampling.NEAREST)
mask = np.where(np.asarray(mask) < 240, 0, 255).astype(np.uint8)
cloud = WordCloud(width=side, height=side, mask=mask, font_path=font, margin=2,
                  prefer_horizontal=0.9, max_words=len(names), min_font_size=smallest,
                  background_color="white", random_state=1)
cloud.generate_from_frequencies({name: 1.0 for name in names})
cloud.to_file(out)
covered = np.zeros((side, side), dtype=bool)
draw = ImageDraw.Draw(Image.new("L", (1, 1)))
for (word, _), size, (x, y), orientation, _ in cloud.layout_:
    face = ImageFont.TransposedFont(ImageFont.truetype(font, size), orientation=orientation)
    _, _, width, height = draw.textbbox((0, 0), word, font=face, anchor="lt")
    covered[x:x + height, y:y + width] = True
inside = mask == 0
sizes = sorted(size for _, size, _, _, _ in cloud.layout_)
print(json.dumps({"placed": len(cloud.layout_), "names": len(names),
                  "coverage": float((covered & inside).sum() / inside.sum()),
                  "min_size": sizes[0], "median_size": sizes[len(sizes) // 2]}))
"""


def measured(command, env=None, cwd=ROOT):
    """Run ``command`` in ``cwd``; return (wall seconds, CPU seconds, peak resident MB,
    stdout)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    out, err = process.stdout.read().decode(), process.stderr.read().decode()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(map(str, command))} failed:\n{err}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def generated_names(path: Path, count: int) -> Path:
    """An .xlsx of ``count`` random Chinese names (1-char surname, 1–2-char given name) in
    column 2 under a header, like the fixtures."""
    import openpyxl

    surnames = "王李张刘陈杨黄赵周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢"
    given = "伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚桂英华玉兰萍红建文辉力鹏飞俊峰斌志宇浩凯健鑫亮晨博欣怡佳琪雪梅婷"
    rng = random.Random(50_000)
    workbook = openpyxl.Workbook(write_only=True)
    sheet = workbook.create_sheet()
    sheet.append(["序号", "姓名"])
    for number in range(1, count + 1):
        name = rng.choice(surnames) + "".join(rng.choices(given, k=rng.choice((1, 2, 2))))
        sheet.append([number, name])
    workbook.save(path)
    return path


def run_engine(names, side, out, env=None, checkout=ROOT):
    params = {"DATA_COL_INDEX": 1, "SEED": 1, "WIDTH": side, "HEIGHT": side}
    command = [
        sys.executable,
        "-m",
        "wordclouds.engine",
        str(names),
        "--mask",
        str(FIXTURES / "heart.png"),
        "--params",
        json.dumps(params),
        "--out",
        str(out),
    ]
    seconds, cpu, memory, _ = measured(command, env, cwd=checkout)
    metrics = json.loads((out / "metrics.json").read_text())
    return {
        "seconds": seconds,
        "cpu": cpu,
        "memory": memory,
        "placed": metrics["names_placed"],
        "names": metrics["names_read"],
        "coverage": metrics["box_coverage"],
        "min_size": metrics["font_size"]["min"],
        "median_size": metrics["font_size"]["median"],
    }, command


def row(case, engine, result, ours=None):
    speed_up = (
        f"{result['seconds'] / ours['seconds']:.0f}× (CPU {result['cpu'] / ours['cpu']:.0f}×)"
        if ours
        else ""
    )
    return (
        f"| {case} | {engine} | {result['seconds']:.2f} s | {result['cpu']:.2f} s | "
        f"{result['memory']:.0f} MB | "
        f"{result['placed']:,} / {result['names']:,} | {result['coverage']:.3f} | "
        f"{result['min_size']:g} | {result['median_size']:g} | {speed_up} |"
    )


def compare(other: Path, runs: int, cases):
    """Print CPU, wall and peak-memory medians (ranges) of ``other``'s engine and this one's,
    interleaved, with box coverage and the smallest font."""
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            source, side = CASES[case]
            names = (
                FIXTURES / source
                if isinstance(source, str)
                else generated_names(Path(folder) / "names_50000.xlsx", source)
            )
            times = {other: [], ROOT: []}
            for run in range(runs + 1):
                for checkout in times:
                    result, _ = run_engine(
                        names, side, Path(folder) / f"{case}-{run}", checkout=checkout
                    )
                    if run:  # the first pair warms the page cache (and numba's) and is dropped
                        times[checkout].append(result)
            figures = []
            for checkout, results in times.items():
                cpu, wall, memory = (
                    sorted(r[key] for r in results) for key in ("cpu", "seconds", "memory")
                )
                figures.append(cpu[len(cpu) // 2])
                print(
                    f"{case} names, {side}×{side}, {checkout}: CPU {cpu[len(cpu) // 2]:.2f} s "
                    f"({cpu[0]:.2f}–{cpu[-1]:.2f}), wall {wall[len(wall) // 2]:.2f} s "
                    f"({wall[0]:.2f}–{wall[-1]:.2f}), peak {memory[len(memory) // 2]:.0f} MB, "
                    f"placed {results[0]['placed']:,} / {results[0]['names']:,}, "
                    f"box coverage {results[0]['coverage']:.3f}, "
                    f"font {results[0]['min_size']:g}–median {results[0]['median_size']:g} px",
                    flush=True,
                )
            print(f"{case} names: CPU change {figures[1] / figures[0] - 1:+.1%}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-peer", action="store_true")
    parser.add_argument("--slow-peer", action="store_true", help="the peer on 10,000 names too")
    parser.add_argument("--only", choices=list(CASES))
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--cases", nargs="+", choices=list(CASES), default=["3000", "10000"], help="with --against"
    )
    args = parser.parse_args()
    if args.against:
        return compare(args.against.resolve(), args.runs, args.cases)
    font = subprocess.run(
        [
            sys.executable,
            "-c",
            "from wordclouds.engine import default_font_path; print(default_font_path())",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    rows, commands = [], []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        # Unmeasured: fills numba's cache, which a fresh clone does not have yet.
        run_engine(FIXTURES / CASES["3000"][0], CASES["3000"][1], folder / "warm-up")
        for case, (source, side) in CASES.items():
            if args.only and case != args.only:
                continue
            names = (
                FIXTURES / source
                if isinstance(source, str)
                else generated_names(folder / "names_50000.xlsx", source)
            )
            label = f"{case} names, {side}×{side}"
            if case == "3000":
                cold_env = dict(os.environ, NUMBA_CACHE_DIR=str(folder / "numba-cold"))
                cold, _ = run_engine(names, side, folder / "cold", cold_env)
                rows.append(row(label, "ours, empty numba cache", cold))
            ours, command = run_engine(names, side, folder / case)
            rows.append(row(label, "ours", ours))
            commands.append(
                " ".join(str(c) if " " not in str(c) else f"'{c}'" for c in command)
                .replace(str(ROOT) + "/", "")
                .replace(str(folder), "$TMP")
            )
            if not args.skip_peer and (case == "3000" or case == "10000" and args.slow_peer):
                # Its default smallest size (4 px), and on the first case also 8 px, ours.
                for smallest in (4, 8) if case == "3000" else (4,):
                    seconds, cpu, memory, out = measured(
                        [
                            sys.executable,
                            "-c",
                            PEER,
                            str(names),
                            str(FIXTURES / "heart.png"),
                            str(side),
                            font,
                            str(folder / f"peer-{case}.png"),
                            str(smallest),
                        ]
                    )
                    peer = dict(json.loads(out), seconds=seconds, cpu=cpu, memory=memory)
                    rows.append(
                        row(label, f"wordcloud 1.9.6, min_font_size={smallest}", peer, ours)
                    )
            print(*rows[-4:], sep="\n", flush=True)
    write_section(rows, commands)


def write_section(rows, commands):
    """Write the section, keeping the rows of cases and engines not run this time (``--only``,
    no ``--slow-peer``)."""
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(SECTION) + r".*?(?=\n## |\Z)", re.S)
    found = pattern.search(text)
    run = {tuple(r.split(" | ")[:2]) for r in rows}
    kept = [
        line
        for line in (found.group(0).splitlines() if found else [])
        if line.startswith("| ") and " names, " in line and tuple(line.split(" | ")[:2]) not in run
    ]
    order = [f"| {case} names" for case in CASES]
    rows = sorted(
        rows + kept,
        key=lambda line: next(
            (i for i, prefix in enumerate(order) if line.startswith(prefix)), len(order)
        ),
    )
    table = "\n".join(
        [
            "| case | engine | wall time | CPU time | peak memory | names placed "
            "| box coverage | smallest font px | median font px | our speed-up |",
            "|---|---|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    body = f"""{SECTION}

Command: `.venv/bin/python bench/engine.py` (after `pip install -r requirements-bench.txt`;
`make bench` does both). Each case runs in its own process, so wall time, CPU time (user +
system) and peak memory (max RSS) are those of the whole command. Ours is the engine's
command line writing all five files, e.g.
`{commands[0] if commands else ""}`;
the peer is `WordCloud(width, height, mask, font_path, margin=2, prefer_horizontal=0.9,
max_words=all, min_font_size=4 (its default) or 8 (ours), random_state=1)
.generate_from_frequencies` with weight 1 for every name, then `to_file`, on the same mask,
font file and canvas. Machine: 2 cores, shared with other test runs at the time, so wall
time is up to twice the CPU time. Last run on
{time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())} (`--only` re-measures one case and
keeps the other rows; the peer's 10,000-name row, about 25 minutes, is re-measured only with
`--slow-peer`). "Our speed-up" is the peer's time ÷ ours on the same case, in the run that
measured the peer.

{table}

- Box coverage is the union of the word boxes inside the mask ÷ the mask's area. Ours are the
  `box_*` of positions.db (the characters' em boxes joined with the ink box; the tight ink
  boxes alone cover about 0.08 less, see `ink_box_coverage` in metrics.json); the peer's are
  the `textbbox` boxes it places words by (taller than the ink). At its default smallest size
  the peer fits every name, but by shrinking them to 4–6 px; held to 8 px it leaves most
  names out.
- The 50,000-name case is 7071×7071, not 8000×8000: the API caps the canvas at 50
  megapixels and the engine enforces it; 7071² is the largest square allowed and packs the
  names 28% more tightly than 8000² would.
- "Empty numba cache" is the first run after installing or changing the engine: the hot loops
  are compiled then and cached (`cache=True`) for every later run.
- Hot loops are numba, not numpy. The spot search walks run lengths with data-dependent jumps
  and early exits, and every placement changes the grid the next search reads, so it is a
  sequential loop numpy cannot express without recomputing whole-canvas arrays per word (which
  is what makes `wordcloud` slow: a new integral image of the whole canvas for every word).
  Rasterising a word and writing its path text are small loops over a few hundred edges,
  where numpy's per-call overhead would dominate. numpy still does the whole-array work
  (mask thresholds, coverage union, colour means).
- Importing numba and loading its cached compiled code costs about half a second of CPU in
  every run (numpy 0.1 s, numba 0.25 s, its NumPy support 0.1 s, the first cached function
  0.14 s); the engine hides SciPy's BLAS from numba's probe, which cost 0.3 s more
  (`wordclouds/engine/compiled.py`).
"""
    text = (
        pattern.sub(lambda _: body.rstrip("\n") + "\n", text)
        if found
        else text.rstrip("\n") + "\n\n" + body
    )
    DOC.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
