"""The engine's PNG writer and reader (wordclouds/engine/png.py): strips deflated on their
own still make one ordinary zlib stream that Pillow and zlib read whole, and read_png reads
the strips apart, refusing any that does not match its checksum; a revision's PNG copies
the parent's strips its changes leave alone and is still read whole."""

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from wordclouds.engine import png
from wordclouds.engine.png import read_png, read_png_strips, write_png


def _poster(height, width, channels, seed) -> np.ndarray:
    """Flat boxes of random colours on a flat background, as a poster's words are."""
    rng = np.random.default_rng(seed)
    pixels = np.full((height, width, channels), 255, dtype=np.uint8)
    for _ in range(max(1, height * width // 2000)):
        y, x = rng.integers(0, height), rng.integers(0, width)
        pixels[y : y + rng.integers(1, 30), x : x + rng.integers(1, 120)] = rng.integers(
            0, 256, channels
        )
    return pixels


def _png(chunks) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        for kind, body in chunks
    )


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    at, chunks = 8, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        chunks.append((data[at + 4 : at + 8], data[at + 8 : at + 8 + length]))
        at += 12 + length
    return chunks


def _strips(data: bytes) -> list[bytes]:
    """The IDAT chunks that hold the strips (the first holds the zlib header, the last the
    stream's end)."""
    return [body for kind, body in _chunks(data) if kind == b"IDAT"][1:-1]


def _read_whole(path, pixels) -> None:
    """The PNG at ``path`` holds ``pixels`` for Pillow, for zlib (which checks the whole
    stream's Adler-32) and for read_png."""
    with Image.open(path) as image:
        assert np.array_equal(np.array(image), pixels)
    idat = b"".join(body for kind, body in _chunks(path.read_bytes()) if kind == b"IDAT")
    framed = np.frombuffer(zlib.decompress(idat), dtype=np.uint8)
    assert np.array_equal(framed.reshape(pixels.shape[0], -1)[:, 1:].reshape(pixels.shape), pixels)
    assert np.array_equal(read_png(path), pixels)


@pytest.fixture
def small_strips(monkeypatch):
    """Strips of a few rows, so that small images have many."""
    monkeypatch.setattr(png, "STRIP_BYTES", 4096)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("channels", [3, 4])
def test_the_pixels_come_back_from_pillow_zlib_and_read_png(small_strips, tmp_path, seed, channels):
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(1, 300)), int(rng.integers(1, 400))
    pixels = _poster(height, width, channels, seed)
    path = tmp_path / "poster.png"
    with open(path, "wb") as file:
        write_png(file, pixels, level=int(rng.integers(0, 10)))

    _read_whole(path, pixels)


def test_a_strip_that_does_not_match_its_checksum_is_refused(small_strips, tmp_path):
    pixels = _poster(200, 300, 3, 7)
    buffer = io.BytesIO()
    write_png(buffer, pixels)
    chunks = _chunks(buffer.getvalue())
    strips = [k for k, (kind, _) in enumerate(chunks) if kind == b"IDAT"][1:-1]
    assert len(strips) > 5
    kind, body = chunks[strips[3]]
    rows = bytearray(zlib.decompressobj(-15).decompress(body))
    rows[5] ^= 0x55  # a pixel changed, the strip as long as it was
    again = zlib.compressobj(1, zlib.DEFLATED, -15)
    chunks[strips[3]] = kind, again.compress(bytes(rows)) + again.flush(zlib.Z_FULL_FLUSH)
    spoiled = tmp_path / "spoiled.png"
    spoiled.write_bytes(_png(chunks))
    assert read_png(spoiled) is None


def test_a_png_with_filtered_rows_is_not_read(tmp_path):
    pixels = _poster(120, 90, 3, 3)
    Image.fromarray(pixels).save(tmp_path / "pillow.png", optimize=True)
    assert read_png(tmp_path / "pillow.png") is None


