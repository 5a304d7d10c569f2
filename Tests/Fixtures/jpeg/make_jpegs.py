#!/usr/bin/env python3
"""Regenerates the generated JPEG, WebP and colour fixtures (run from anywhere; Pillow + numpy).

Outputs are committed; the Swift tests never run this script. Expected pixels come from Pillow
(its own libjpeg/libwebp/lcms2 calls) or from the source arrays, never from Stickerkit.

jpeg/
  orient_N.jpg        N = 1..8: one baseline JPEG, EXIF APP1 (little-endian TIFF) with
                      Orientation = N inserted after SOI. Only the tag differs between files.
  orient_6_be.jpg, orient_3_be.jpg: the same with a big-endian ("MM") TIFF header.
  progressive.jpg     progressive JPEG; progressive.rgba = Pillow's decode (RGBA, alpha 255).
  gray.jpg            grayscale JPEG; gray.rgba = Pillow's decode expanded to RGBA.
  large_2560x1600.jpg baseline 2560x1600 gradient (test_image) for DCT-scaled decodes;
  large_orient_6.jpg  the same with EXIF Orientation = 6 (shown 1600x2560).
  cmyk.jpg            CMYK JPEG (Pillow writes Adobe-inverted CMYK with an APP14 Adobe marker);
                      cmyk.rgba = naive (1-C)(1-K) conversion of Pillow's decoded CMYK values.
webp/
  lossless_alpha.webp lossless still with alpha; lossless_alpha.rgba = the source pixels.
  anim_solid.webp     lossless animation, 3 solid frames, durations 50/120/30 ms, loop 2;
                      anim_solid.rgba = the source frames.
  icc_adobe.webp      lossless still tagged with the Adobe RGB (1998) profile from
                      jpeg/rocket_640x427.jpg; icc_adobe.rgba = Pillow ImageCms conversion to sRGB
                      (perceptual), icc_adobe_raw.rgba = the stored (unconverted) pixels.
  anim_icc.webp       lossless 2-frame animation with the same ICCP chunk; anim_icc.rgba = Pillow
                      ImageCms conversion of both source frames.
color/
  adobe_rgb_1998.icc  the ICC profile embedded in jpeg/rocket_640x427.jpg.
  srgb_lcms.icc       Pillow ImageCms.createProfile("sRGB") saved to bytes (holds its creation date,
                      so it changes on every run).
"""
import io
import os
import struct

import numpy as np
from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.dirname(HERE)


def path(*p):
    return os.path.join(FIX, *p)


def write_rgba(name, arr):
    np.asarray(arr, dtype=np.uint8).tofile(name)


def exif_app1(orientation, big_endian=False):
    e = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    # IFD0: two entries (ImageWidth LONG first, so that the orientation is not the first entry), next IFD 0.
    tiff += struct.pack(e + "H", 2)
    tiff += struct.pack(e + "HHII", 0x0100, 4, 1, 24)
    tiff += struct.pack(e + "HHI", 0x0112, 3, 1) + struct.pack(e + "HH", orientation, 0)
    tiff += struct.pack(e + "I", 0)
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def insert_after_soi(jpeg, segment):
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + segment + jpeg[2:]


