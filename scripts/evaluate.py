#!/usr/bin/env python3
"""Converts a corpus with stickerkit (and optionally the peer pipelines) and scores every output
with the project's quality judge, in one run, so that the figures compare like with like.

  scripts/evaluate.py CORPUS_DIR... [--sizes 300,408,618] [--max-kb 500] [--peers vips_pngquant,stickerconvert]
                      [--judge ../shared/tools/judge.py] [--work /tmp/sk-eval] [--jobs 2]
                      [--all-sizes] [--json Benchmarks/results/NAME.json [--title TEXT]]
  scripts/evaluate.py CORPUS_DIR... --platform signal|whatsapp|discord|telegram [--peers stickerconvert] ...

--all-sizes also times one stickerkit run with --size all (every size of a file from one decode, as a
user converts a folder), checks its stickers against the per-size runs byte for byte, and compares it
with each peer's three per-size runs summed.

Prints, per size and tool: files, contract failures, mean/min SSIM, mean PSNR, mean bytes and wall time;
then the files where stickerkit is more than 0.01 SSIM below a peer. Peers are run by
`<peers>/run.sh PEER IN OUT SIZE` (../shared/tools/peers); stickerkit by the release binary.
Needs python3 with numpy, scipy, Pillow (the judge's needs).

--platform NAME converts for that app instead of Messages: stickerkit with `resize --platform NAME`
(its own caps, canvas and container), sticker-convert with its preset of the same name (run directly
from the peers' venv, not through run.sh, whose pipelines hold only the iMessage presets), and the
judge at the platform's side with its containers (--formats) and the cap for each input's kind
(still or animation).

--baseline FILE compares every stickerkit sticker's SSIM with the same file and size in an earlier
measurement file (FILE, or REV:PATH for one in git, e.g. 326778f:Benchmarks/results/evaluate-animated.json),
prints every sticker whose SSIM moved (marking those below it by more than --tolerance, default
0.002), and exits 1 when one is below by more or was not judged: the bound a speed change is held to.

--json writes the run as a measurement file (scripts/resultfile.py: command, date, commit, machine,
then the summary per size and tool, the speed-ups over each peer and every judged file): writing it
over a file in Benchmarks/results/ and running scripts/readme-tables puts the run in the README.
"""
import argparse, concurrent.futures as cf, filecmp, json, os, shutil, subprocess, sys, tempfile, time
from pathlib import Path
import resource

import resultfile


