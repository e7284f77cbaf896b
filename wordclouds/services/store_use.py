"""What the store holds, by kind, for the admin's page of the store's use (docs/deploy.md,
"Retention"): job inputs, job artifacts (everything the worker wrote for a job: the poster's
files, its tiles), assets, fonts, and any other key (commerce's production files, for one)."""

from wordclouds import storage
from wordclouds.selectors import JOBS
from wordclouds.services.assets import FOLDER as ASSETS
from wordclouds.services.backups import stored_keys
from wordclouds.services.fonts import FOLDER as FONTS
from wordclouds.services.jobs import INPUT_FOLDER

KINDS = ("inputs", "artifacts", "assets", "fonts", "other")


def key_kind(key: str) -> str:
    """The kind of a stored key, one of KINDS."""
    top, _, rest = key.partition("/")
    if top == JOBS:
        return "inputs" if rest.split("/")[1:2] == [INPUT_FOLDER] else "artifacts"
    return {ASSETS: "assets", FONTS: "fonts"}.get(top, "other")


def store_use() -> dict[str, dict[str, int]]:
    """{kind: {"files": count, "bytes": total}} for every kind of KINDS, in that order (0 for
    a kind with no file). One listing of the store and one size asked per key; a key
    deleted meanwhile is not counted."""
    files = storage.files(worker=True)
    use = {kind: {"files": 0, "bytes": 0} for kind in KINDS}
    for key in stored_keys():
        try:
            with storage.answers("size"):
                size = files.size(key)
        except FileNotFoundError:
            continue
        kind = use[key_kind(key)]
        kind["files"] += 1
        kind["bytes"] += size
    return use
