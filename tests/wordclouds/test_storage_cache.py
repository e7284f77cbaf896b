"""The cache of stored files a process read (SCRATCH_ROOT/cache, with S3) stays under its size:
the files read longest ago go first, a file read within the grace time stays."""

import os
import time

from wordclouds.storage import cache_trim

KB = 1024


def cached(folder, key: str, size: int, read_seconds_ago: float):
    path = folder / key
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    read_at = time.time() - read_seconds_ago
    os.utime(path, (read_at, read_at))
    return path


def test_the_files_read_longest_ago_go_until_the_cache_is_under_nine_tenths(tmp_path):
    oldest = cached(tmp_path, "jobs/a/positions.db", 40 * KB, 3600)
    older = cached(tmp_path, "fonts/b.ttf", 40 * KB, 1800)
    recent = cached(tmp_path, "assets/c.png", 40 * KB, 600)

    removed = cache_trim(tmp_path, max_bytes=100 * KB, grace_seconds=60)

    assert removed == [oldest]  # 120 KB over 100: down to 80, under 90
    assert not oldest.exists() and older.is_file() and recent.is_file()

    newest = cached(tmp_path, "jobs/d/positions.db", 60 * KB, 0)
    assert cache_trim(tmp_path, max_bytes=100 * KB, grace_seconds=60) == [older, recent]
    assert newest.is_file()


def test_a_cache_under_its_size_is_left_alone(tmp_path):
    files = [cached(tmp_path, f"fonts/{n}.ttf", 10 * KB, 3600) for n in range(5)]

    assert cache_trim(tmp_path, max_bytes=100 * KB, grace_seconds=60) == []
    assert all(path.is_file() for path in files)


def test_files_read_within_the_grace_time_stay_whatever_the_size(tmp_path):
    old = cached(tmp_path, "fonts/old.ttf", 60 * KB, 3600)
    just_read = cached(tmp_path, "jobs/j/positions.db", 60 * KB, 5)
    being_fetched = cached(tmp_path, "fonts/.new.ttf.1a2b3c4d", 60 * KB, 3600)

    assert cache_trim(tmp_path, max_bytes=50 * KB, grace_seconds=60) == [old]
    assert just_read.is_file() and being_fetched.is_file()