def child_cpu():
    """User + system CPU seconds of every finished child process so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

ROOT = Path(__file__).resolve().parent.parent
SIZE_NAMES = {300: "small", 408: "regular", 618: "large"}
IMAGE_EXT = {".png", ".apng", ".gif", ".jpg", ".jpeg", ".webp"}
# Per platform: canvas side, the judge's accepted containers, byte caps for stills and animations
# (the figures of StickerTarget in Sources/StickerKit/Platforms; sticker-convert 2.21's presets
# use the same ones).
PLATFORMS = {
    "signal": dict(side=512, formats="png,apng", still=300000, anim=300000),
    "whatsapp": dict(side=512, formats="webp", still=100000, anim=500000),
    "discord": dict(side=320, formats="png,apng", still=512000, anim=512000),
    "telegram": dict(side=512, formats="webp,png", still=512000, anim=256000),
}
STICKER_CONVERT = Path("/root/.cache/sticker-peers/venv/bin/sticker-convert")


def glob_escape(name):
    return "".join("[" + c + "]" if c in "*?[]" else c for c in name)


def is_animated(path):
    from PIL import Image
    try:
        with Image.open(path) as im:
            return getattr(im, "n_frames", 1) > 1
    except Exception:
        return False


def find_inputs(dirs):
    out = []
    for d in dirs:
        # Absolute: the peer pipelines run in their own temporary folders.
        p = Path(d).resolve()
        if p.is_file():
            out.append(p)
        else:
            out += sorted(f for f in p.rglob("*") if f.suffix.lower() in IMAGE_EXT)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--sizes", default="300,408,618")
    ap.add_argument("--max-kb", type=float, default=500)
    ap.add_argument("--peers", default="")
    ap.add_argument("--judge", default=str(ROOT.parent / "shared/tools/judge.py"))
    ap.add_argument("--peer-dir", default=str(ROOT.parent / "shared/tools/peers"))
    ap.add_argument("--work", default=None)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--stickerkit", default=str(ROOT / ".build/release/stickerkit"))
    ap.add_argument("--extra", default="", help="extra stickerkit resize arguments")
    ap.add_argument("--json", default=None, help="write the run as a measurement file (see Benchmarks/results/README.md)")
    ap.add_argument("--title", default=None, help="the measurement file's title (default: from the inputs and peers)")
    ap.add_argument("--platform", default=None, choices=sorted(PLATFORMS), help="convert for this app (see above)")
    ap.add_argument("--no-judge", action="store_true", help="only convert and time (no quality scores)")
    ap.add_argument("--all-sizes", action="store_true",
                    help="also time stickerkit once with --size all (every size in one run, each file decoded once), "
                         "check its stickers are the per-size runs' and compare it with the peers' per-size runs summed")
    ap.add_argument("--reuse-peers", action="store_true",
                    help="keep peer outputs already in --work (from an earlier run with the same files) and the wall times saved with them in times.json; only missing outputs are made")
    ap.add_argument("--baseline", default=None,
                    help="an earlier measurement file (or REV:PATH in git): list stickers whose SSIM moved, exit 1 past --tolerance")
    ap.add_argument("--tolerance", type=float, default=0.002, help="SSIM a sticker may lose against --baseline (default 0.002)")
    a = ap.parse_args()
    baseline = load_baseline(a.baseline) if a.baseline else None

    platform = PLATFORMS.get(a.platform) if a.platform else None
    sizes = [platform["side"]] if platform else [int(s) for s in a.sizes.split(",")]
    limit = int(a.max_kb * 1000)
    if platform:
        limit = max(platform["still"], platform["anim"])
    inputs = find_inputs(a.inputs)
    work = Path(a.work or tempfile.mkdtemp(prefix="sk-eval-"))
    work.mkdir(parents=True, exist_ok=True)
    peers = [p for p in a.peers.split(",") if p]
    times = {}
    cpu = {}   # user + system CPU seconds of the tool's processes (steadier than wall time on a shared machine)
    times_file = work / "times.json"
    cpu_file = work / "cpu.json"

    def save_times():
        times_file.write_text(json.dumps({f"{k[0]}/{k[1]}": v for k, v in times.items()}))
        cpu_file.write_text(json.dumps({f"{k[0]}/{k[1]}": v for k, v in cpu.items()}))
    if a.reuse_peers and times_file.exists():
        for k, v in json.loads(times_file.read_text()).items():
            tool, size = k.rsplit("/", 1)
            times[(tool, int(size))] = v
        if cpu_file.exists():
            for k, v in json.loads(cpu_file.read_text()).items():
                tool, size = k.rsplit("/", 1)
                cpu[(tool, int(size))] = v

    # stickerkit: one batch per size over all inputs (its own parallelism).
    for size in sizes:
        out = work / "stickerkit" / str(size)
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.time(); c0 = child_cpu()
        if platform:
            cmd = [a.stickerkit, "resize", *map(str, inputs), "-o", str(out), "--platform", a.platform,
                   "--force", "--quiet", "--report", str(out / "report.json")]
        else:
            cmd = [a.stickerkit, "resize", *map(str, inputs), "-o", str(out), "--size", SIZE_NAMES[size],
                   "--max-bytes", str(limit), "--force", "--quiet", "--report", str(out / "report.json")]
        cmd += a.extra.split()
        subprocess.run(cmd)
        times[("stickerkit", size)] = time.time() - t0
        cpu[("stickerkit", size)] = child_cpu() - c0
        save_times()

    # stickerkit: every size in one run (`--size all`), the way a user converts a folder.
    together = None
    if a.all_sizes and not platform and sorted(sizes) == sorted(SIZE_NAMES):
        out = work / "stickerkit-all"
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        t0 = time.time(); c0 = child_cpu()
        subprocess.run([a.stickerkit, "resize", *map(str, inputs), "-o", str(out), "--size", "all",
                        "--max-bytes", str(limit), "--force", "--quiet", *a.extra.split()])
        together = dict(wall=time.time() - t0, cpu=child_cpu() - c0)
        side = {name: size for size, name in SIZE_NAMES.items()}
        def twin(f):
            return work / "stickerkit" / str(side[f.parent.name]) / f.name
        made = sorted(f for f in out.rglob("*.png") if f.parent.name in side)
        same = sum(1 for f in made if twin(f).exists() and filecmp.cmp(f, twin(f), shallow=False))
        together.update(stickers=len(made), identical=same)

    # Inputs that share a stem (big_buck_bunny….gif and ….webp) must not share an output: the first
    # keeps the stem, the others take their whole name (stickerkit's own rule; its report, read
    # where it exists, has the last word).
    first_with_stem = {}
    for inp in inputs:
        first_with_stem.setdefault(inp.stem, inp)

    def stickerkit_outputs(size):
        report = work / "stickerkit" / str(size) / "report.json"
        found = {}
        if report.exists():
            for f in json.loads(report.read_text()).get("files", []):
                for o in f.get("outputs", []):
                    if o.get("path"):
                        found[str(Path(f["input"]).resolve())] = Path(o["path"])
        return found
    reported = {size: stickerkit_outputs(size) for size in sizes}

    def out_path(tool, size, inp):
        if tool == "stickerkit" and str(inp) in reported.get(size, {}):
            return reported[size][str(inp)]
        name = inp.stem if first_with_stem[inp.stem] == inp else inp.name
        if platform:
            found = sorted((work / tool / str(size)).glob(glob_escape(name) + ".*"))
            if found:
                return found[0]
        return work / tool / str(size) / (name + ".png")

    def run_sticker_convert(inp, out_base):
        """sticker-convert with the platform's preset on one input; its output copied to
        out_base + its own extension. Returns the exit status."""
        with tempfile.TemporaryDirectory(prefix="sc-") as tmp:
            src, dst = Path(tmp) / "in", Path(tmp) / "out"
            src.mkdir(); dst.mkdir()
            (src / inp.name).write_bytes(inp.read_bytes())
            r = subprocess.run([str(STICKER_CONVERT), "--no-confirm", "--no-progress", "--input-dir", str(src),
                                "--output-dir", str(dst), "--preset", a.platform], capture_output=True, text=True)
            made = sorted(f for f in dst.iterdir() if f.suffix.lower() in {".png", ".apng", ".webp", ".webm"})
            if made:
                (Path(str(out_base) + made[0].suffix.lower())).write_bytes(made[0].read_bytes())
            return r.returncode

    # peers: one process per (input, size), --jobs at a time.
    for peer in peers:
        for size in sizes:
            (work / peer / str(size)).mkdir(parents=True, exist_ok=True)
            t0 = time.time(); c0 = child_cpu()
            def run(inp, size=size, peer=peer):
                if a.reuse_peers and out_path(peer, size, inp).exists():
                    return 0
                if platform:
                    name = inp.stem if first_with_stem[inp.stem] == inp else inp.name
                    return run_sticker_convert(inp, work / peer / str(size) / name)
                env = dict(os.environ, LIMIT=str(limit))
                r = subprocess.run(["bash", f"{a.peer_dir}/run.sh", peer, str(inp), str(out_path(peer, size, inp)), str(size)],
                                   capture_output=True, text=True, env=env)
                return r.returncode
            missing = [i for i in inputs if not (a.reuse_peers and out_path(peer, size, i).exists())]
            if not missing:
                continue   # every output reused: keep the wall time saved with them
            with cf.ThreadPoolExecutor(a.jobs) as ex:
                list(ex.map(run, inputs))
            times[(peer, size)] = time.time() - t0
            cpu[(peer, size)] = child_cpu() - c0
            save_times()

    tools = ["stickerkit"] + peers
    if a.no_judge:
        print(f"\n{len(inputs)} inputs, budget {limit} bytes, work dir {work}")
        print(f"{'size':>5} {'tool':<16} {'files':>5} {'wall s':>8} {'files/s':>8} {'CPU s':>8} {'speed-up (wall)':>16} {'speed-up (CPU)':>15}")
        for size in sizes:
            ours, ours_cpu = times.get(("stickerkit", size)), cpu.get(("stickerkit", size))
            for tool in tools:
                t, c = times.get((tool, size)), cpu.get((tool, size))
                made = sum(1 for i in inputs if out_path(tool, size, i).exists())
                ratio = (t / ours) if (t and ours and tool != "stickerkit") else None
                cratio = (c / ours_cpu) if (c and ours_cpu and tool != "stickerkit") else None
                print(f"{size:>5} {tool:<16} {made:>5} {t or 0:>8.1f} {(made / t) if t else 0:>8.2f} {c or 0:>8.1f} "
                      f"{(f'{ratio:.1f}x') if ratio else '':>16} {(f'{cratio:.1f}x') if cratio else '':>15}")
        both = all_sizes_summary(together, peers, times, cpu, sizes)
        if a.json:
            summary = [dict(size=size, tool=tool, files=sum(1 for i in inputs if out_path(tool, size, i).exists()),
                            fails=None, mean_ssim=None, min_ssim=None, mean_psnr=None, mean_kb=None,
                            wall=times.get((tool, size)), cpu=cpu.get((tool, size)))
                       for size in sizes for tool in tools]
            write_measurement(a, inputs, sizes, limit, peers, summary, [], both)
        return

    # judge: one process per input with every output listed in a jobs file.
    def judge(inp):
        lines = []
        for tool in tools:
            for size in sizes:
                lines.append(f"{size}\t{out_path(tool, size, inp)}\t{tool}")
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
            f.write("\n".join(lines) + "\n")
            tsv = f.name
        judge_args = ["--limit", str(limit)]
        if platform:
            judge_args = ["--limit", str(platform["anim"] if is_animated(inp) else platform["still"]),
                          "--formats", platform["formats"]]
        r = subprocess.run([sys.executable, a.judge, str(inp), "--jobs", tsv, *judge_args],
                           capture_output=True, text=True)
        os.unlink(tsv)
        rows = []
        for line in r.stdout.splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                pass
        if not rows:
            sys.stderr.write(f"judge failed on {inp}: {r.stderr[-500:]}\n")
        return inp, rows
    results = {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for inp, rows in ex.map(judge, inputs):
            for row in rows:
                results[(row.get("peer"), row.get("size"), inp.name)] = row

    def val(row, k):
        v = row.get(k)
        return v if isinstance(v, (int, float)) else None

    print(f"\n{len(inputs)} inputs, budget {limit} bytes, work dir {work}")
    print(f"{'size':>5} {'tool':<16} {'files':>5} {'fails':>5} {'meanSSIM':>9} {'minSSIM':>8} {'meanPSNR':>8} {'meanKB':>7} {'wall s':>7} {'CPU s':>7}")
    summary = []
    for size in sizes:
        for tool in tools:
            rows = [results.get((tool, size, i.name)) for i in inputs]
            ok = [r for r in rows if r]
            ss = [val(r, "ssim") for r in ok if val(r, "ssim") is not None]
            ps = [val(r, "psnr") for r in ok if val(r, "psnr") is not None]
            by = [r.get("bytes") or r.get("output_bytes") or 0 for r in ok]
            fails = sum(1 for r in rows if not r or not r.get("contract_ok"))
            line = dict(size=size, tool=tool, files=len(ok), fails=fails,
                        mean_ssim=sum(ss) / len(ss) if ss else None, min_ssim=min(ss) if ss else None,
                        mean_psnr=sum(ps) / len(ps) if ps else None,
                        mean_kb=(sum(by) / len(by) / 1000) if by else None, wall=times.get((tool, size)),
                        cpu=cpu.get((tool, size)))
            summary.append(line)
            f = lambda v, p: ("%.*f" % (p, v)) if isinstance(v, (int, float)) else "-"
            print(f"{size:>5} {tool:<16} {len(ok):>5} {fails:>5} {f(line['mean_ssim'],4):>9} {f(line['min_ssim'],4):>8} "
                  f"{f(line['mean_psnr'],2):>8} {f(line['mean_kb'],1):>7} {f(line['wall'],1):>7} {f(line['cpu'],1):>7}")
    worse = []
    for size in sizes:
        for i in inputs:
            ours = results.get(("stickerkit", size, i.name))
            for peer in peers:
                theirs = results.get((peer, size, i.name))
                if ours and theirs and val(ours, "ssim") is not None and val(theirs, "ssim") is not None:
                    d = val(ours, "ssim") - val(theirs, "ssim")
                    if d < -0.01:
                        worse.append((size, i.name, peer, d))
    if worse:
        print("\nstickerkit more than 0.01 SSIM below a peer:")
        for w in worse:
            print(f"  {w[0]} {w[1]} vs {w[2]}: {w[3]:+.4f}")
    fails = [(k, r.get("fails")) for k, r in results.items() if k[0] == "stickerkit" and not r.get("contract_ok")]
    if fails:
        print("\nstickerkit contract failures:")
        for k, f in sorted(fails, key=lambda x: (x[0][1], x[0][2])):
            print(f"  {k[1]} {k[2]}: {f}")
    both = all_sizes_summary(together, peers, times, cpu, sizes)
    if a.json:
        files = [dict(v, tool=k[0], target_size=k[1], file=k[2]) for k, v in sorted(results.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2]))]
        write_measurement(a, inputs, sizes, limit, peers, summary, files, both)
    if baseline is not None:
        ours = {(s, i.name): val(results[("stickerkit", s, i.name)], "ssim") if ("stickerkit", s, i.name) in results else None
                for s in sizes for i in inputs}
        if below_baseline(ours, {k: v for k, v in baseline.items() if k in ours}, a.baseline, a.tolerance):
            sys.exit(1)


def load_baseline(spec):
    """SSIM by (size, file name) of stickerkit's stickers in a measurement file, or in REV:PATH."""
    path = Path(spec)
    if path.exists():
        data = json.loads(path.read_text())
    elif ":" in spec:
        data = json.loads(subprocess.run(["git", "-C", str(ROOT), "show", spec], check=True,
                                         capture_output=True, text=True).stdout)
    else:
        sys.exit(f"evaluate: no baseline file {spec}")
    return {(f["target_size"], f["file"]): f.get("ssim") for f in data.get("files", [])
            if f.get("tool") == "stickerkit" and f.get("ssim") is not None}


