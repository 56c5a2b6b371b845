"""Draw the installable app's icons (static/icons/*.png; docs/app.md): Kropki's picture, four
white dots joined into an enclosure around a captured dark dot, on the site's red.

Pure Python (zlib, no imaging library); run once after a change, commit the PNGs:
``.venv/bin/python scripts/make_icons.py``. "maskable" keeps the picture inside the safe
zone (the middle 80 % circle) and fills the whole square, as launchers crop it.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
RED = (179, 38, 30)
WHITE = (255, 255, 255)
DARK = (29, 35, 43)
SAMPLES = 3  # supersampling per axis: smooth edges


def segment_distance(px: float, py: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def colour_at(x: float, y: float, scale: float, rounded: bool) -> tuple[int, int, int, int]:
    """The colour at (x, y) in a 1×1 icon; ``scale`` shrinks the picture about the centre."""
    if rounded:  # a rounded square, transparent corners
        r = 0.18
        cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
        if math.hypot(x - cx, y - cy) > r:
            return (0, 0, 0, 0)
    u, v = 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
    corners = [(0.5, 0.2), (0.8, 0.5), (0.5, 0.8), (0.2, 0.5)]
    if any(math.hypot(u - cx, v - cy) < 0.085 for cx, cy in corners):
        return (*WHITE, 255)
    if any(segment_distance(u, v, corners[i], corners[(i + 1) % 4]) < 0.03 for i in range(4)):
        return (*WHITE, 255)
    if math.hypot(u - 0.5, v - 0.5) < 0.075:
        return (*DARK, 255)
    return (*RED, 255)


def draw(size: int, scale: float, rounded: bool) -> bytes:
    rows = []
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = colour_at(
                        (px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size, scale, rounded
                    )
                    for i in range(4):
                        acc[i] += c[i]
            row.extend(round(a / SAMPLES**2) for a in acc)
        rows.append(bytes(row))
    return png(size, b"".join(rows))


def png(size: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, scale, rounded in (
        ("icon-192.png", 192, 1.0, True),
        ("icon-512.png", 512, 1.0, True),
        ("maskable-512.png", 512, 0.75, False),
        ("apple-touch-icon.png", 180, 0.9, False),
    ):
        (OUT / name).write_bytes(draw(size, scale, rounded))
        print(OUT / name)


if __name__ == "__main__":
    main()
