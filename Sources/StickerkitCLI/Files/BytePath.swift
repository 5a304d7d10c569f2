/// A file path as the file system stores it: any bytes but NUL. File names need not be UTF-8
/// (an archive made on another system may hold Latin-1 names), and a `String` cannot hold such a
/// name without losing bytes, so every path the CLI opens, creates or compares is a `BytePath`.
/// `display` is the form for messages; `string` the form for JSON when the bytes are UTF-8.
struct BytePath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    private(set) var bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }
    init(_ string: String) { bytes = Array(string.utf8) }

    static let slash = UInt8(ascii: "/")
    static let dot = UInt8(ascii: ".")

    var isEmpty: Bool { bytes.isEmpty }
    var isAbsolute: Bool { bytes.first == Self.slash }

    /// The path as a Swift string, when its bytes are UTF-8.
    var string: String? { MessageText.isUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil }

    /// The path for a message: UTF-8 as it is, every other byte as `\xHH`, and characters that
    /// would break a line or reorder it on screen escaped (see `MessageText`).
    var display: String { MessageText.escape(bytes: bytes) }

    var description: String { display }

    /// `self/other`, or `other` when it is absolute or `self` is empty.
    func appending(_ other: BytePath) -> BytePath {
        if other.isAbsolute || isEmpty { return other }
        if other.isEmpty { return self }
        return BytePath(bytes: bytes.last == Self.slash ? bytes + other.bytes : bytes + [Self.slash] + other.bytes)
    }

    func appending(_ component: String) -> BytePath { appending(BytePath(component)) }

    /// The non-empty parts between slashes.
    var components: [BytePath] {
        bytes.split(separator: Self.slash).map { BytePath(bytes: Array($0)) }
    }

    /// The last component (`cat.png` of `art/cat.png`), or the path itself when it has none.
    var lastComponent: BytePath { components.last ?? self }

    /// Everything before the last component: `art` for `art/cat.png`, `` for `cat.png`, `/` for
    /// `/cat.png`.
    var parent: BytePath {
        var end = bytes.count
        while end > 1 && bytes[end - 1] == Self.slash { end -= 1 }
        guard let slash = bytes[..<end].lastIndex(of: Self.slash) else { return BytePath(bytes: []) }
        if slash == 0 { return BytePath("/") }
        var cut = slash
        while cut > 1 && bytes[cut - 1] == Self.slash { cut -= 1 }
        return BytePath(bytes: Array(bytes[..<cut]))
    }

    /// Where the extension's dot is in `bytes`: in the last component, not its first byte (a
    /// hidden name), and not its last.
    private var extensionDot: Int? {
        let start = (bytes.lastIndex(of: Self.slash) ?? -1) + 1
        guard let dot = bytes[start...].lastIndex(of: Self.dot), dot > start, dot < bytes.count - 1 else { return nil }
        return dot
    }

    /// The extension in lower case (`png` of `Cat.PNG`), empty when there is none. Extensions that
    /// name a format are ASCII; another extension is compared by its bytes.
    var lowercasedExtension: String {
        guard let dot = extensionDot else { return "" }
        return String(decoding: bytes[(dot + 1)...], as: UTF8.self).lowercased()
    }

    /// The path without its extension: `sub/cat` for `sub/cat.png`.
    var deletingExtension: BytePath {
        guard let dot = extensionDot else { return self }
        return BytePath(bytes: Array(bytes[..<dot]))
    }

    /// `self` followed by `suffix` in the same component: `cat.gif` + `.png`.
    func appendingSuffix(_ suffix: String) -> BytePath { BytePath(bytes: bytes + Array(suffix.utf8)) }

    /// `self` relative to `base` when it lies inside it (`base/x/y` → `x/y`), else nil.
    func relative(to base: BytePath) -> BytePath? {
        let prefix = base.bytes.last == Self.slash ? base.bytes : base.bytes + [Self.slash]
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
        return BytePath(bytes: Array(bytes[prefix.count...]))
    }

    /// Lexically cleaned: no empty or `.` components, `..` folded where a component precedes it.
    /// Symbolic links are not resolved (the same file may have several clean paths).
    var standardized: BytePath {
        var out: [BytePath] = []
        for c in components {
            if c.bytes == [Self.dot] { continue }
            if c.bytes == [Self.dot, Self.dot], let last = out.last, last.bytes != [Self.dot, Self.dot] {
                out.removeLast()
                continue
            }
            if c.bytes == [Self.dot, Self.dot] && isAbsolute { continue }
            out.append(c)
        }
        var joined: [UInt8] = isAbsolute ? [Self.slash] : []
        for (i, c) in out.enumerated() {
            if i > 0 { joined.append(Self.slash) }
            joined += c.bytes
        }
        if joined.isEmpty { joined = [Self.dot] }
        return BytePath(bytes: joined)
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        let path = bytes.isEmpty ? [Self.dot, 0] : bytes + [0]
        return try path.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// Byte order: the order inputs are converted and reported in.
    static func < (a: BytePath, b: BytePath) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}
