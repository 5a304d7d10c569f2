import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

struct Icons: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make the iMessage app icon set from one image.",
        discussion: """
        Writes every entry of Apple's table (iPhone 29pt @2x/@3x, 60×45pt @2x/@3x; iPad 29pt @2x, \
        67×50pt @2x, 74×55pt @2x; Messages 27×20pt and 32×24pt @2x/@3x; App Store 1024×1024 and \
        1024×768), each an opaque PNG of exactly its size (transparency composited over \
        --background), with its Contents.json. --fit cover (default) fills every icon and crops the \
        overflow evenly; --fit contain shows the whole image, centred, padded with the background. \
        Warns when the source is not square, when icons are enlarged (a source under 1024 px), \
        when icons come out one flat colour (white artwork on white, or cropped away), and when \
        the source is an animation (the icons, like every still picture made from one, show its \
        first frame).

        When DIR does not end in .stickersiconset, the set is written to \
        DIR/iMessage App Icon.stickersiconset — so `-o My.xcstickers` adds it to a sticker catalog \
        (one it creates gets the catalog's Contents.json too). \
        The set is built beside its place and renamed into it; a set holding icons stickerkit does \
        not write is replaced only with --overwrite; one that holds these icons already is left \
        as it is ("icon set unchanged").
        With --platform whatsapp (a 96×96 tray icon, tray.png, ≤ 50 KB), telegram (a 100×100 pack \
        thumbnail, thumbnail.png; from an animation thumbnail.webm, a VP9 video within 32 KB) or \
        line (a 240×240 main image, main.png, an APNG when the image is an animation, and a 96×74 \
        chat tab image, tab.png), writes that app's pack pictures into \
        DIR instead: the whole image, transparent around it. They are recorded in DIR's manifest, as \
        resize records stickers: a later run replaces its own pictures (and removes its own \
        thumbnail of the other kind), and resize and pack never \
        take them for artwork; any other file there is replaced only when it is the same picture \
        or with --overwrite, and nothing is written while any picture would be refused.
        Exit status: 0 written, 1 the image could not be read, 2 usage error (e.g. DIR is a file).
        """)

    @Argument(help: "Source image (ideally square and at least 1024 px).", completion: .file())
    var image: String

    @Option(name: .shortAndLong, help: "Folder to write the icon set in, or the NAME.stickersiconset folder itself.",
            completion: .directory)
    var output: String

    @Option(name: .long, help: "Colour behind transparent pixels: #RRGGBB or a name (white, black, …).")
    var background: String = "white"

    @Option(name: .long, help: "cover: fill every icon, crop the overflow; contain: the whole image, padded with the background.")
    var fit: FitMode = .cover

    @Flag(name: .long, help: "Replace an icon set that holds icons stickerkit did not make.")
    var overwrite = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var platform: PlatformOption

    @Option(name: .customLong("max-memory"), help: ArgumentHelp(
        "Memory making the pictures may use, in MB. An image whose decode needs more is refused before decoding.",
        valueName: "MB"))
    var maxMemory: Int = Limits.defaultMemory / 1_000_000

    func validate() throws {
        try PathArgument.requireNonEmpty(image, "the image", naming: "an image file")
        try PathArgument.requireNonEmpty(output, "-o", naming: "the output folder")
        _ = try ColorArgument.parse(background)
        if !(1...1_000_000).contains(maxMemory) { throw ValidationError("--max-memory takes 1 to 1000000 MB") }
    }

    func run() throws {
        let limits = Limits(maxMemory: maxMemory * 1_000_000)
        let terminal = Terminal(quiet: quiet)
        // Ctrl-C: exit 130, the set or picture being written removed, whatever was there kept.
        let interrupts = Interrupts(terminal: terminal, outcome: "nothing half written is left (pictures finished before it are kept)")
        defer { interrupts.stop() }
        if !platform.target.isMessages {
            return try PlatformIconRun.run(image: image, output: output, target: platform.target, overwrite: overwrite,
                                           terminal: terminal, quiet: quiet, limits: limits)
        }
        let dir = Icons.iconSetPath(output)
        // Every path problem before the image is read: the folder the set goes in must be a
        // folder that can be written (or be created), and a set in place must be stickerkit's.
        let parent = output.hasSuffix(".stickersiconset") ? (output as NSString).deletingLastPathComponent : output
        if !parent.isEmpty { try PathChecks.checkOutputFolder(CommandLineBytes.path(for: parent), inputs: []) }
        try PathChecks.checkImage(image, outside: dir, flag: "the image")
        do {
            try IconSetFiles.checkTarget(dir, overwrite: overwrite)
        } catch let e as PackError {
            throw PackFailure.beforeWork(e, writing: .iconSet)
        }
        let set = try Icons.render(image, background: try ColorArgument.parse(background), fit: fit, limits: limits)
        for w in set.warnings { terminal.warn(image, w.description) }
        // A set already there byte for byte (a rerun with the same image) is left as it is.
        if set.isWritten(in: dir) {
            if !quiet { terminal.result("icon set unchanged: \(dir)") }
            return
        }
        do {
            try set.replace(dir, overwrite: overwrite)
        } catch let e as PackError {
            throw PackFailure.explain(e, writing: .iconSet)
        }
        if !quiet { terminal.result("\(set.slots.count) icons written to \(dir)") }
    }

    static func iconSetPath(_ output: String) -> String {
        output.hasSuffix(".stickersiconset") ? output : (output as NSString).appendingPathComponent(StickerCatalog.iconSetFolderName)
    }

    /// The icon set of the image at `path`, or one line naming why not (exit 1).
    static func render(_ path: String, background: RGBA, fit: FitMode, limits: Limits) throws -> IconSetFiles {
        let data = try PathChecks.readFile(CommandLineBytes.path(for: path), failing: .failed, limits: limits)
        do {
            return try IconSetFiles.render(file: data, background: background, fit: fit, limits: limits)
        } catch {
            throw CommandFailure.failed(path, "\(error)")
        }
    }
}
