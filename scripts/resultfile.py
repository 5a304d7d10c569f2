"""What every measurement file in Benchmarks/results/ records besides its figures: the command,
the date, the commit and the machine. Used by scripts/evaluate.py (--json) and
scripts/record-result; scripts/readme-tables renders the README's tables from the files.
"""
import datetime
import json
import os
import platform
import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = 1


def _run(args):
    try:
        return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def commit():
    """The short commit of the work tree, with "+changes" when tracked files differ from it (the
    figures then belong to uncommitted code, and the file says so)."""
    head = _run(["git", "rev-parse", "--short", "HEAD"]) or "unknown"
    changed = _run(["git", "status", "--porcelain", "--untracked-files=no"])
    return head + ("+changes" if changed else "")


def machine(build="release build"):
    """e.g. "2 cores (x86-64, AVX-512), 24 GB, Debian 12, Swift 6.3.1, release build"."""
    parts = []
    arch = platform.machine().replace("_", "-")
    features = []
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
        if " avx512f" in cpuinfo:
            features.append("AVX-512")
        elif " avx2" in cpuinfo:
            features.append("AVX2")
    except OSError:
        pass
    parts.append(f"{os.cpu_count()} cores ({', '.join([arch] + features)})")
    try:
        kb = int(next(l for l in Path("/proc/meminfo").read_text().splitlines() if l.startswith("MemTotal")).split()[1])
        parts.append(f"{round(kb / 1024 / 1024)} GB")
    except (OSError, StopIteration, ValueError):
        pass
    try:
        release = dict(l.split("=", 1) for l in Path("/etc/os-release").read_text().splitlines() if "=" in l)
        name, version = release.get("NAME", "").strip('"'), release.get("VERSION_ID", "").strip('"')
        parts.append(f"{name.split()[0]} {version}".strip() if name else platform.system())
    except OSError:
        parts.append(f"{platform.system()} {platform.release()}")
    swift = _run(["swift", "--version"])
    if "Swift version" in swift:
        parts.append("Swift " + swift.split("Swift version", 1)[1].split()[0])
    if build:
        parts.append(build)
    return ", ".join(parts)


def header(kind, title, argv, build="release build"):
    """The common fields, in the order the files list them."""
    return dict(schema=SCHEMA, kind=kind, title=title,
                command=" ".join(shlex.quote(a) for a in argv),
                date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                commit=commit(), machine=machine(build), provenance="measured")


def write(path, data):
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