def test_image(w, h):
    y, x = np.mgrid[0:h, 0:w]
    img = np.zeros((h, w, 3), dtype=np.uint8)
    img[..., 0] = (x * 255 // (w - 1))
    img[..., 1] = (y * 255 // (h - 1))
    img[..., 2] = 128
    img[0:4, 0:4] = [255, 255, 255]      # a white corner marks the top-left
    img[h - 4:h, w - 8:w] = [0, 0, 0]    # a black bar marks the bottom-right
    return img


def jpeg_bytes(im, **kw):
    b = io.BytesIO()
    im.save(b, "JPEG", **kw)
    return b.getvalue()


def main():
    # EXIF orientations: 24x16 so that 90-degree turns change the shape.
    base = jpeg_bytes(Image.fromarray(test_image(24, 16)), quality=95)
    for n in range(1, 9):
        open(path("jpeg", f"orient_{n}.jpg"), "wb").write(insert_after_soi(base, exif_app1(n)))
    for n in (3, 6):
        open(path("jpeg", f"orient_{n}_be.jpg"), "wb").write(insert_after_soi(base, exif_app1(n, True)))

    src = Image.fromarray(test_image(48, 32))
    data = jpeg_bytes(src, quality=90, progressive=True)
    open(path("jpeg", "progressive.jpg"), "wb").write(data)
    assert Image.open(io.BytesIO(data)).info.get("progressive")
    write_rgba(path("jpeg", "progressive.rgba"), np.array(Image.open(io.BytesIO(data)).convert("RGBA")))

    data = jpeg_bytes(src.convert("L"), quality=90)
    open(path("jpeg", "gray.jpg"), "wb").write(data)
    write_rgba(path("jpeg", "gray.rgba"), np.array(Image.open(io.BytesIO(data)).convert("RGBA")))

    patches = [(255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0), (0, 0, 0, 255), (0, 0, 0, 0),
               (128, 64, 32, 16), (40, 200, 90, 60), (255, 255, 255, 255)]
    cmyk = np.zeros((16, 64, 4), dtype=np.uint8)
    for i, p in enumerate(patches):
        cmyk[:, i * 8:(i + 1) * 8] = p
    data = jpeg_bytes(Image.fromarray(cmyk, "CMYK"), quality=100)
    open(path("jpeg", "cmyk.jpg"), "wb").write(data)
    dec = np.array(Image.open(io.BytesIO(data))).astype(np.int64)  # Pillow un-inverts Adobe CMYK
    rgba = np.full((16, 64, 4), 255, dtype=np.int64)
    for c in range(3):
        rgba[..., c] = ((255 - dec[..., c]) * (255 - dec[..., 3]) + 127) // 255
    write_rgba(path("jpeg", "cmyk.rgba"), rgba)

    # Colour profiles.
    adobe = Image.open(path("jpeg", "rocket_640x427.jpg")).info["icc_profile"]
    open(path("color", "adobe_rgb_1998.icc"), "wb").write(adobe)
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    open(path("color", "srgb_lcms.icc"), "wb").write(srgb)

    # WebP.
    rng = np.random.default_rng(7)
    px = rng.integers(0, 256, size=(12, 20, 4), dtype=np.uint8)
    px[0, :, 3] = 0
    px[1, :, 3] = 255
    b = io.BytesIO()
    Image.fromarray(px, "RGBA").save(b, "WEBP", lossless=True, exact=True)
    open(path("webp", "lossless_alpha.webp"), "wb").write(b.getvalue())
    write_rgba(path("webp", "lossless_alpha.rgba"), px)

    colors = [(255, 0, 0, 255), (0, 128, 255, 128), (10, 200, 30, 255)]
    frames = [Image.new("RGBA", (16, 10), c) for c in colors]
    b = io.BytesIO()
    frames[0].save(b, "WEBP", save_all=True, append_images=frames[1:], duration=[50, 120, 30], loop=2,
                   lossless=True, exact=True)
    open(path("webp", "anim_solid.webp"), "wb").write(b.getvalue())
    write_rgba(path("webp", "anim_solid.rgba"), np.stack([np.array(f) for f in frames]))

    y, x = np.mgrid[0:8, 0:16]
    px = np.zeros((8, 16, 4), dtype=np.uint8)
    px[..., 0] = x * 16
    px[..., 1] = 255 - y * 32
    px[..., 2] = (x * y * 2) % 256
    px[..., 3] = 255
    px[0, 0] = (0, 255, 0, 255)
    px[0, 1] = (255, 0, 0, 255)
    px[7, :, 3] = 77
    b = io.BytesIO()
    Image.fromarray(px, "RGBA").save(b, "WEBP", lossless=True, exact=True, icc_profile=adobe)
    open(path("webp", "icc_adobe.webp"), "wb").write(b.getvalue())
    write_rgba(path("webp", "icc_adobe_raw.rgba"), px)
    conv = ImageCms.profileToProfile(Image.fromarray(px[..., :3], "RGB"),
                                     ImageCms.ImageCmsProfile(io.BytesIO(adobe)),
                                     ImageCms.createProfile("sRGB"), renderingIntent=0, outputMode="RGB")
    out = np.dstack([np.array(conv), px[..., 3]])
    write_rgba(path("webp", "icc_adobe.rgba"), out)

    second = px.copy()
    second[..., :3] = 255 - second[..., :3]
    frames = [Image.fromarray(px, "RGBA"), Image.fromarray(second, "RGBA")]
    b = io.BytesIO()
    frames[0].save(b, "WEBP", save_all=True, append_images=frames[1:], duration=[70, 70], loop=0,
                   lossless=True, exact=True, icc_profile=adobe)
    open(path("webp", "anim_icc.webp"), "wb").write(b.getvalue())
    converted = []
    for f in (px, second):
        conv = ImageCms.profileToProfile(Image.fromarray(f[..., :3], "RGB"),
                                         ImageCms.ImageCmsProfile(io.BytesIO(adobe)),
                                         ImageCms.createProfile("sRGB"), renderingIntent=0, outputMode="RGB")
        converted.append(np.dstack([np.array(conv), f[..., 3]]))
    write_rgba(path("webp", "anim_icc.rgba"), np.stack(converted))


def write_large():
    # Large enough for libjpeg's DCT scaling at sticker sizes (StickerKit reduces at 2 x 4 x 300).
    data = jpeg_bytes(Image.fromarray(test_image(2560, 1600)), quality=75)
    open(path("jpeg", "large_2560x1600.jpg"), "wb").write(data)
    open(path("jpeg", "large_orient_6.jpg"), "wb").write(insert_after_soi(data, exif_app1(6)))


if __name__ == "__main__":
    main()
    write_large()
