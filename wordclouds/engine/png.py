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
