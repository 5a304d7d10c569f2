import ArgumentParser
import StickerKit

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
