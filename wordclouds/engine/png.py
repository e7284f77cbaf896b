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
    ``out`` as an 8-bit PNG, each row with the Sub filter (a flat background becomes zeros)
    and compressed at zlib ``level``."""
    height, width, channels = pixels.shape
    out.write(b"\x89PNG\r\n\x1a\n")
    color_type = 6 if channels == 4 else 2
    _chunk(out, b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0))
    compressor = zlib.compressobj(level)
    stride = width * channels
    rows = max(1, STRIP_BYTES // (stride + 1))
    for top in range(0, height, rows):
        raw = pixels[top : top + rows].reshape(-1, stride)
        filtered = np.empty((raw.shape[0], stride + 1), dtype=np.uint8)
        filtered[:, 0] = 1  # Sub: each byte minus the one a pixel to its left
        filtered[:, 1 : channels + 1] = raw[:, :channels]
        np.subtract(raw[:, channels:], raw[:, :-channels], out=filtered[:, channels + 1 :])
        data = compressor.compress(filtered.data)
        if data:
            _chunk(out, b"IDAT", data)
    _chunk(out, b"IDAT", compressor.flush())
    _chunk(out, b"IEND", b"")
