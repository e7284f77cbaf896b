"""Stored files that belong to a row (fonts, assets), kept in step with their rows.

An upload is first written to this process's scratch folder (hashed, its type sniffed, checked),
then stored under its key (wordclouds/storage.py), then the row is created; when the row fails
the stored file is removed. A row is deleted before its file, which goes only once the
deletion has committed. A crash between the two steps leaves at most a file without a row,
which `manage.py sweep_orphans` removes.
"""

import hashlib
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import ParseError

import defusedxml.ElementTree as safe_xml
from defusedxml import DefusedXmlException

from wordclouds import storage

CHUNK = 1024 * 1024

# Leading bytes -> (content type, extension); WebP is RIFF....WEBP and checked apart.
MAGIC = [
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
    (b"GIF87a", "image/gif", ".gif"),
    (b"GIF89a", "image/gif", ".gif"),
    (b"SQLite format 3\x00", "application/vnd.sqlite3", ".db"),
]
OCTET_STREAM = ("application/octet-stream", ".bin")
# Every content type sniff_content_type answers, as the asset download declares them.
SNIFFED_CONTENT_TYPES = (
    *dict.fromkeys(entry[1] for entry in MAGIC),
    "image/webp",
    "image/svg+xml",
    "application/json",
    OCTET_STREAM[0],
)


@dataclass(frozen=True)
class StoredFile:
    relative: str  # the storage key, as kept in the row (fonts/<id>.ttf, assets/<id>.png)
    size: int
    sha256: str
    content_type: str
    local: Path  # the scratch copy it was stored from, while the upload is handled


def sniff_content_type(path: Path) -> tuple[str, str]:
    """(content type, extension) judged from the file's content, never from its name."""
    with path.open("rb") as stream:
        head = stream.read(64)
    for magic, content_type, extension in MAGIC:
        if head.startswith(magic):
            return content_type, extension
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp", ".webp"
    text_start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if text_start == b"<" and _xml_root_name(path) == "svg":
        return "image/svg+xml", ".svg"
    if text_start in (b"{", b"[") and _is_json(path):
        return "application/json", ".json"
    return OCTET_STREAM


def _xml_root_name(path: Path) -> str:
    """Local name of the document's root element; '' unless the whole document is
    well-formed XML (entities and external references are refused)."""
    root = ""
    try:
        for _, element in safe_xml.iterparse(str(path), events=("start",)):
            root = root or element.tag.rpartition("}")[2]
            element.clear()
    except (ParseError, DefusedXmlException, ValueError):
        return ""
    return root


def _is_json(path: Path) -> bool:
    try:
        with path.open("rb") as stream:
            json.load(stream)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return True


@contextmanager
def stored_file(
    *, chunks: Iterable[bytes], folder: str, stem: str, extension=None, check=None
) -> Iterator[StoredFile]:
    """Write `chunks` to a scratch file, call `check(path)` on it (which may refuse it), store
    it under `<folder>/<stem><extension>` (without `extension`, the sniffed content type's),
    and yield it while its row is made: when that fails, the stored file goes."""
    with storage.scratch_dir("upload-") as work:
        local = work / f"{stem}{extension or ''}"
        digest, size = hashlib.sha256(), 0
        with local.open("wb") as out:
            for chunk in chunks:
                digest.update(chunk)
                size += len(chunk)
                out.write(chunk)
        content_type, sniffed_extension = sniff_content_type(local)
        if check is not None:
            check(local)
        key = f"{folder}/{stem}{extension or sniffed_extension}"
        storage.save(key, local)
        stored = StoredFile(
            relative=key,
            size=size,
            sha256=digest.hexdigest(),
            content_type=content_type,
            local=local,
        )
        try:
            yield stored
        except BaseException:
            storage.delete([key])
            raise


def file_chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as stream:
        while chunk := stream.read(CHUNK):
            yield chunk


def remove_after_commit(relative: str) -> None:
    """The row is gone in this transaction; its file goes once that is final."""
    storage.delete_after_commit(relative)
