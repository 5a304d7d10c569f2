#!/usr/bin/env python3
"""Regenerates the PNG decoder's fixtures and golden manifests with Pillow (an independent
PNG/APNG implementation). Run once from anywhere; the outputs are committed:

  pillow/*.png          small PNGs of every colour type and bit depth Pillow can write
  pillow_manifest.txt   FNV-1a 64 of Pillow's own RGBA decoding of each (not for 16-bit:
                        Pillow clips I;16 when converting, so those are checked another way)
  maneki_frames.txt     per frame of maneki_neko_palette_3f.apng: delay and FNV-1a 64 of the
                        canvas Pillow composites, as RGBA

The tests never run this script: they read what it wrote.
"""
import os
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 37, 23


def fnv1a64(data: bytes) -> str:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def texture(rng, levels, channels):
    """Gradients plus noise, so encoders pick varied filters; values in range(levels)."""
    y, x = np.mgrid[0:H, 0:W]
    planes = []
    for c in range(channels):
        base = (x * (c + 1) * 3 + y * (5 - c) * 2) % levels
        noise = rng.integers(0, max(1, levels // 8) + 1, size=(H, W))
        planes.append((base + noise) % levels)
    return np.stack(planes, axis=-1).astype(np.int64)


def main():
    rng = np.random.default_rng(20261122)
    out_dir = os.path.join(HERE, "pillow")
    os.makedirs(out_dir, exist_ok=True)
    made = []  # (name, image, save kwargs, in manifest)

    made.append(("gray1", Image.fromarray((texture(rng, 2, 1)[..., 0] * 255).astype(np.uint8), "L").convert("1"), {}, True))
    for bits in (2, 4):
        levels = 1 << bits
        v = texture(rng, levels, 1)[..., 0] * (255 // (levels - 1))
        made.append((f"gray{bits}", Image.fromarray(v.astype(np.uint8), "L"), {"bits": bits}, True))
    g8 = texture(rng, 256, 1)[..., 0].astype(np.uint8)
    made.append(("gray8", Image.fromarray(g8, "L"), {}, True))
    made.append(("gray8_trns", Image.fromarray(g8, "L"), {"transparency": int(g8[3, 4])}, True))
    g16 = (texture(rng, 65536, 1)[..., 0]).astype(np.uint16)
    made.append(("gray16", Image.frombytes("I;16", (W, H), g16.astype("<u2").tobytes()), {}, False))

    for bits in (1, 2, 4, 8):
        n = 1 << bits
        idx = texture(rng, n, 1)[..., 0].astype(np.uint8)
        im = Image.fromarray(idx, "P")
        pal = rng.integers(0, 256, size=3 * n).tolist()
        im.putpalette(pal)
        made.append((f"pal{bits}", im, {"bits": bits} if bits < 8 else {}, True))
    idx = texture(rng, 200, 1)[..., 0].astype(np.uint8)
    im = Image.fromarray(idx, "P")
    im.putpalette(rng.integers(0, 256, size=600).tolist())
    alphas = bytes(rng.integers(0, 256, size=100).tolist())
    made.append(("pal8_trns", im, {"transparency": alphas}, True))

    made.append(("gray_alpha8", Image.fromarray(texture(rng, 256, 2).astype(np.uint8), "LA"), {}, True))
    rgb = texture(rng, 256, 3).astype(np.uint8)
    made.append(("rgb8", Image.fromarray(rgb, "RGB"), {}, True))
    key = tuple(int(c) for c in rgb[5, 6])
    made.append(("rgb8_trns", Image.fromarray(rgb, "RGB"), {"transparency": key}, True))
    made.append(("rgba8", Image.fromarray(texture(rng, 256, 4).astype(np.uint8), "RGBA"), {}, True))

    lines = ["# file fnv1a64(Pillow RGBA) — written by make_fixtures.py"]
    for name, im, kw, in_manifest in made:
        path = os.path.join(out_dir, name + ".png")
        im.save(path, "PNG", **kw)
        if in_manifest:
            with Image.open(path) as back:
                lines.append(f"{name}.png {fnv1a64(back.convert('RGBA').tobytes())}")
    with open(os.path.join(HERE, "pillow_manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")

    apng = os.path.join(HERE, "maneki_neko_palette_3f.apng")
    lines = ["# frame delay_ms fnv1a64(Pillow RGBA canvas) loop — written by make_fixtures.py"]
    with Image.open(apng) as im:
        for i in range(im.n_frames):
            im.seek(i)
            lines.append(f"{i} {int(round(im.info['duration']))} {fnv1a64(im.convert('RGBA').tobytes())} {im.info.get('loop', 0)}")
    with open(os.path.join(HERE, "maneki_frames.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
