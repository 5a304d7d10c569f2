import ArgumentParser
import Foundation
import StickerKit

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an HTML page showing stickers on Messages' backgrounds.",
        discussion: """
        Writes DIR/index.html and copies the stickers to DIR/stickers/: every sticker at its grid \
        size (pixels ÷ 3) over white, black, red, yellow, grey, a checkerboard and a photo, with \
        name, size, bytes, frames and the budget verdict of `check`; animations play. With --png, \
        also DIR/contact-sheet.png (first frames, same layout). Folders are searched recursively.
        """)

    @Argument(help: "Sticker files or folders.")
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output folder (created if missing).")
    var output: String

    @Flag(name: .long, help: "Also write contact-sheet.png.")
    var png = false

    @OptionGroup var budget: BudgetFlags

    func run() throws {
        let rules = CheckRules(maxBytes: budget.bytes)
        let fm = FileManager.default
        var files: [String] = []
        for p in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: p, isDirectory: &isDir) else { throw ValidationError("\(p): no such file or folder") }
            files += isDir.boolValue ? CheckRun.imageFiles(under: p) : [p]
        }
        if files.isEmpty { throw CommandFailure("no stickers found in \(paths.joined(separator: ", "))") }

        let stickersDir = (output as NSString).appendingPathComponent("stickers")
        try fm.createDirectory(atPath: stickersDir, withIntermediateDirectories: true)
        try AtomicFile.write([], to: (output as NSString).appendingPathComponent(PreviewMarker.fileName))
        var entries: [PreviewPage.Entry] = []
        var firstFrames: [Image] = []
        let digits = max(3, String(files.count).count)
        for (i, path) in files.enumerated() {
            guard let data = fm.contents(atPath: path) else { throw CommandFailure("\(path): error: cannot read the file") }
            let bytes = [UInt8](data)
            let name = (path as NSString).lastPathComponent
            let n = String(i + 1)
            let copy = String(repeating: "0", count: digits - n.count) + n + "-" + StickerNaming.safeName(name)
            try AtomicFile.write(bytes, to: (stickersDir as NSString).appendingPathComponent(copy))
            let href = "stickers/" + (copy.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? copy)
            entries.append(PreviewPage.Entry(name: name, href: href, report: StickerChecker.check(bytes, path: path, rules: rules)))
            if png {
                if let first = try? Artwork.firstFrame(bytes) {
                    firstFrames.append(first)
                } else {
                    FileHandle.standardError.write(Data("\(path): warning: cannot decode; left out of the contact sheet\n".utf8))
                }
            }
        }
        let page = PreviewPage(title: "Sticker preview", entries: entries, maxBytes: rules.maxBytes)
        let index = (output as NSString).appendingPathComponent("index.html")
        try AtomicFile.write(Array(page.html.utf8), to: index)
        print("\(index): \(entries.count) sticker\(entries.count == 1 ? "" : "s")")
        if png {
            let sheet = ContactSheet.render(firstFrames)
            let bytes = ContactSheet.png(sheet)
            let path = (output as NSString).appendingPathComponent("contact-sheet.png")
            try AtomicFile.write(bytes, to: path)
            print("\(path): \(sheet.width)×\(sheet.height)")
        }
    }
}
