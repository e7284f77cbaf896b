"""Writing a run's or a revision's files: each under a temporary name, renamed once
complete, so a reader never sees half a file."""

import json
import os
from contextlib import contextmanager
from pathlib import Path

ARTIFACTS = {
    "png": "wordcloud.png",
    "svg": "wordcloud.svg",
    "svg_stroke": "wordcloud-stroke.svg",
    "db": "positions.db",
    "metrics": "metrics.json",
}


@contextmanager
def atomic(path: Path, mode: str = "wb"):
    """A file written as ``<name>.part`` and renamed to ``path`` once complete (removed if
    writing fails)."""
    partial = path.with_name(path.name + ".part")
    try:
        with open(partial, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as file:
            yield file
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, path)


def write_database(out_dir: Path, write) -> None:
    """positions.db in ``out_dir``, written by ``write(path)`` to a fresh path (a SQLite
    file is written by name, not through an open file) and renamed once complete."""
    partial = out_dir / (ARTIFACTS["db"] + ".part")
    partial.unlink(missing_ok=True)
    write(partial)
    os.replace(partial, out_dir / ARTIFACTS["db"])


def write_metrics(out_dir: Path, metrics: dict, report) -> None:
    """metrics.json in ``out_dir``: ``metrics`` with the stage times of the ``report``
    (progress.Progress) finished, as ``metrics`` itself then holds them."""
    report.finish("done")
    metrics["stage_seconds"] = report.seconds
    metrics["total_seconds"] = round(sum(report.seconds.values()), 3)
    with atomic(out_dir / ARTIFACTS["metrics"]) as file:
        file.write(json.dumps(metrics, ensure_ascii=False, indent=2).encode())
