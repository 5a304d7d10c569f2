import ArgumentParser
import Foundation
import StickerKit

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

/// A one-line error printed on stderr, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}

/// `--background` values: `#RRGGBB`, `RRGGBB` or a colour name.
enum ColorArgument {
    static let names: [String: RGBA] = [
        "white": RGBA(255, 255, 255), "black": RGBA(0, 0, 0), "red": RGBA(255, 0, 0), "yellow": RGBA(255, 255, 0),
        "grey": RGBA(128, 128, 128), "gray": RGBA(128, 128, 128), "blue": RGBA(0, 0, 255), "green": RGBA(0, 128, 0),
    ]

    static func parse(_ s: String) throws -> RGBA {
        if let c = names[s.lowercased()] { return c }
        let hex = s.hasPrefix("#") ? String(s.dropFirst()) : s
        guard hex.count == 6, let v = UInt32(hex, radix: 16) else {
            throw ValidationError("--background takes #RRGGBB or one of \(names.keys.sorted().joined(separator: ", ")) (got \"\(s)\")")
        }
        return RGBA(UInt8(v >> 16), UInt8(v >> 8 & 255), UInt8(v & 255))
    }
}
