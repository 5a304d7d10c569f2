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
        1024×768), each an opaque PNG of exactly its size (cover fit, centred; transparency \
        composited over --background), with its Contents.json. When DIR does not end in \
        .stickersiconset, the set is written to DIR/iMessage App Icon.stickersiconset.
        """)

    @Argument(help: "Source image (ideally at least 1024 px; non-square images are cropped per entry).")
    var image: String

    @Option(name: .shortAndLong, help: "Output folder.")
    var output: String

    @Option(name: .long, help: "Colour behind transparent pixels: #RRGGBB or a name (white, black, …).")
    var background: String = "white"

    func validate() throws {
        _ = try ColorArgument.parse(background)
    }

    func run() throws {
        let dir = Icons.iconSetPath(output)
        let set = try Icons.render(image, background: try ColorArgument.parse(background))
        do {
            try set.write(into: dir)
        } catch {
            throw CommandFailure("\(dir): error: \(error)")
        }
        print("\(set.slots.count) icons written to \(dir)")
    }

    static func iconSetPath(_ output: String) -> String {
        output.hasSuffix(".stickersiconset") ? output : (output as NSString).appendingPathComponent(StickerCatalog.iconSetFolderName)
    }

    static func render(_ path: String, background: RGBA) throws -> IconSetFiles {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("\(path): error: cannot read the file")
        }
        do {
            return try IconSetFiles.render(try Artwork.firstFrame([UInt8](data)), background: background)
        } catch {
            throw CommandFailure("\(path): error: \(error)")
        }
    }
}
