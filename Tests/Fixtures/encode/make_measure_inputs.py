#!/usr/bin/env python3
"""Makes the inputs of PNGEncodingTests' measurement test (skipped unless PNGENC_MEASURE_DIR is set).

usage: make_measure_inputs.py OUT_DIR FILE...

Each input is fitted into a 618 px square (sticker size), then written as
  NAME.rgba.bin   the RGBA image
  NAME.flat.bin   Pillow FASTOCTREE 256 colours, no dithering (Pillow ignores dither for RGBA)
  NAME.fs.bin     the same palette with Floyd-Steinberg dithering (slow; only when DITHER=1)
Animated inputs (APNG/GIF/WebP) are cut to 24 frames (MAXFRAMES=n to change) at 408 px and crudely quantized to one shared
palette (6x7x6 colour cube + one transparent entry; alpha < 128 is transparent):
  NAME.anim.bin
Format (little-endian u32): magic, width, height, palette entries, frames; palette RGBA; per frame
delay in ms then width*height bytes (indices, or RGBA for magic 'RGBA').
"""
import os, struct, sys
import numpy as np
from PIL import Image, ImageSequence

def fit(im, size):
    im = im.convert('RGBA')
    s = size / max(im.size)
    return im.resize((max(1, round(im.size[0] * s)), max(1, round(im.size[1] * s))), Image.LANCZOS) if s < 1 else im

def write(path, magic, w, h, palette, frames):
    with open(path, 'wb') as f:
        f.write(magic + struct.pack('<4I', w, h, len(palette), len(frames)))
        for c in palette: f.write(bytes(c))
        for delay, data in frames:
            f.write(struct.pack('<I', delay)); f.write(data)

def indexed(im, dither):
    q = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.FLOYDSTEINBERG if dither else Image.Dither.NONE)
    pal = q.getpalette('RGBA') if hasattr(q, 'getpalette') else None
    pal = q.palette.palette
    mode = q.palette.mode
    n = len(pal) // len(mode)
    entries = [tuple(pal[i * len(mode):(i + 1) * len(mode)]) for i in range(n)]
    if mode == 'RGB':
        trns = q.info.get('transparency')
        entries = [(r, g, b, 255 if trns is None else (trns[i] if isinstance(trns, bytes) and i < len(trns) else (0 if trns == i else 255))) for i, (r, g, b) in enumerate(entries)]
    return entries, q.tobytes()

def dither(im, entries):
    """Floyd-Steinberg error diffusion onto a given palette (premultiplied-ish: RGBA distance)."""
    pal = np.array(entries, dtype=np.float32)
    a = np.asarray(im, dtype=np.float32).copy()
    h, w, _ = a.shape
    out = np.zeros((h, w), np.uint8)
    for y in range(h):
        row = a[y]
        for x in range(w):
            px = np.clip(row[x], 0, 255)
            k = int(np.argmin(((pal - px) ** 2).sum(1)))
            out[y, x] = k
            e = px - pal[k]
            if x + 1 < w: row[x + 1] += e * (7 / 16)
            if y + 1 < h:
                if x > 0: a[y + 1, x - 1] += e * (3 / 16)
                a[y + 1, x] += e * (5 / 16)
                if x + 1 < w: a[y + 1, x + 1] += e * (1 / 16)
    return out.tobytes()

def cube_quantize(frames):
    levels = (6, 7, 6)
    pal = [(0, 0, 0, 0)]
    for r in range(6):
        for g in range(7):
            for b in range(6):
                pal.append((round(r * 255 / 5), round(g * 255 / 6), round(b * 255 / 5), 255))
    out = []
    for delay, im in frames:
        a = np.asarray(im, dtype=np.int32)
        r = (a[..., 0] * 5 + 127) // 255; g = (a[..., 1] * 6 + 127) // 255; b = (a[..., 2] * 5 + 127) // 255
        idx = 1 + r * 42 + g * 6 + b
        idx[a[..., 3] < 128] = 0
        out.append((delay, idx.astype(np.uint8).tobytes()))
    return pal, out

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for path in sys.argv[2:]:
    name = os.path.splitext(os.path.basename(path))[0]
    src = Image.open(path)
    if getattr(src, 'n_frames', 1) > 1:
        frames = []
        for i, fr in enumerate(ImageSequence.Iterator(src)):
            if i >= int(os.environ.get('MAXFRAMES', '24')): break
            frames.append((int(fr.info.get('duration', 100) or 100), fit(fr.copy(), 408)))
        pal, data = cube_quantize(frames)
        w, h = frames[0][1].size
        write(os.path.join(out, name + '.anim.bin'), b'IDX1', w, h, pal, data)
        continue
    im = fit(src, 618)
    w, h = im.size
    write(os.path.join(out, name + '.rgba.bin'), b'RGBA', w, h, [], [(0, im.tobytes())])
    pal, data = indexed(im, False)
    write(os.path.join(out, name + '.flat.bin'), b'IDX1', w, h, pal, [(0, data)])
    if os.environ.get('DITHER'):
        write(os.path.join(out, name + '.fs.bin'), b'IDX1', w, h, pal, [(0, dither(im, pal))])
    print(name, w, h)
