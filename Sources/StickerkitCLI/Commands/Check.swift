import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check sticker files and folders against Messages' rules.",
        discussion: """
        Checks format (PNG/APNG recommended; GIF/JPEG accepted with a warning), square \
        300/408/618 px, the byte budget (a file over Messages' 500,000 bytes is a warning even \
        within a larger --max-kb), transparency, animation timing, and one size per folder. \
        Folders are searched recursively for image files.

        A sticker catalog (NAME.xcstickers, also when found in a folder) is checked against \
        Apple's Asset Catalog Format Reference: one sticker pack whose Contents.json has a \
        grid-size and lists every sticker folder, each listed folder present; each sticker's \
        Contents.json naming an image that is there, nothing unlisted beside it, the image checked \
        as above at the pack's grid size; a .stickersequence as one sticker (its timing keys, its \
        frames present and alike, their bytes together within the budget); the iMessage App Icon \
        set with every slot of Apple's table filled by an opaque PNG of exactly its size. Each \
        finding names its path inside the catalog. A .stickerpack folder is checked the same way \
        on its own.
        With --platform NAME (signal, whatsapp, telegram, discord, line), files are checked against \
        that app's rules instead: its container for stills and animations (WebM videos included), its \
        square size (LINE: within its box, even sides), its byte cap per kind, and for animations its \
        duration and frame-rate limits (LINE: 5–20 frames, 1–4 plays within 4 s). A file named as \
        one of the app's pack pictures is checked as that picture (tray.png, thumbnail.png or \
        thumbnail.webm, main.png, tab.png: its size and cap; both thumbnails in one folder are \
        warned of). A sticker \
        catalog is Messages' own: with --platform, one named is an error, one in a folder a warning.
        A WhatsApp pack archive (NAME.wastickers, or any file whose bytes are a ZIP archive; also \
        found in folders) is checked as a pack, with any --platform: 3 to 30 stickers, all stills \
        or all animations, each by WhatsApp's rules; the tray icon (tray.png, else the one PNG \
        inside: 96×96 within 50 KB); title.txt and author.txt, one line of at most 128 \
        characters each. A LINE upload archive (a file whose bytes are a ZIP archive holding \
        main.png or tab.png, as pack --platform line writes) is checked as a set, with any \
        --platform: 8, 16, 24, 32 or 40 stills or 8, 16 or 24 animations, never both, each by \
        LINE's rules and named 01.png to the set's count; main.png 240×240 (an APNG for animations) \
        and tab.png 96×74; the archive within 20 MB. Stored and deflated entries are read, each \
        checked against its CRC-32.
        Exit status: 0 when no errors were found, 1 otherwise (including a path that is missing or \
        a folder without images: each named on stderr, the others still checked), 2 usage error.
        """)

    @Argument(help: "Sticker files, folders or catalogs.", completion: .file())
    var paths: [String]

    @OptionGroup var budget: BudgetFlags
    @OptionGroup var platform: PlatformOption

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        let (report, failed, skipped) = platform.target.isMessages
            ? CheckRun.run(paths: paths, rules: CheckRules(maxBytes: budget.bytes))
            : CheckRun.run(paths: paths, target: platform.target)
        let terminal = Terminal(quiet: false)
        skipped.show(on: terminal)
        for f in failed { terminal.error(f.description) }
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try enc.encode(report), as: UTF8.self))
        } else if !(failed.count == paths.count) {
            print(CheckRun.table(report), terminator: "")
        }
        if report.errors > 0 || !failed.isEmpty { throw ExitCode(1) }
    }
}
