import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check sticker files and folders against Messages' rules.",
        discussion: """
        Checks format (PNG/APNG recommended; GIF/JPEG accepted with a warning), square \
        300/408/618 px, the byte budget, transparency, animation timing, and one size per folder. \
        Folders are searched recursively for image files; an .xcstickers catalog's icon set is \
        skipped. Exit status: 0 when no errors were found, 1 otherwise.
        """)

    @Argument(help: "Sticker files or folders.")
    var paths: [String]

    @OptionGroup var budget: BudgetFlags

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        let report = try CheckRun.run(paths: paths, rules: CheckRules(maxBytes: budget.bytes))
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try enc.encode(report), as: UTF8.self))
        } else {
            print(CheckRun.table(report), terminator: "")
        }
        if report.errors > 0 { throw ExitCode(1) }
    }
}