def test_a_png_of_one_zlib_stream_is_read_whole(tmp_path):
    """As this engine wrote them before the strips (posters already made): unfiltered rows
    in one stream, without the strips' chunk."""
    pixels = _poster(150, 110, 4, 5)
    framed = np.concatenate([np.zeros((150, 1), np.uint8), pixels.reshape(150, -1)], axis=1)
    chunks = [
        (b"IHDR", struct.pack(">IIBBBBB", 110, 150, 8, 6, 0, 0, 0)),
        (b"IDAT", zlib.compress(framed.tobytes())),
        (b"IEND", b""),
    ]
    path = tmp_path / "before.png"
    path.write_bytes(_png(chunks))
    assert np.array_equal(read_png(path), pixels)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("channels", [3, 4])
def test_a_revision_copies_the_strips_no_changed_row_falls_in(
    small_strips, tmp_path, seed, channels
):
    # given a parent written at level 9 and a few boxes of its pixels painted over
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(150, 300)), int(rng.integers(50, 400))
    before = _poster(height, width, channels, seed)
    parent = tmp_path / "parent.png"
    with open(parent, "wb") as file:
        write_png(file, before, level=9)
    pixels, strips = read_png_strips(parent)
    changed_rows = np.zeros(height, dtype=bool)
    for _ in range(3):
        y, x = int(rng.integers(0, height - 10)), int(rng.integers(0, width))
        pixels[y : y + 10, x : x + 20] = rng.integers(0, 256, channels)
        changed_rows[y : y + 10] = True
    # when the revision is written at level 0 (stored: unlike any level-9 strip)
    revised = tmp_path / "revised.png"
    with open(revised, "wb") as file:
        write_png(file, pixels, level=0, parent=strips, changed_rows=changed_rows)
    # then the strips with a changed row are deflated anew, the others are the parent's bytes
    rows = strips.rows
    copied = [not changed_rows[top : top + rows].any() for top in range(0, height, rows)]
    assert 0 < sum(copied) < len(copied)
    old, new = _strips(parent.read_bytes()), _strips(revised.read_bytes())
    assert [a == b for a, b in zip(old, new, strict=True)] == copied
    _read_whole(revised, pixels)


def _one_stream(path, pixels) -> None:
    """A PNG as this engine wrote them before the strips: one stream, no strips' chunk."""
    height, width, channels = pixels.shape
    framed = np.concatenate([np.zeros((height, 1), np.uint8), pixels.reshape(height, -1)], axis=1)
    color_type = 6 if channels == 4 else 2
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    chunks = [(b"IHDR", header), (b"IDAT", zlib.compress(framed.tobytes())), (b"IEND", b"")]
    path.write_bytes(_png(chunks))


@pytest.mark.parametrize("parent_kind", ["one stream", "another width", "other rows a strip"])
def test_strips_that_do_not_fit_the_pixels_are_all_deflated_anew(
    small_strips, monkeypatch, tmp_path, parent_kind
):
    # given a parent PNG whose strips the new pixels cannot reuse
    pixels = _poster(240, 300, 3, 11)
    parent = tmp_path / "parent.png"
    if parent_kind == "one stream":
        _one_stream(parent, pixels)
    else:
        width = 290 if parent_kind == "another width" else 300
        with open(parent, "wb") as file:
            write_png(file, _poster(240, width, 3, 11), level=9)
        if parent_kind == "other rows a strip":
            monkeypatch.setattr(png, "STRIP_BYTES", 6000)
    strips = read_png_strips(parent)[1]
    assert (strips is None) == (parent_kind == "one stream")
    # when the pixels are written with that parent and no changed row
    revised = tmp_path / "revised.png"
    with open(revised, "wb") as file:
        write_png(file, pixels, level=0, parent=strips, changed_rows=np.zeros(240, dtype=bool))
    # then no strip is the parent's, and the file holds the new pixels
    old = set(_strips(parent.read_bytes()))
    assert not old & set(_strips(revised.read_bytes()))
    _read_whole(revised, pixels)
