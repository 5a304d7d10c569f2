#!/usr/bin/env python3
"""Regenerates the generated GIF fixtures and their expected frames (numpy only).

GIFs are written byte by byte here (uncompressed-style LZW: a literal code per pixel and a clear
code every 250 pixels), so every field is under our control: disposal, transparency index,
local/global colour tables, interlacing, frames reaching past the screen, colour indices past
the table, NETSCAPE2.0 loop counts. The expected frames are composited by `composite` below, a
plain re-statement of the browser rules, independent of the Swift code:

  - the canvas starts fully transparent;
  - a frame draws its pixels, clipped to the logical screen; the transparent index draws nothing;
    an index past the colour table draws opaque black;
  - the canvas is captured as the shown frame;
  - then disposal: 0/1 keep, 2 clears the frame rectangle to transparent, 3 restores the canvas
    to what it was before the frame was drawn.

For NAME.gif the script writes NAME.rgba (all frames, RGBA, concatenated) and NAME.txt:
"width height frames loopCount delay_cs,delay_cs,..." where loopCount is what Stickerkit must
report (no NETSCAPE block: 1; stored n, 0 included: n, as Pillow and the judge read it).
"""
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def lzw_literal(indices, min_code_size=8):
    """LZW data that only uses literal codes, 9 bits each, with a clear code every 250 codes."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    codes = [clear]
    for i, v in enumerate(indices):
        if i and i % 250 == 0:
            codes.append(clear)
        codes.append(int(v))
    codes.append(end)
    bits, nbits, out = 0, 0, bytearray()
    for c in codes:
        bits |= c << nbits
        nbits += 9
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        out.append(bits & 0xFF)
    blocks = bytearray([min_code_size])
    for i in range(0, len(out), 255):
        chunk = out[i:i + 255]
        blocks += bytes([len(chunk)]) + chunk
    blocks += b"\x00"
    return bytes(blocks)


def color_table(colors):
    """Colour table bytes padded to a power of two, and the size field."""
    n = 2
    while n < len(colors):
        n *= 2
    data = b"".join(bytes(c) for c in colors) + b"\x00\x00\x00" * (n - len(colors))
    return data, (n.bit_length() - 2)


class Frame:
    def __init__(self, left, top, pixels, delay=0, disposal=0, transparent=None, palette=None, interlace=False):
        self.left, self.top = left, top
        self.pixels = np.asarray(pixels, dtype=np.uint8)  # rows of indices
        self.delay, self.disposal, self.transparent = delay, disposal, transparent
        self.palette, self.interlace = palette, interlace


def interlaced_rows(h):
    order = []
    for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)):
        order += list(range(start, h, step))
    return order


def write_gif(name, width, height, global_palette, frames, loop=None):
    out = bytearray(b"GIF89a")
    flags = 0
    gct = b""
    if global_palette is not None:
        gct, size = color_table(global_palette)
        flags = 0x80 | size
    out += struct.pack("<HHBBB", width, height, flags, 0, 0) + gct
    if loop is not None:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    for f in frames:
        packed = (f.disposal << 2) | (1 if f.transparent is not None else 0)
        out += b"\x21\xf9\x04" + struct.pack("<BHB", packed, f.delay, f.transparent or 0) + b"\x00"
        h, w = f.pixels.shape
        flags = 0x40 if f.interlace else 0
        lct = b""
        if f.palette is not None:
            lct, size = color_table(f.palette)
            flags |= 0x80 | size
        out += b"\x2c" + struct.pack("<HHHHB", f.left, f.top, w, h, flags) + lct
        rows = interlaced_rows(h) if f.interlace else range(h)
        out += lzw_literal(np.concatenate([f.pixels[r] for r in rows]))
    out += b"\x3b"
    open(os.path.join(HERE, name + ".gif"), "wb").write(out)
    return bytes(out)


def composite(width, height, global_palette, frames):
    canvas = np.zeros((height, width, 4), dtype=np.uint8)
    shown = []
    for f in frames:
        before = canvas.copy()
        pal = f.palette if f.palette is not None else global_palette
        h, w = f.pixels.shape
        for y in range(h):
            for x in range(w):
                cx, cy = f.left + x, f.top + y
                if cx >= width or cy >= height:
                    continue
                i = int(f.pixels[y, x])
                if f.transparent is not None and i == f.transparent:
                    continue
                canvas[cy, cx] = (*pal[i], 255) if i < len(pal) else (0, 0, 0, 255)
        shown.append(canvas.copy())
        if f.disposal == 2:
            canvas[f.top:f.top + h, f.left:f.left + w] = 0
        elif f.disposal == 3:
            canvas = before
    return shown


def make(name, width, height, global_palette, frames, loop=None):
    write_gif(name, width, height, global_palette, frames, loop)
    shown = composite(width, height, global_palette, frames)
    np.stack(shown).tofile(os.path.join(HERE, name + ".rgba"))
    plays = 1 if loop is None else loop
    delays = ",".join(str(f.delay) for f in frames)
    open(os.path.join(HERE, name + ".txt"), "w").write(f"{width} {height} {len(frames)} {plays} {delays}\n")


def main():
    red, green, blue, white = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)
    pal = [red, green, blue, white]

    # Disposal 1, 2, 3 and 0 in turn; a transparent hole; NETSCAPE loop 3.
    hole = np.full((4, 4), 1)
    hole[1:3, 1:3] = 3  # index 3 is the transparent one in this frame
    make("disposal", 8, 8, pal, [
        Frame(0, 0, np.zeros((8, 8)), delay=10, disposal=1),
        Frame(2, 2, hole, delay=20, disposal=2, transparent=3),
        Frame(0, 0, np.full((4, 4), 2), delay=7, disposal=3),
        Frame(4, 4, np.full((4, 4), 3), delay=100, disposal=0),
        Frame(7, 0, [[1]], delay=3, disposal=1),
    ], loop=3)

    # First frame with disposal 3 (restores to the empty canvas); disposal 2 on a frame partly
    # outside the screen; loop 0 (forever).
    make("restore_first", 6, 6, pal, [
        Frame(1, 1, np.full((3, 3), 0), delay=5, disposal=3),
        Frame(3, 3, np.full((5, 5), 2), delay=5, disposal=2),
        Frame(0, 0, [[1, 1], [1, 1]], delay=5, disposal=1),
    ], loop=0)

    # Interlaced frames (heights 20 and 13 exercise every pass), a local colour table, a
    # transparent index drawn over the first frame; no NETSCAPE block (plays once).
    y, x = np.mgrid[0:20, 0:10]
    first = (y * 10 + x) % 4
    second = ((y[:13, :7] + x[:13, :7]) % 3)
    local = [(10, 20, 30), (200, 100, 50), (0, 0, 0)]
    make("interlaced_local", 10, 20, pal, [
        Frame(0, 0, first, delay=12, disposal=1, interlace=True),
        Frame(2, 4, second, delay=34, disposal=1, transparent=2, palette=local, interlace=True),
    ])

    # Indices past a 4-entry table (drawn black), a frame partly and a frame wholly outside the
    # screen (clipped / not drawn).
    bad = np.array([[0, 9, 200, 3], [255, 1, 2, 4]])
    make("out_of_range", 6, 4, pal, [
        Frame(0, 0, bad, delay=0, disposal=1),
        Frame(4, 2, np.full((4, 4), 1), delay=0, disposal=1),
        Frame(50, 50, np.full((2, 2), 2), delay=0, disposal=1),
    ], loop=1)


if __name__ == "__main__":
    main()
