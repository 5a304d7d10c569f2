import Foundation
import StickerKit

/// Names in a sticker catalog: file-system-safe folder names that keep the artist's wording,
/// accessibility labels derived from file names, and the catalog's sticker order.
public enum StickerNaming {
    /// A file or folder name safe on macOS, Linux and Windows file systems: path separators,
    /// `:*?"<>|` and control characters become "_", leading dots and surrounding spaces are
    /// dropped, Unicode is NFC-normalised and the result is at most 200 UTF-8 bytes. Spaces,
    /// apostrophes and non-ASCII letters are kept. Never empty ("sticker" instead).
    public static func safeName(_ name: String) -> String {
        let forbidden = Set("/\\:*?\"<>|")
        var out = ""
        for ch in name.precomposedStringWithCanonicalMapping {
            if forbidden.contains(ch) || ch.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                out.append("_")
            } else {
                out.append(ch)
            }
        }
        out = out.trimmingCharacters(in: .whitespaces)
        while out.hasPrefix(".") { out.removeFirst() }
        while out.hasSuffix(".") || out.hasSuffix(" ") { out.removeLast() }
        while out.utf8.count > 200 { out.removeLast() }
        return out.isEmpty ? "sticker" : out
    }

    /// A label read aloud by VoiceOver, from a file name: extension dropped, "_" and "-" read
    /// as spaces, runs of spaces collapsed, first letter capitalised: `happy_cat-2.png` → "Happy cat 2".
    public static func label(fromFileName fileName: String) -> String {
        let stem = (fileName as NSString).deletingPathExtension
        let spaced = stem.map { $0 == "_" || $0 == "-" ? " " : String($0) }.joined()
        let words = spaced.split(whereSeparator: { $0.isWhitespace })
        if words.isEmpty { return stem }
        let s = words.joined(separator: " ")
        return s.prefix(1).uppercased() + s.dropFirst()
    }

    /// The catalog's documented sticker order: by name ignoring case, ties broken by the
    /// names' UTF-8 bytes, so that the order never depends on the file system or locale.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let la = a.lowercased(), lb = b.lowercased()
        if la != lb { return la.utf8.lexicographicallyPrecedes(lb.utf8) }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// `names` made unique ignoring case (macOS file systems ignore case) by appending " 2",
    /// " 3", …, keeping the first of each set unchanged.
    static func unique(_ names: [String]) -> [String] {
        var taken = Set<String>()
        var out: [String] = []
        for name in names {
            var candidate = name
            var n = 2
            while taken.contains(candidate.lowercased()) {
                candidate = "\(name) \(n)"
                n += 1
            }
            taken.insert(candidate.lowercased())
            out.append(candidate)
        }
        return out
    }
}
