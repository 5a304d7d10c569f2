#!/usr/bin/env python3
"""Decodes images frame by frame in headless Chromium through the WebCodecs ImageDecoder API.

Used by scripts/test-browser; also a command of its own for looking at what Chromium makes of a
file:

    scripts/browser_decode.py FILE...          # one JSON line per file (frames, durations, errors)
    scripts/browser_decode.py --png DIR FILE   # also writes every frame as DIR/NAME.N.png

How: a small HTTP server on 127.0.0.1 (a secure context, so ImageDecoder exists) serves a page and
the files; chromedriver (selenium) opens the page, starts a decode and polls for its end. The page
decodes every frame with `ImageDecoder.decode({frameIndex})` and posts the frame's pixels
(`VideoFrame.copyTo` as 8-bit RGBA, sRGB, straight alpha: exactly what the decoder produced, with
no canvas and no premultiplication in between) back to the server, which hands them to a callback
as they arrive, so a long animation is never held whole in memory.
"""
from __future__ import annotations

import argparse
import http.server
import json
import os
import shutil
import sys
import threading
import time
import urllib.parse

PAGE = r"""<!DOCTYPE html>
<meta charset="utf-8">
<title>decode</title>
<script>
window.job = null;
async function post(path, body) {
  const r = await fetch(path, {method: 'POST', body});
  if (!r.ok) throw new Error('POST ' + path + ': ' + r.status);
}
async function decodeFile(id, type) {
  const out = {type, frameCount: 0, repetitionCount: null, animated: null, durationsUs: [],
               formats: [], frameErrors: [], error: null, decoded: 0};
  let decoder = null;
  try {
    const data = await (await fetch('/file/' + id)).arrayBuffer();
    if (!ImageDecoder || !(await ImageDecoder.isTypeSupported(type))) throw new Error('unsupported type ' + type);
    decoder = new ImageDecoder({data, type, colorSpaceConversion: 'default', preferAnimation: true});
    await decoder.tracks.ready;
    await decoder.completed;
    const track = decoder.tracks.selectedTrack;
    out.frameCount = track.frameCount;
    out.repetitionCount = track.repetitionCount === Infinity ? -1 : track.repetitionCount;
    out.animated = track.animated;
    for (let i = 0; i < track.frameCount; i++) {
      let frame;
      try {
        frame = (await decoder.decode({frameIndex: i, completeFramesOnly: true})).image;
      } catch (e) {
        out.frameErrors.push(i + ': ' + e.name + ': ' + e.message);
        break;
      }
      try {
        const options = {format: 'RGBA', colorSpace: 'srgb'};
        const buffer = new Uint8Array(frame.allocationSize(options));
        await frame.copyTo(buffer, options);
        out.formats.push(frame.format);
        out.durationsUs.push(frame.duration);
        await post('/frame/' + id + '/' + i + '/' + frame.displayWidth + 'x' + frame.displayHeight, buffer);
        out.decoded++;
      } finally {
        frame.close();
      }
    }
  } catch (e) {
    out.error = (e && e.name ? e.name + ': ' : '') + (e && e.message ? e.message : String(e));
  } finally {
    if (decoder) decoder.close();
  }
  return out;
}
function start(id, type) {
  window.job = {done: false, result: null};
  decodeFile(id, type).then(r => { window.job = {done: true, result: r}; });
}
</script>
<p>decoder page</p>
"""


def mime_type(head: bytes) -> str | None:
    """The MIME type Chromium should decode the bytes as, from their signature."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[:2] == b"\xff\xd8":
        return "image/jpeg"
    return None


def find_chromium() -> tuple[str, str] | None:
    """(browser, chromedriver) paths, or None when either is missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        return None
    return browser, driver


class ChromiumImageDecoder:
    """A headless Chromium with the decoder page open. Use as a context manager."""

    def __init__(self, timeout: float = 600.0):
        self.timeout = timeout
        self.files: dict[str, str] = {}
        self.on_frame = None
        self.frame_error: Exception | None = None
        self.server = None
        self.driver = None

    def __enter__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        found = find_chromium()
        if found is None:
            raise RuntimeError("chromium and chromedriver are needed (Debian: apt-get install chromium chromium-driver)")
        browser, driver_path = found
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path == "/":
                    body = PAGE.encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                elif self.path.startswith("/file/") and self.path[6:] in owner.files:
                    with open(owner.files[self.path[6:]], "rb") as f:
                        body = f.read()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                else:
                    self.send_error(404)
                    return
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                parts = urllib.parse.unquote(self.path).split("/")
                # /frame/ID/INDEX/WxH
                if len(parts) == 5 and parts[1] == "frame":
                    w, h = (int(v) for v in parts[4].split("x"))
                    try:
                        if owner.on_frame is not None:
                            owner.on_frame(int(parts[3]), w, h, body)
                    except Exception as e:  # reported after the decode, not lost in the server thread
                        if owner.frame_error is None:
                            owner.frame_error = e
                    self.send_response(204)
                    self.end_headers()
                else:
                    self.send_error(404)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-extensions", "--no-first-run"):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(driver_path), options=options)
        self.driver.get("http://127.0.0.1:%d/" % self.server.server_address[1])
        return self

    def __exit__(self, *exc):
        if self.driver is not None:
            self.driver.quit()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    @property
    def version(self) -> str:
        return self.driver.capabilities.get("browserVersion", "?")

    def decode(self, path: str, on_frame=None, mime: str | None = None) -> dict:
        """Decodes `path`; `on_frame(index, width, height, rgba_bytes)` gets every frame as it
        arrives. Returns the page's summary: frameCount, repetitionCount (-1 = forever),
        durationsUs, decoded (frames delivered), frameErrors, error."""
        with open(path, "rb") as f:
            head = f.read(16)
        mime = mime or mime_type(head) or "application/octet-stream"
        key = str(len(self.files))
        self.files[key] = os.path.abspath(path)
        self.on_frame = on_frame
        self.frame_error = None
        self.driver.execute_script("start(arguments[0], arguments[1]);", key, mime)
        deadline = time.monotonic() + self.timeout
        while True:
            job = self.driver.execute_script("return window.job;")
            if job and job.get("done"):
                result = job["result"]
                break
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not finish decoding %s in %.0f s" % (path, self.timeout))
            time.sleep(0.05)
        del self.files[key]
        if self.frame_error is not None:
            raise self.frame_error
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--png", metavar="DIR", help="write every frame as DIR/NAME.N.png")
    args = parser.parse_args()
    with ChromiumImageDecoder() as chromium:
        for path in args.files:
            def keep(index, w, h, rgba, path=path):
                if args.png:
                    from PIL import Image
                    os.makedirs(args.png, exist_ok=True)
                    Image.frombytes("RGBA", (w, h), rgba).save(
                        os.path.join(args.png, "%s.%d.png" % (os.path.basename(path), index)))
            result = chromium.decode(path, keep)
            result["file"] = path
            print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
