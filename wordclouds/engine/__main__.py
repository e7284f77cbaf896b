"""Command line: ``python -m wordclouds.engine NAMES.xlsx [--mask M] [--font F]
[--params JSON|@file] --out DIR``."""

import argparse
import gc
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from .errors import InputError, LayoutError
from .generate import generate


def _params(text: str) -> dict:
    if text.startswith("@"):
        text = Path(text[1:]).read_text(encoding="utf-8")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError("params must be valid JSON") from error
    if not isinstance(value, dict):
        raise InputError("params must be JSON object")
    return value


def _progress_bar():
    """A tqdm bar on a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        return None, lambda: None
    from tqdm import tqdm

    bar = tqdm(total=100, unit="%", file=sys.stderr, bar_format="{l_bar}{bar}| {elapsed}")

    def update(stage, percent, message):
        bar.set_description_str(f"{stage}: {message}"[:60])
        bar.update(percent - bar.n)

    return update, bar.close


@contextmanager
def _no_cycle_collection():
    """Python's cycle collector paused (and restored as it was after): a run leaves little
    cyclic garbage, while each full pass re-scans numba's and the engine's long-lived
    objects, 0.17 s of CPU on 3,000 names and 1.4 s on 50,000, with the same peak memory
    without it (docs/benchmarks.md)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def main(argv=None) -> int:
    """Run the engine from the command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m wordclouds.engine", description="Make a word cloud of every name in a list."
    )
    parser.add_argument("names", help=".xlsx file with the names")
    parser.add_argument("--mask", help="PNG or JPEG shape (with MODE IMAGE, the default here)")
    parser.add_argument("--font", help=".ttf, .otf or .ttc font (default: Noto Sans CJK)")
    parser.add_argument("--params", default="{}", help="params as JSON, or @file holding it")
    parser.add_argument("--out", required=True, help="directory for the five files")
    args = parser.parse_args(argv)
    update, close = _progress_bar()
    try:
        params = _params(args.params)
        if args.mask:
            params.setdefault("MODE", "IMAGE")
        with _no_cycle_collection():
            metrics = generate(
                names_path=args.names,
                out_dir=args.out,
                params=params,
                mask_path=args.mask,
                font_path=args.font,
                progress=update,
            )
    except (InputError, LayoutError, OSError) as error:
        close()
        print(f"error: {error}", file=sys.stderr)
        return 2
    close()
    print(
        f"placed {metrics['names_placed']} of {metrics['names_read']} names "
        f"({metrics['placements']} words) in {metrics['total_seconds']} s -> {args.out}"
    )
    return 0


def _exit(status: int) -> NoReturn:
    """Exit with ``status``, every object moved out of the cycle collector's reach first
    (``gc.freeze``): the interpreter's collections at exit re-scanned numba's and the engine's
    many long-lived objects, 0.1–0.2 s of CPU after a 3,000-name run, to free memory the
    system takes back anyway. Files are closed by then, and exit handlers still run."""
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    _exit(main())
