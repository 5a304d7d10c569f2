import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an HTML page showing stickers on Messages' backgrounds.",
        discussion: """
        Writes DIR/index.html and copies the stickers to DIR/stickers/: every sticker at its grid \
        size (pixels ÷ 3) over white, black, red, yellow, grey, a checkerboard and a photo, with \
        name, size, bytes, frames and the budget verdict of `check`; animations play. Folders are \
        searched recursively; a sticker catalog (.xcstickers) or pack (.stickerpack) is shown in \
        the pack's order with each sticker's accessibility label, and a .stickersequence plays as \
        one animation at its frame rate. A WhatsApp pack (.wastickers) is shown by its stickers \
        and tray icon, checked by WhatsApp's rules as `check` checks the pack, and a LINE upload \
        archive by its stickers, main.png and tab.png, checked by LINE's (findings about the pack \
        as a whole are warnings). With --png, also DIR/contact-sheet.png (first frames, same \
        layout). Files the previous preview wrote into DIR and this one does not are removed \
        (recorded in DIR/.stickerkit-preview.json; nothing else in DIR is touched). A file in the \
        way that preview did not write is replaced only with --overwrite; folders and links never \
        are. Preview folders are never read as stickers by any command.
        Exit status: 0 written, 1 some inputs failed — missing, or not a readable image (each \
        named on one line and shown by its check finding, not copied; the others are shown) — 2 \
        usage error (including a problem with -o, found before anything is written).
        """)

    @Argument(help: "Sticker files, folders or catalogs.", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output folder (created if missing).", completion: .directory)
    var output: String

    @Flag(name: .long, help: "Also write contact-sheet.png.")
    var png = false

    @Flag(name: .long, help: "Also replace files in the output folder that preview did not write (never folders, never links).")
    var overwrite = false

    @OptionGroup var budget: BudgetFlags

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// One sticker to show: where its bytes come from (read when it is shown), the name shown,
    /// what `check` found when that is known before (a catalog's stickers), and whether it comes
    /// from a catalog.
    struct Item {
        enum Source {
            case file(BytePath)
            /// A catalog's sequence: its frames, shown as one APNG.
            case sequence(frames: [String])
            /// A sticker (or a pack picture) inside a pack archive, by its entry name.
            case archiveEntry(archive: BytePath, entry: String)
        }
        var source: Source
        var name: String
        var report: StickerCheckReport?
        var inCatalog: Bool
    }

    func validate() throws {
        try PathArgument.requireNonEmpty(output, "-o", naming: "the output folder")
    }

    func run() throws {
        let rules = CheckRules(maxBytes: budget.bytes)
        let terminal = Terminal(quiet: quiet)
        try PathChecks.checkOutputFolder(CommandLineBytes.path(for: output), inputs: paths.map(CommandLineBytes.path(for:)))
        // A missing input or a folder without stickers is named and fails the run (exit 1); the
        // others are shown.
        var items: [Item] = []
        var failed = 0
        var seen = Set<InputDiscovery.SameInput>()
        for p in paths {
            let (shown, found) = PreviewInput.items(p, rules: rules, seen: &seen)
            CheckRun.Skipped(links: found.notices, outputs: found.skippedOutputs).show(on: terminal)
            for m in found.missing { terminal.error(CommandFailure.failed(m.path, m.reason).description) }
            if found.missing.isEmpty && shown.isEmpty && found.repeats == 0 {
                // A catalog without stickers.
                terminal.error(CommandFailure.failed(p, InputDiscovery.noImagesInFolder).description)
            }
            if !found.missing.isEmpty || (shown.isEmpty && found.repeats == 0) { failed += 1 }
            items += shown
        }
        if items.isEmpty { throw ExitCode(1) }

        let digits = max(3, String(items.count).count)
        let copies = items.enumerated().map { i, item in
            let n = String(i + 1)
            let copy = String(repeating: "0", count: digits - n.count) + n + "-" + StickerNaming.safeName(item.name)
            if case .sequence = item.source { return copy + ".png" } // a sequence's APNG
            return copy
        }
        let previous = PreviewRecord.read(in: output)
        // Copies go into DIR/stickers, which must be a real folder: nothing is written (or
        // removed) through a link.
        let stickersFolder = CommandLineBytes.path(for: output).appending("stickers")
        if let s = try? FileStatus.of(stickersFolder, followingLinks: false), s.kind != .directory {
            throw CommandFailure.usage(stickersFolder.display, "-o: is \(s.kind.noun), not a folder; stickerkit does not write through links "
                                       + "or replace what is not a file")
        }
        // The ownership model: only files an earlier preview wrote here (its record) are replaced
        // without --overwrite; this is known before anything is written.
        let planned = copies.map { "stickers/" + $0 } + ["index.html"] + (png ? ["contact-sheet.png"] : [])
        // An input is never written or removed, whatever the flags: not even a copy or a sheet an
        // earlier preview wrote here, shown again.
        let inputs = Set(items.flatMap { item -> [BytePath] in
            switch item.source {
            case .file(let path): [path]
            case .archiveEntry(let archive, _): [archive]
            case .sequence(let frames): frames.map(CommandLineBytes.path(for:))
            }
        }.compactMap { (try? FileStatus.of($0)) ?? nil }.map(\.id))
        for rel in Set(planned).union(previous.files).sorted() {
            let path = CommandLineBytes.path(for: output).appending(rel)
            if let s = (try? FileStatus.of(path, followingLinks: false)) ?? nil, inputs.contains(s.id) {
                throw CommandFailure.usage(path.display, "-o: is shown by this preview and is a file it would replace or remove; "
                                           + "choose another -o")
            }
        }
        if !overwrite {
            let theirs = planned.filter {
                !previous.files.contains($0)
                    && (try? FileStatus.of(CommandLineBytes.path(for: output).appending($0), followingLinks: false)) != nil
            }
            if !theirs.isEmpty {
                let named = theirs.prefix(3).joined(separator: ", ") + (theirs.count > 3 ? ", …" : "")
                throw CommandFailure.usage(output, "-o: holds \(theirs.count) file\(theirs.count == 1 ? "" : "s") preview did not write (\(named)); "
                                           + "choose another folder, or --overwrite to replace them")
            }
        }
        // The record is written first, so the folder is known as a preview (never taken as
        // artwork by a batch) from its first sticker copy on, and names what this run may write
        // beside what the last one wrote: a run stopped half way (interrupted, or a write that
        // fails) leaves copies the next run knows as its own. It is rewritten with what this run
        // wrote at the end. An interruption removes the file being written (`Interrupts`).
        let interrupts = Interrupts(terminal: terminal)
        defer { interrupts.stop() }
        try PreviewRecord(files: Array(Set(previous.files).union(planned)).sorted()).write(in: output)
        var written: [String] = []
        var entries: [PreviewPage.Entry] = []
        var sheet = ContactSheet()
        // One sticker at a time: read, checked, copied, drawn on the sheet, let go.
        for (item, copy) in zip(items, copies) {
            let shown = PreviewInput.load(item, rules: rules)
            if let failure = shown.failure {
                terminal.error(failure.description)
                failed += 1
            }
            let rel = "stickers/" + copy
            if let bytes = shown.bytes {
                try write(bytes, rel)
                written.append(rel)
            }
            let href = "stickers/" + (copy.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? copy)
            entries.append(PreviewPage.Entry(name: item.name, href: href, report: shown.report, inCatalog: item.inCatalog))
            if png {
                if let first = shown.firstFrame {
                    do { try sheet.add(file: first) } catch {
                        let why = LimitsError.memoryNeed(of: error).map { "decoding it " + $0 } ?? "\(error)"
                        terminal.warn(shown.report.path, "left out of the contact sheet: " + why)
                    }
                } else if shown.failure == nil {
                    terminal.warn(shown.report.path, "not read; left out of the contact sheet")
                }
            }
        }
        let title = "Stickers: " + paths.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        let page = PreviewPage(title: title, entries: entries, maxBytes: rules.maxBytes)
        try write(Array(page.html.utf8), "index.html")
        written.append("index.html")
        if !quiet { terminal.result("\((output as NSString).appendingPathComponent("index.html")): \(entries.count) sticker\(entries.count == 1 ? "" : "s")") }
        if png {
            try write(sheet.png(), "contact-sheet.png")
            written.append("contact-sheet.png")
            if !quiet { terminal.result("\((output as NSString).appendingPathComponent("contact-sheet.png")): \(sheet.width)×\(sheet.height)") }
        }
        let removed = previous.removeStale(keeping: Set(written), in: output)
        try PreviewRecord(files: written.sorted()).write(in: output)
        if removed > 0 && !quiet { terminal.result("\(removed) file\(removed == 1 ? "" : "s") of the previous preview removed") }
        if failed > 0 { throw ExitCode(1) }
    }

    /// Writes one file of the preview, or stops with one line naming the problem.
    private func write(_ bytes: [UInt8], _ rel: String) throws {
        let path = (output as NSString).appendingPathComponent(rel)
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw CommandFailure.failed(path, "cannot write: \(error.problem)")
        }
    }
}