def below_baseline(ours, baseline, name, tolerance):
    """Prints the stickers whose SSIM moved against the baseline; True when one lost more than `tolerance`."""
    moved = sorted(((k, ours[k] - baseline[k]) for k in ours if k in baseline and ours[k] is not None
                    and abs(ours[k] - baseline[k]) >= 0.00001), key=lambda m: m[1])
    missing = sorted(k for k in baseline if k not in ours or ours[k] is None)
    lost = [m for m in moved if m[1] < -tolerance]
    same = sum(1 for k in baseline if ours.get(k) is not None and abs(ours[k] - baseline[k]) < 0.00001)
    print(f"\nagainst the baseline {name}: {same} stickers the same, "
          f"{sum(1 for m in moved if m[1] < 0)} lower, {sum(1 for m in moved if m[1] > 0)} higher; "
          f"{len(lost)} lower by more than {tolerance}")
    for (size, file), d in moved:
        print(f"  {'!' if d < -tolerance else ' '} {size} {file}: {baseline[(size, file)]:.5f} -> {ours[(size, file)]:.5f} ({d:+.5f})")
    for size, file in missing:
        print(f"  ! {size} {file}: in the baseline, not judged in this run")
    return bool(lost) or bool(missing)


def all_sizes_summary(together, peers, times, cpu, sizes):
    """The `--size all` run against each peer's per-size runs summed; printed, and for the measurement file."""
    if not together:
        return None
    out = dict(together, speedup=[])
    print(f"\nall {len(sizes)} sizes in one stickerkit run (--size all): {together['wall']:.1f} s wall, {together['cpu']:.1f} s CPU; "
          f"{together['identical']} of {together['stickers']} stickers byte-identical to the per-size runs'")
    for peer in peers:
        wall = [times.get((peer, s)) for s in sizes]
        c = [cpu.get((peer, s)) for s in sizes]
        if all(wall):
            row = dict(tool=peer, peer_wall=sum(wall), wall=sum(wall) / together["wall"],
                       peer_cpu=sum(c) if all(c) else None, cpu=(sum(c) / together["cpu"]) if all(c) and together["cpu"] else None)
            out["speedup"].append(row)
            print(f"  against {peer}'s per-size runs ({row['peer_wall']:.1f} s wall): {row['wall']:.1f}x the throughput"
                  + (f", CPU {row['cpu']:.1f}x" if row["cpu"] else ""))
    return out


