import Foundation

/// Names in a sticker catalog: file-system-safe folder names that keep the artist's wording,
/// accessibility labels derived from file names, and the catalog's sticker order.
public enum StickerNaming {
    /// A file or folder name safe on macOS, Linux and Windows file systems: path separators,
    /// `:*?"<>|` and control characters become "_", leading dots and surrounding spaces are
    /// dropped, Unicode is NFC-normalised and the result is at most 200 UTF-8 bytes. Spaces,
    /// apostrophes and non-ASCII letters are kept. Never empty ("sticker" instead).
    public static func safeName(_ name: String) -> String {
        var out = ""
        for ch in name.precomposedStringWithCanonicalMapping {
            if isForbidden(ch) {
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

    /// Whether a folder name cannot hold `ch`: a path separator, `:*?"<>|` or a control character.
    static func isForbidden(_ ch: Character) -> Bool {
        "/\\:*?\"<>|".contains(ch) || ch.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
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

    /// The catalog's sticker order when no labels file gives one: natural order, the order people
    /// expect — letters ignoring case, runs of digits by their value (`sticker2` before `sticker10`,
    /// `cat` before `cat 2`); ties broken by the names' UTF-8 bytes, so that the order never
    /// depends on the file system or the locale.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var i = a.lowercased().unicodeScalars.makeIterator(), j = b.lowercased().unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let p = x, let q = y {
            if isDigit(p) && isDigit(q) {
                var m: [Unicode.Scalar] = [], n: [Unicode.Scalar] = []
                while let d = x, isDigit(d) { m.append(d); x = i.next() }
                while let d = y, isDigit(d) { n.append(d); y = j.next() }
                // Compare the values without converting (runs may exceed any integer): drop leading
                // zeros, then the longer run is larger, then digit by digit.
                let u = m.drop(while: { $0 == "0" }), v = n.drop(while: { $0 == "0" })
                if u.count != v.count { return u.count < v.count }
                if let d = zip(u, v).first(where: { $0.0 != $0.1 }) { return d.0.value < d.1.value }
                continue
            }
            if p != q { return p.value < q.value }
            x = i.next()
            y = j.next()
        }
        if (x == nil) != (y == nil) { return x == nil }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

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
