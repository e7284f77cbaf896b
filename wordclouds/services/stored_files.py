"""Files under MEDIA_ROOT that belong to a row (fonts, assets), kept in step with their rows.

The file is written first under a temporary name, then renamed into place, then the row is
created; when the row fails the file is removed. A row is deleted before its file, which goes
only once the deletion has committed. A crash between the two steps leaves at most a file
without a row, which `manage.py sweep_orphans` removes.
"""

import hashlib
import json
import os
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import ParseError

import defusedxml.ElementTree as safe_xml
from defusedxml import DefusedXmlException
from django.conf import settings
from django.db import transaction

from core.errors import TooLarge

TEMP_PREFIX = ".tmp-"
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
    relative: str  # path relative to MEDIA_ROOT, as kept in the row
    size: int
    sha256: str
    content_type: str

    @property
    def path(self) -> Path:
        return media_path(self.relative)


def media_path(relative: str) -> Path:
    return Path(settings.MEDIA_ROOT) / relative


def upload_size_check(upload, *, field: str, limit: int) -> None:
    """413 naming the form field when an upload is over its limit (bytes)."""
    if upload.size > limit:
        raise TooLarge(f"{field} exceeds {limit // (1024 * 1024)} MB")


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


def store_file(*, chunks: Iterable[bytes], folder: str, stem: str, extension=None) -> StoredFile:
    """Write `chunks` to MEDIA_ROOT/<folder>/<stem><extension> through a temporary name.
    Without `extension`, the one of the sniffed content type is used."""
    directory = media_path(folder)
    directory.mkdir(parents=True, exist_ok=True)
    temporary = directory / f"{TEMP_PREFIX}{stem}-{uuid.uuid4().hex[:8]}"
    digest, size = hashlib.sha256(), 0
    try:
        with temporary.open("wb") as out:
            for chunk in chunks:
                digest.update(chunk)
                size += len(chunk)
                out.write(chunk)
        content_type, sniffed_extension = sniff_content_type(temporary)
        final = directory / f"{stem}{extension or sniffed_extension}"
        os.replace(temporary, final)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return StoredFile(
        relative=f"{folder}/{final.name}",
        size=size,
        sha256=digest.hexdigest(),
        content_type=content_type,
    )


def file_chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as stream:
        while chunk := stream.read(CHUNK):
            yield chunk


@contextmanager
def removed_unless_saved(stored: StoredFile):
    """Around the row's creation: when it fails, the file it would have described goes."""
    try:
        yield
    except BaseException:
        stored.path.unlink(missing_ok=True)
        raise


def remove_after_commit(relative: str) -> None:
    """The row is gone in this transaction; its file goes once that is final."""
    transaction.on_commit(lambda: media_path(relative).unlink(missing_ok=True))


def copy_into(source: Path, *, folder: str, stem: str) -> StoredFile:
    """A stored copy of a file already on disk (a job artifact)."""
    return store_file(chunks=file_chunks(source), folder=folder, stem=stem)