def write_measurement(a, inputs, sizes, limit, peers, summary, files, together=None):
    """The run as a measurement file for Benchmarks/results/ (rendered by scripts/readme-tables)."""
    def row(size, tool):
        return next((r for r in summary if r["size"] == size and r["tool"] == tool), None)
    speedup = []
    for peer in peers:
        for size in sizes:
            ours, theirs = row(size, "stickerkit"), row(size, peer)
            if ours and theirs and ours.get("wall") and theirs.get("wall"):
                speedup.append(dict(size=size, tool=peer, wall=theirs["wall"] / ours["wall"],
                                    cpu=(theirs["cpu"] / ours["cpu"]) if ours.get("cpu") and theirs.get("cpu") else None))
    corpus = [Path(d).name for d in a.inputs]
    title = a.title or f"{' + '.join(corpus)} against {', '.join(peers) or 'no peer'}"
    argv = [os.path.relpath(sys.argv[0], ROOT) if Path(sys.argv[0]).resolve().is_relative_to(ROOT) else sys.argv[0], *sys.argv[1:]]
    data = resultfile.header("evaluate", title, argv)
    if a.platform:
        data.update(platform=a.platform)
    data.update(corpus=corpus, inputs=len(inputs), max_bytes=limit, jobs=a.jobs, sizes=sizes,
                summary=summary, speedup=speedup, files=files)
    if together:
        data.update(size_all=together)
    resultfile.write(a.json, data)
    print(f"\nmeasurement written to {a.json} (scripts/readme-tables renders the README from it)")


if __name__ == "__main__":
    main()
