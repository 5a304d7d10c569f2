#!/usr/bin/env python3
"""Reads back in headless Chromium what scripts/test-webm-browser wrote (see there), and checks it.

Usage: webm_browser_check.py DIR   (DIR holds sticker.webm, sticker.webp, expected.json)
Writes DIR/readings.json and exits 1 with one line per failure.
"""
import base64
import json
import pathlib
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>encoders</title></head><body>
<video id="v" muted playsinline></video>
<script>
function blobURL(b64, type) {
  const bin = atob(b64), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return URL.createObjectURL(new Blob([bytes], {type}));
}
function bytesOf(b64) {
  const bin = atob(b64), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}
const sleep = ms => new Promise(ok => setTimeout(ok, ms));
function read(g, points) { return points.map(p => Array.from(g.getImageData(p[0], p[1], 1, 1).data)); }

async function readVideo(b64, spec) {
  const v = document.getElementById('v');
  v.src = blobURL(b64, 'video/webm');
  await new Promise((ok, bad) => { v.onloadeddata = ok; v.onerror = () => bad(new Error('video error ' + (v.error && v.error.code) + ' ' + (v.error && v.error.message))); });
  const c = document.createElement('canvas'); c.width = spec.size; c.height = spec.size;
  const g = c.getContext('2d', {willReadFrequently: true});
  const pixels = [];
  for (const f of spec.frames) {
    await new Promise(ok => { v.onseeked = ok; v.currentTime = (f.start + f.duration / 2) / 1000; });
    await sleep(80);
    g.clearRect(0, 0, spec.size, spec.size);
    g.drawImage(v, 0, 0, spec.size, spec.size);
    pixels.push(read(g, f.points));
  }
  await new Promise(ok => { v.onseeked = ok; v.currentTime = 0; });
  const ended = new Promise(ok => { v.onended = () => ok(true); setTimeout(() => ok(false), 5000); });
  await v.play();
  const reachedEnd = await ended;
  const played = v.currentTime;
  const quality = v.getVideoPlaybackQuality ? v.getVideoPlaybackQuality() : null;
  v.pause();
  return {pixels, played, reachedEnd, duration: v.duration, width: v.videoWidth, height: v.videoHeight,
          presented: quality ? quality.totalVideoFrames : null};
}

async function readWebP(b64, spec) {
  const decoder = new ImageDecoder({data: bytesOf(b64), type: 'image/webp'});
  await decoder.tracks.ready;
  const track = decoder.tracks.selectedTrack;
  const c = new OffscreenCanvas(spec.size, spec.size);
  const g = c.getContext('2d', {willReadFrequently: true});
  const frames = [];
  for (let i = 0; i < track.frameCount; i++) {
    const r = await decoder.decode({frameIndex: i});
    g.clearRect(0, 0, spec.size, spec.size);
    g.drawImage(r.image, 0, 0);
    frames.push({duration: r.image.duration, pixels: read(g, spec.frames[Math.min(i, spec.frames.length - 1)].points)});
    r.image.close();
  }
  return {frameCount: track.frameCount, animated: track.animated, repetitionCount: track.repetitionCount, frames};
}
</script></body></html>"""


def main():
    out = pathlib.Path(sys.argv[1]).resolve()
    expected = json.loads((out / "expected.json").read_text())
    (out / "check.html").write_text(PAGE)
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(120)
    try:
        driver.get((out / "check.html").as_uri())
        run = "const done = arguments[arguments.length - 1]; {}(arguments[0], arguments[1]).then(done, e => done({{error: String(e)}}));"
        video = driver.execute_async_script(run.format("readVideo"),
                                            base64.b64encode((out / "sticker.webm").read_bytes()).decode(), expected["webm"])
        webp = driver.execute_async_script(run.format("readWebP"),
                                           base64.b64encode((out / "sticker.webp").read_bytes()).decode(), expected["webp"])
        version = driver.capabilities.get("browserVersion")
    finally:
        driver.quit()
    (out / "readings.json").write_text(json.dumps({"chromium": version, "webm": video, "webp": webp}, indent=1))

    failures = []
    worst = {"alpha": 0, "color": 0}
    if "error" in video:
        failures.append(f"webm: {video['error']}")
    else:
        spec = expected["webm"]
        if (video["width"], video["height"]) != (spec["size"], spec["size"]):
            failures.append(f"webm: video is {video['width']}x{video['height']}")
        total = spec["frames"][-1]["start"] + spec["frames"][-1]["duration"]
        if abs(video["duration"] * 1000 - total) > 1:
            failures.append(f"webm: duration {video['duration']} s, expected {total} ms")
        if not video["reachedEnd"] or abs(video["played"] * 1000 - total) > 1:
            failures.append(f"webm: playing did not reach the end within 5 s (at {video['played']} s)")
        for k, (frame, got) in enumerate(zip(spec["frames"], video["pixels"])):
            for point, (r, g, b, a) in zip(frame["points"], got):
                x, y, er, eg, eb, ea = point
                da = abs(a - ea)
                dc = max(abs(c * a - e * ea) // 255 for c, e in ((r, er), (g, eg), (b, eb)))
                worst["alpha"] = max(worst["alpha"], da)
                worst["color"] = max(worst["color"], dc)
                if ea == 0 and a > 12:
                    failures.append(f"webm frame {k} ({x},{y}): alpha {a} where the source is transparent (alpha ignored?)")
                elif da > 24 or dc > 24:
                    failures.append(f"webm frame {k} ({x},{y}): rgba {(r, g, b, a)}, source {(er, eg, eb, ea)}")
    if "error" in webp:
        failures.append(f"webp: {webp['error']}")
    else:
        spec = expected["webp"]
        if webp["frameCount"] != len(spec["frames"]) or not webp["animated"]:
            failures.append(f"webp: {webp['frameCount']} frames (animated {webp['animated']}), expected {len(spec['frames'])}")
        for k, (frame, got) in enumerate(zip(spec["frames"], webp["frames"])):
            if got["duration"] != frame["duration"] * 1000:
                failures.append(f"webp frame {k}: duration {got['duration']} µs, expected {frame['duration']} ms")
            for point, (r, g, b, a) in zip(frame["points"], got["pixels"]):
                x, y, er, eg, eb, ea = point
                # Canvas stores premultiplied 8-bit colour: translucent pixels are compared
                # premultiplied, within its rounding (opaque ones exactly).
                if ea == 255:
                    off = max(abs(r - er), abs(g - eg), abs(b - eb))
                else:
                    off = max(abs(c * a - e * ea) / 255 for c, e in ((r, er), (g, eg), (b, eb))) - 1
                if a != ea or (ea > 0 and off > 0):
                    failures.append(f"webp frame {k} ({x},{y}): rgba {(r, g, b, a)}, source {(er, eg, eb, ea)}")

    if failures:
        print("\n".join("test-webm-browser: FAIL: " + f for f in failures), file=sys.stderr)
        sys.exit(1)
    n = sum(len(f["points"]) for f in expected["webm"]["frames"])
    print(f"test-webm-browser: Chromium {version}: WebM {len(video['pixels'])} frames × points ({n} readings), "
          f"largest alpha error {worst['alpha']}, largest premultiplied colour error {worst['color']}; "
          f"played to the end ({video['played']:.3f} s, {video['presented']} frames presented); "
          f"WebP {webp['frameCount']} frames, durations and pixels exact; readings in {out}/readings.json")


if __name__ == "__main__":
    main()
