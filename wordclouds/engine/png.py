"""Writing a PNG straight from a pixel array, in strips: no second copy of a canvas that can
be 50 megapixels (Pillow would convert it to its own 4-bytes-a-pixel image first)."""

import struct
import zlib

import numpy as np

STRIP_BYTES = 4 << 20  # raw bytes compressed at a time


def _chunk(out, kind: bytes, data: bytes) -> None:
    out.write(struct.pack(">I", len(data)) + kind + data)
    out.write(struct.pack(">I", zlib.crc32(kind + data)))


def write_png(out, pixels: np.ndarray, level: int = 1) -> None:
    """Write ``pixels`` (height × width × 3 or 4, uint8: RGB or RGBA) to the binary file
    ``out`` as an 8-bit PNG, rows unfiltered and compressed at zlib ``level``: words of flat
    colours on a flat background repeat whole pixels, which deflate finds as they are (the
    Sub filter took more time and gave a fifth larger files, measured on the 3,000-name
    heart)."""
    height, width, channels = pixels.shape
    out.write(b"\x89PNG\r\n\x1a\n")
    color_type = 6 if channels == 4 else 2
    _chunk(out, b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
    compressor = zlib.compressobj(level)
    stride = width * channels
    rows = max(1, STRIP_BYTES // (stride + 1))
    for top in range(0, height, rows):
        raw = pixels[top : top + rows].reshape(-1, stride)
        framed = np.empty((raw.shape[0], stride + 1), dtype=np.uint8)
        framed[:, 0] = 0  # each row starts with its filter type: 0, None
        framed[:, 1:] = raw
        data = compressor.compress(framed.data)
        if data:
            _chunk(out, b"IDAT", data)
    _chunk(out, b"IDAT", compressor.flush())
    _chunk(out, b"IEND", b"")


def read_png(path) -> np.ndarray | None:
    """The pixels of a PNG that :func:`write_png` wrote (8-bit RGB or RGBA, every row
    unfiltered), decompressed straight into an array; None for any other PNG."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    at, header, chunks = 8, None, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[at + 8 : at + 8 + length])
        elif kind == b"IDAT":
            chunks.append(data[at + 8 : at + 8 + length])
        at += 12 + length
    if header is None or header[2:] not in ((8, 2, 0, 0, 0), (8, 6, 0, 0, 0)):
        return None
    width, height, channels = header[0], header[1], 3 if header[3] == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(chunks)), dtype=np.uint8)
    if raw.size != height * (width * channels + 1):
        return None
    rows = raw.reshape(height, width * channels + 1)
    if rows[:, 0].any():  # a row with a filter: not one of ours
        return None
    return rows[:, 1:].reshape(height, width, channels).copy()
