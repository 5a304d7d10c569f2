import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Batches must never lose or damage work: unwritable or odd outputs fail clearly with inputs
/// untouched, interrupts leave no partial files and a rerun continues, outputs are bit-identical
/// whatever --jobs is.
final class BatchSafetyTests: XCTestCase {
    var tmp: URL!

    override func setUpWithError() throws {
        tmp = try CLI.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        if let tmp {
            _ = chmod(tmp.path, 0o755)
            try? FileManager.default.removeItem(at: tmp)
        }
    }

    // MARK: outputs that cannot be written

    func testOutputFolderThatCannotBeCreatedIsOneUsageErrorBeforeConverting() throws {
        let inputs = tmp.appendingPathComponent("in")
        try BatchSafety.stage(["oc_saxophone_palette.png", "oc_teddybear.png"], into: inputs)
        let before = try BatchSafety.snapshot(inputs)
        // A regular file where a folder of the output path should be: no user, root included, can write there.
        let blocker = tmp.appendingPathComponent("blocker")
        try Data("not a folder".utf8).write(to: blocker)
        let r = try CLI.run(["resize", inputs.path, "-o", blocker.appendingPathComponent("out").path, "--size", "small"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "one error, not one per input: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("\(blocker.lastPathComponent) is a file, not a folder"), "the error does not say why: \(r.stderr)")
        XCTAssertEqual(try BatchSafety.snapshot(inputs), before, "inputs changed")
        XCTAssertEqual(try Data(contentsOf: blocker), Data("not a folder".utf8))
        XCTAssertEqual(try BatchSafety.temporaries(tmp), [])
    }

    func testReadOnlyOutputFolderFailsClearlyAndLeavesInputsAlone() throws {
        let inputs = tmp.appendingPathComponent("in")
        try BatchSafety.stage(["oc_saxophone_palette.png"], into: inputs)
        let before = try BatchSafety.snapshot(inputs)
        let out = tmp.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(out.path, 0o555), 0)
        defer { _ = chmod(out.path, 0o755) }
        // As root (CI containers) permissions do not stop writes; the test above covers that case.
        let probe = out.appendingPathComponent("probe")
        if FileManager.default.createFile(atPath: probe.path, contents: Data()) {
            try? FileManager.default.removeItem(at: probe)
            throw XCTSkip("running as a user that may write into a 0555 folder (root)")
        }
        let r = try CLI.run(["resize", inputs.path, "-o", out.path, "--size", "small"])
        XCTAssertEqual(r.status, 2, "found before converting: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("\(out.path): error: -o: cannot write there: Permission denied"), r.stderr)
        XCTAssertEqual(try BatchSafety.snapshot(inputs), before, "inputs changed")
        XCTAssertEqual(try BatchSafety.snapshot(out), [:])
    }

    func testFullDiskFailsClearlyAndLeavesNoPartialFiles() throws {
        let inputs = tmp.appendingPathComponent("in"), out = tmp.appendingPathComponent("full")
        try BatchSafety.stage(["oc_teddybear.png", "noto_1f600_grinning_face_512.png"], into: inputs)
        let before = try BatchSafety.snapshot(inputs)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // A 12 KB tmpfs: needs root with CAP_SYS_ADMIN (true in this project's containers).
        guard try BatchSafety.system("/bin/mount", ["-t", "tmpfs", "-o", "size=12k", "tmpfs", out.path]) == 0 else {
            throw XCTSkip("cannot mount a small tmpfs here (not root, or no CAP_SYS_ADMIN)")
        }
        defer { _ = try? BatchSafety.system("/bin/umount", [out.path]) }

        let r = try CLI.run(["resize", inputs.path, "-o", out.path, "--size", "large"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("No space left on device"), r.stderr)
        XCTAssertTrue(r.stderr.contains("oc_teddybear.png: error: cannot write"), r.stderr)
        for (path, bytes) in try BatchSafety.snapshot(out) where path.hasSuffix(".png") {
            XCTAssertTrue(BatchSafety.isWholePNG(bytes), "\(path) is partial")
        }
        XCTAssertEqual(try BatchSafety.temporaries(out), [])
        XCTAssertEqual(try BatchSafety.snapshot(inputs), before, "inputs changed")
    }

    func testOutputPathThatIsAFolderFailsThatOutputOnly() throws {
        let inputs = tmp.appendingPathComponent("in"), out = tmp.appendingPathComponent("out")
        try BatchSafety.stage(["oc_saxophone_palette.png", "oc_teddybear.png"], into: inputs)
        let before = try BatchSafety.snapshot(inputs)
        let inTheWay = out.appendingPathComponent("oc_saxophone_palette.png")
        try FileManager.default.createDirectory(at: inTheWay, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: inTheWay.appendingPathComponent("keep.txt"))

        let r = try CLI.run(["resize", inputs.path, "-o", out.path, "--size", "small"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("oc_saxophone_palette.png: error:") && r.stderr.contains("is a folder"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: inTheWay.appendingPathComponent("keep.txt")), Data("keep me".utf8))
        let teddy = try Data(contentsOf: out.appendingPathComponent("oc_teddybear.png"))
        XCTAssertTrue(BatchSafety.isWholePNG(teddy), "the other input was not converted")
        XCTAssertEqual(try BatchSafety.snapshot(inputs), before, "inputs changed")
    }

    func testSameFolderForInputAndOutputNeverReplacesAnInput() throws {
        let dir = tmp.appendingPathComponent("art")
        try BatchSafety.stage(["oc_saxophone_palette.png", "maneki_neko_palette_3f.apng", "webp_gallery_dice_alpha.webp"], into: dir)
        let before = try BatchSafety.snapshot(dir)

        // The output folder is an input folder: refused before anything is read or written.
        let r = try CLI.run(["resize", dir.path, "-o", dir.path, "--size", "small", "--overwrite"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("is also an input folder"), r.stderr)
        XCTAssertEqual(try BatchSafety.snapshot(dir), before)

        // Files named one by one into their own folder: the PNG would be its own output, refused
        // by name even with --overwrite; the others get new files beside them.
        let files = ["oc_saxophone_palette.png", "maneki_neko_palette_3f.apng", "webp_gallery_dice_alpha.webp"].map { dir.appendingPathComponent($0).path }
        let r2 = try CLI.run(["resize"] + files + ["-o", dir.path, "--size", "small", "--overwrite"])
        XCTAssertEqual(r2.status, 1, r2.stderr)
        XCTAssertTrue(r2.stderr.contains("oc_saxophone_palette.png: error:") && r2.stderr.contains("would replace an input"), r2.stderr)
        let after = try BatchSafety.snapshot(dir)
        for (path, bytes) in before { XCTAssertEqual(after[path], bytes, "input \(path) changed") }
        XCTAssertTrue(BatchSafety.isWholePNG(after["webp_gallery_dice_alpha.png"] ?? Data()), "\(after.keys.sorted())")
        XCTAssertEqual(try BatchSafety.temporaries(dir), [])
    }

    // MARK: interrupts and reruns

    func testInterruptLeavesNoPartialFilesAndARerunContinues() throws {
        let inputs = tmp.appendingPathComponent("in"), out = tmp.appendingPathComponent("out")
        try BatchSafety.stage(BatchSafety.quickInputs, copies: 2, into: inputs)
        let before = try BatchSafety.snapshot(inputs)
        let total = 2 * BatchSafety.quickInputs.count
        let args = ["resize", inputs.path, "-o", out.path, "--size", "small", "--jobs", "1"]

        let logs = tmp.appendingPathComponent("run1")
        let p = try BatchSafety.start(args, logs: logs)
        try BatchSafety.interrupt(p, logs: logs, once: { !((try? BatchSafety.stickers(out)) ?? []).isEmpty })

        XCTAssertEqual(try BatchSafety.temporaries(out), [], "temporary files left after SIGINT")
        let finished = try BatchSafety.snapshot(out).filter { $0.key.hasSuffix(".png") }
        XCTAssertGreaterThanOrEqual(finished.count, 1)
        XCTAssertLessThan(finished.count, total, "nothing was left to do after the interrupt")
        for (path, bytes) in finished { XCTAssertTrue(BatchSafety.isWholePNG(bytes), "\(path) is partial") }

        // The rerun skips what is finished (same bytes) and does the rest.
        let report = tmp.appendingPathComponent("report.json")
        let r = try CLI.run(args + ["--report", report.path, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let outputs = try BatchSafety.reportOutputs(report)
        XCTAssertEqual(outputs.count, total)
        for (name, o) in outputs {
            if let old = finished[name] {
                XCTAssertEqual(o.status, "skipped", name)
                XCTAssertEqual(o.reason, "up to date", name)
                XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent(name)), old, "\(name) was rewritten")
            } else {
                XCTAssertEqual(o.status, "written", name)
            }
        }
        let all = try BatchSafety.snapshot(out).filter { $0.key.hasSuffix(".png") }
        XCTAssertEqual(all.count, total)
        for (path, bytes) in all { XCTAssertTrue(BatchSafety.isWholePNG(bytes), "\(path) is partial") }
        XCTAssertEqual(try BatchSafety.temporaries(out), [])
        XCTAssertEqual(try BatchSafety.snapshot(inputs), before, "inputs changed")
    }

    func testTerminateLeavesNoPartialFiles() throws {
        let inputs = tmp.appendingPathComponent("in"), out = tmp.appendingPathComponent("out")
        try BatchSafety.stage(BatchSafety.quickInputs, into: inputs)
        let p = try BatchSafety.start(["resize", inputs.path, "-o", out.path, "--size", "small", "--jobs", "2"],
                                      logs: tmp.appendingPathComponent("run"))
        let deadline = Date().addingTimeInterval(300)
        while p.isRunning, try BatchSafety.stickers(out).isEmpty, Date() < deadline { usleep(20_000) }
        XCTAssertTrue(p.isRunning, "the batch ended before it could be terminated")
        p.terminate()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 143)
        XCTAssertEqual(try BatchSafety.temporaries(out), [], "temporary files left after SIGTERM")
        for (path, bytes) in try BatchSafety.snapshot(out) where path.hasSuffix(".png") {
            XCTAssertTrue(BatchSafety.isWholePNG(bytes), "\(path) is partial")
        }
    }

    /// Ctrl-C while `pack` builds the new catalog beside the old one (here the tree of 20,000 files
    /// the user keeps in it): the half-built copy is removed there and then, not left hidden beside
    /// the catalog until a later run (an 800 MB copy was), and the catalog is as it was.
    func testInterruptWhileACatalogIsBuiltLeavesNoHalfBuiltCopy() throws {
        let art = tmp.appendingPathComponent("art"), catalog = tmp.appendingPathComponent("My.xcstickers")
        try BatchSafety.stage(["oc_saxophone_palette.png", "oc_teddybear.png"], into: art)
        let args = ["pack", art.path, "-o", catalog.path, "--cache", tmp.appendingPathComponent("cache").path, "--quiet", "--force"]
        XCTAssertEqual(try CLI.run(args).status, 0)
        // 20,000 files of the user's make the new catalog's tree take a while to build.
        let notes = catalog.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: false)
        for k in 0..<20_000 { XCTAssertTrue(FileManager.default.createFile(atPath: notes.appendingPathComponent("\(k).txt").path, contents: nil)) }
        let big = notes.appendingPathComponent("mine.txt")
        try Data("mine".utf8).write(to: big)
        func listing() -> Set<String> { Set(BatchSafety.paths(catalog)) }
        let before = listing()
        func beside() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []).filter { $0.hasPrefix(".My.xcstickers.") }
        }

        let logs = tmp.appendingPathComponent("run")
        let p = try BatchSafety.start(args, logs: logs)
        try BatchSafety.interrupt(p, logs: logs, once: { beside().contains { $0.hasPrefix(".My.xcstickers.tmp-") } })
        XCTAssertEqual(beside(), [], "the half-built catalog was left beside it")
        XCTAssertEqual(listing(), before)
        XCTAssertEqual(try Data(contentsOf: big).prefix(4), Data("mine".utf8))
    }

    func testForceChangedSettingsAndChangedInputsRedoTheWork() throws {
        let inputs = tmp.appendingPathComponent("in"), out = tmp.appendingPathComponent("out")
        try BatchSafety.stage(["oc_saxophone_palette.png", "oc_teddybear.png"], into: inputs)
        let report = tmp.appendingPathComponent("report.json")
        func run(_ extra: [String]) throws -> [String: String] {
            let r = try CLI.run(["resize", inputs.path, "-o", out.path, "--size", "small", "--quiet", "--report", report.path] + extra)
            XCTAssertEqual(r.status, 0, "\(extra): \(r.stderr)")
            return try BatchSafety.reportOutputs(report).mapValues { $0.status + ($0.reason.map { ": " + $0 } ?? "") }
        }
        let both = ["oc_saxophone_palette.png", "oc_teddybear.png"]
        func all(_ s: String) -> [String: String] { Dictionary(uniqueKeysWithValues: both.map { ($0, s) }) }

        XCTAssertEqual(try run([]), all("written"))
        XCTAssertEqual(try run([]), all("skipped: up to date"))
        XCTAssertEqual(try run(["--force"]), all("written"))
        XCTAssertEqual(try run(["--max-kb", "300"]), all("written"), "a changed --max-kb must redo the work")
        XCTAssertEqual(try run(["--max-kb", "300"]), all("skipped: up to date"))
        XCTAssertEqual(try run(["--max-kb", "300", "--fit", "cover"]), all("written"), "a changed --fit must redo the work")

        // A changed input is redone; the other stays.
        let teddy = inputs.appendingPathComponent("oc_teddybear.png")
        try FileManager.default.removeItem(at: teddy)
        try FileManager.default.copyItem(at: BatchSafety.samples.appendingPathComponent("noto_1f600_grinning_face_512.png"), to: teddy)
        let changed = try run(["--max-kb", "300", "--fit", "cover"])
        XCTAssertEqual(changed["oc_teddybear.png"], "written")
        XCTAssertEqual(changed["oc_saxophone_palette.png"], "skipped: up to date")
    }

    // MARK: determinism

    func testOutputsAreBitIdenticalWhateverJobsAndRun() throws {
        let inputs = tmp.appendingPathComponent("in")
        try BatchSafety.stage(BatchSafety.quickInputs + ["cogs_small_transparent.gif", "ring_200_6f.webp"], into: inputs)
        var results: [[String: Data]] = []
        for (k, jobs) in ["1", "2", "2"].enumerated() {
            let out = tmp.appendingPathComponent("out\(k)")
            let r = try CLI.run(["resize", inputs.path, "-o", out.path, "--size", "small", "--jobs", jobs, "--quiet"])
            XCTAssertEqual(r.status, 0, r.stderr)
            results.append(try BatchSafety.snapshot(out).filter { $0.key.hasSuffix(".png") })
        }
        XCTAssertEqual(results[0].count, BatchSafety.quickInputs.count + 2)
        for k in 1..<results.count {
            XCTAssertEqual(results[k].keys.sorted(), results[0].keys.sorted())
            for (name, bytes) in results[0] {
                XCTAssertEqual(results[k][name], bytes, "\(name) differs between run 1 (--jobs 1) and run \(k + 1)")
            }
        }
    }
}
