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
        one animation at its frame rate. With --png, also DIR/contact-sheet.png (first frames, same \
        layout). Files the previous preview wrote into DIR and this one does not are removed \
        (recorded in DIR/.stickerkit-preview.json; nothing else in DIR is touched).
        """)

    @Argument(help: "Sticker files, folders or catalogs.", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output folder (created if missing).", completion: .directory)
    var output: String

    @Flag(name: .long, help: "Also write contact-sheet.png.")
    var png = false

    @OptionGroup var budget: BudgetFlags

    /// One sticker to show: its bytes (a sequence already made one APNG), the name shown, what
    /// `check` found, and whether it comes from a catalog.
    struct Item {
        var bytes: [UInt8]
        var name: String
        var report: StickerCheckReport
        var inCatalog: Bool
        /// The first frame, for the contact sheet.
        var firstFrame: [UInt8]
    }

    func run() throws {
        let rules = CheckRules(maxBytes: budget.bytes)
        if let problem = PathProblem.of(output, expecting: .folder), problem != "no such folder" {
            throw CommandExit.usage("\(output): error: \(problem); -o takes the folder to write the preview in")
        }
        var items: [Item] = []
        for p in paths {
            guard let kind = PreviewInput(p) else {
                throw CommandExit.usage("\(p): error: no such file or folder")
            }
            items += try kind.items(rules: rules)
        }
        if items.isEmpty { throw CommandExit.failure("stickerkit: no stickers found in \(paths.joined(separator: ", "))") }

        let previous = PreviewRecord.read(in: output)
        // The record is written first, so the folder is known as a preview (never taken as
        // artwork by a batch) from its first sticker copy on; it is rewritten with what this run
        // wrote at the end.
        try PreviewRecord(files: previous.files).write(in: output)
        var written: [String] = []
        var entries: [PreviewPage.Entry] = []
        var firstFrames: [Image] = []
        let digits = max(3, String(items.count).count)
        for (i, item) in items.enumerated() {
            let n = String(i + 1)
            var copy = String(repeating: "0", count: digits - n.count) + n + "-" + StickerNaming.safeName(item.name)
            if item.report.sequenceFrames != nil { copy += ".png" } // the sequence's APNG
            let rel = "stickers/" + copy
            try write(item.bytes, rel)
            written.append(rel)
            let href = "stickers/" + (copy.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? copy)
            entries.append(PreviewPage.Entry(name: item.name, href: href, report: item.report, inCatalog: item.inCatalog))
            if png {
                if let first = try? Artwork.firstFrame(item.firstFrame) {
                    firstFrames.append(first)
                } else {
                    FileHandle.standardError.write(Data("\(item.report.path): warning: cannot decode; left out of the contact sheet\n".utf8))
                }
            }
        }
        let title = "Stickers: " + paths.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        let page = PreviewPage(title: title, entries: entries, maxBytes: rules.maxBytes)
        try write(Array(page.html.utf8), "index.html")
        written.append("index.html")
        print("\((output as NSString).appendingPathComponent("index.html")): \(entries.count) sticker\(entries.count == 1 ? "" : "s")")
        if png {
            let sheet = ContactSheet.render(firstFrames)
            try write(ContactSheet.png(sheet), "contact-sheet.png")
            written.append("contact-sheet.png")
            print("\((output as NSString).appendingPathComponent("contact-sheet.png")): \(sheet.width)×\(sheet.height)")
        }
        let removed = previous.removeStale(keeping: Set(written), in: output)
        try PreviewRecord(files: written.sorted()).write(in: output)
        if removed > 0 { print("\(removed) file\(removed == 1 ? "" : "s") of the previous preview removed") }
    }

    /// Writes one file of the preview, or stops with one line naming the problem.
    private func write(_ bytes: [UInt8], _ rel: String) throws {
        let path = (output as NSString).appendingPathComponent(rel)
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw CommandExit.failure("\(path): error: \(error)")
        }
    }
}
