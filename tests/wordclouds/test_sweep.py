import os

import pytest
from django.core.management import call_command

from tests.wordclouds.asset_factories import asset_id, png_bytes

pytestmark = pytest.mark.django_db


def orphan(media_root, relative: str, age: float = 7200):
    path = media_root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"left behind by a crash")
    os.utime(path, (path.stat().st_atime - age, path.stat().st_mtime - age))
    return path


def test_removes_old_files_without_rows_and_keeps_the_rest(api, media_root, capsys):
    kept = media_root / "assets" / f"{asset_id(api, png_bytes())}.png"
    os.utime(kept, (0, 0))
    asset_orphan = orphan(media_root, "assets/0123456789abcdef0123456789abcdef.png")
    font_orphan = orphan(media_root, "fonts/0123456789abcdef0123456789abcdef.ttf")
    temporary = orphan(media_root, "assets/.tmp-feedface-1234abcd")
    young = orphan(media_root, "assets/fedcba9876543210fedcba9876543210.png", age=0)

    call_command("sweep_orphans")

    assert kept.exists()
    assert young.exists()  # its row may be about to commit
    assert not asset_orphan.exists()
    assert not font_orphan.exists()
    assert not temporary.exists()
    assert "3 orphan file(s)" in capsys.readouterr().out


def test_min_age_zero_and_dry_run(media_root, capsys):
    young = orphan(media_root, "assets/fedcba9876543210fedcba9876543210.png", age=0)

    call_command("sweep_orphans", "--min-age", "0", "--dry-run")
    assert young.exists()
    call_command("sweep_orphans", "--min-age", "0")

    assert not young.exists()
    assert "would remove assets/" in capsys.readouterr().out


def test_nothing_to_sweep_without_folders(media_root, capsys):
    call_command("sweep_orphans")

    assert "0 orphan file(s)" in capsys.readouterr().out
