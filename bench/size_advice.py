"""Time the size advice on 50,000 names (issue 31: under a second, without laying out):
`python bench/size_advice.py [--runs N] [--names chinese|mixed|kana] [--against DIR]`.

50,000 generated Chinese names (bench/engine.py's generator, the engine benchmark's 50,000
case; `--names mixed`: tests/names.py's sample_names, 50,000 distinct Latin and Chinese names
with numbers, "Anna 17", "李雷 18"; `--names kana`: 50,000 distinct Japanese names, a kanji
surname and a given name in hiragana) in the heart at 7071×7071, MIN_NAME_PT 6, on the bundled font, measured two ways, each
N times (after one warm-up), reporting the median and the range:
- `POST /api/jobs/size-advice` in-process through Django's test client (a throw-away
  database and media folder): the upload, the inputs' checks and the advice, each in its
  forked child as the web process runs them;
- `engine.print_size_advice` alone: reading the list, the mask and the font, and the estimate.

With `--against DIR` (another checkout, e.g. `git worktree add ../before SHA`, run with the
same virtualenv) the same measurements are taken in that checkout too, in its own process, the
two interleaved run by run, and the two answers' expected smallest names compared. It writes
nothing; the figures are in docs/benchmarks.md, "Printed size".
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARAMS = {"DATA_COL_INDEX": 1, "WIDTH": 7071, "HEIGHT": 7071, "MIN_NAME_PT": 6}
COUNT = 50_000


def measure(root: Path, names: Path, runs: int) -> dict:
    """The timings (seconds) of the endpoint and of the engine in the checkout ``root``, and
    the advice the endpoint gave: run in a process of its own for that checkout."""
    sys.path.insert(0, str(root))
    from bench.render import setup_django

    folder = Path(tempfile.mkdtemp(prefix="size-advice-bench-"))
    setup_django(folder)
    from django.test import Client

    from wordclouds.engine import print_size_advice

    mask = root / "bench" / "fixtures" / "heart.png"
    client = Client()

    def endpoint():
        with open(names, "rb") as name_list, open(mask, "rb") as mask_image:
            answer = client.post(
                "/api/jobs/size-advice",
                {"name_list": name_list, "mask_image": mask_image, "params": json.dumps(PARAMS)},
            )
        assert answer.status_code == 200, answer.content
        return answer.json()

    def engine():
        return print_size_advice(names_path=names, params=PARAMS, mask_path=mask)

    advice = endpoint()  # the warm-up
    engine()
    timings = {"endpoint": [], "engine": []}
    for _ in range(runs):
        for label, call in (("endpoint", endpoint), ("engine", engine)):
            started = time.perf_counter()
            call()
            timings[label].append(time.perf_counter() - started)
    return {"timings": timings, "advice": advice}


def names_file(path: Path, kind: str) -> Path:
    """The 50,000-name list: generated Chinese names in column B under a header, or distinct
    mixed or Japanese names put there too."""
    from bench.engine import generated_names
    from tests.names import sample_names, write_names

    if kind == "chinese":
        return generated_names(path, COUNT)
    names = sample_names(COUNT) if kind == "mixed" else kana_names()
    return write_names(path, names, column=PARAMS["DATA_COL_INDEX"])


def kana_names() -> list[str]:
    """COUNT distinct Japanese names: a kanji surname, a space, two to four hiragana."""
    surnames = (
        "佐藤 鈴木 高橋 田中 伊藤 渡辺 山本 中村 小林 加藤 吉田 山田 佐々木 山口 松本".split()
    )
    hiragana = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわんがぎぐげごゃゅょっ"
    rng = random.Random(COUNT)
    names = {}
    while len(names) < COUNT:
        given = "".join(rng.choices(hiragana, k=rng.choice((2, 3, 4))))
        names[f"{rng.choice(surnames)} {given}"] = None
    return list(names)


def measured_in(root: Path, names: Path, runs: int) -> dict:
    """measure() in a new process of this interpreter, for the checkout ``root``."""
    command = [sys.executable, __file__, "--measure", str(root), str(names), str(runs)]
    output = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if output.returncode:
        raise SystemExit(f"measuring in {root} failed:\n{output.stderr[-3000:]}")
    return json.loads(output.stdout.strip().splitlines()[-1])


def summary(seconds: list[float]) -> str:
    """The median and the range of ``seconds``."""
    return f"median {statistics.median(seconds):.3f} s ({min(seconds):.3f}–{max(seconds):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--names", choices=("chinese", "mixed", "kana"), default="chinese")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--measure", nargs=3, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.measure:
        root, names, runs = arguments.measure
        print(json.dumps(measure(Path(root), Path(names), int(runs))))
        return
    with tempfile.TemporaryDirectory() as folder:
        names = names_file(Path(folder) / "names_50000.xlsx", arguments.names)
        checkouts = {"this checkout": ROOT}
        if arguments.against:
            checkouts = {"other checkout": arguments.against.resolve(), **checkouts}
        results = {label: {"endpoint": [], "engine": []} for label in checkouts}
        advice = {}
        for _ in range(arguments.runs):  # the checkouts interleaved, one run each at a time
            for label, root in checkouts.items():
                result = measured_in(root, names, 1)
                for kind, seconds in result["timings"].items():
                    results[label][kind] += seconds
                advice[label] = result["advice"]
    for label, timings in results.items():
        smallest = advice[label]["smallest"]
        expected = {s["name"]: s["expected_smallest_name_pt"] for s in advice[label]["sizes"]}
        print(f"{label}: {COUNT:,} {arguments.names} names, heart 7071×7071, MIN_NAME_PT 6")
        print(f"  POST /api/jobs/size-advice  {summary(timings['endpoint'])}")
        print(f"  engine.print_size_advice    {summary(timings['engine'])}")
        print(f"  smallest that fits: {smallest and smallest['name']}; expected pt: {expected}")
    if len(advice) == 2:
        before, after = (
            [s["expected_smallest_name_pt"] for s in answer["sizes"]] for answer in advice.values()
        )
        differences = [abs(b - a) / b for a, b in zip(after, before) if b]
        print(f"largest relative difference of the expected pt: {max(differences):.2%}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
