import Foundation

/// The digest of a `.sticker` or `.stickersequence` folder: what its Contents.json says (the file
/// names, the label, the timing — not the formatting, which Xcode may rewrite) and the bytes of
/// every file in it. Equal digests mean nothing a user could see was changed.
enum StickerFolderDigest {
    /// The hash a digest is made with. Records are written with SHA-256; catalogs packed by
    /// earlier versions hold FNV-1a digests of the same fields, still accepted when reading.
    enum Hash {
        case sha256
        /// FNV-1a 64-bit (`ContentDigest`), 16 hex digits: the records of earlier versions.
        case fnv1a

        /// The hash a recorded digest was made with, told by its length.
        init(recorded digest: String) { self = digest.utf8.count == 16 ? .fnv1a : .sha256 }

        func hex(_ bytes: [UInt8]) -> String {
            switch self {
            case .sha256: return SHA256.hex(bytes)
            case .fnv1a:
                var d = ContentDigest()
                d.add(bytes)
                return d.hex
            }
        }
    }

    /// The folder's SHA-256 digest when it still matches `recorded` (made with either hash), so
    /// that an old record is upgraded on the next write; nil when it was edited or is gone.
    static func unchanged(folder url: URL, recorded: String) -> String? {
        let hash = Hash(recorded: recorded)
        guard of(folder: url, hash: hash) == recorded else { return nil }
        return hash == .sha256 ? recorded : of(folder: url)
    }

    /// The digest of the folder on disk, or nil when there is no such folder. Its files are
    /// hashed a megabyte at a time, never held whole: a file of any size may be put there.
    static func of(folder url: URL, hash: Hash = .sha256) -> String? {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else { return nil }
        let names = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix(".") && $0 != "Contents.json" }
        let json = BoundedRead.of(url.appendingPathComponent("Contents.json"), limit: BoundedRead.maxJSONBytes)
        let properties: [(String, String)]
        if case .tooLarge(let size) = json {
            properties = [("undecodable", "\(size) bytes")]
        } else {
            // A missing Contents.json reads as an empty one.
            properties = Self.properties(contentsJSON: Data(json.bytes ?? []), sequence: url.pathExtension == "stickersequence", hash: hash)
        }
        var d = Fields(hash)
        d.add(properties)
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            d.add(name)
            d.addFile(url.appendingPathComponent(name))
        }
        return d.hex()
    }

    /// The digest of a folder holding `files` and a Contents.json with `properties`.
    static func of(properties: [(String, String)], files: [(String, [UInt8])], hash: Hash = .sha256) -> String {
        var d = Fields(hash)
        d.add(properties)
        for (name, bytes) in files.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
            d.add(name)
            d.add(String(bytes.count))
            bytes.withUnsafeBytes { d.add($0) }
        }
        return d.hex()
    }

    /// What a sticker's Contents.json says, as key/value text.
    static func properties(_ c: CatalogContents.Sticker) -> [(String, String)] {
        [("kind", "sticker"), ("filename", c.properties.filename), ("label", c.properties.accessibilityLabel ?? "\u{0}")]
    }

    /// What a sequence's Contents.json says, as key/value text.
    static func properties(_ c: CatalogContents.Sequence) -> [(String, String)] {
        let p = c.properties
        return [("kind", "sequence"), ("label", p.accessibilityLabel ?? "\u{0}"), ("duration", String(p.duration)),
                ("duration-type", p.durationType), ("repetitions", String(p.repetitions)),
                ("frames", c.frames.map(\.filename).joined(separator: "\n"))]
    }

    /// The properties of a Contents.json file; one that does not decode is taken by its bytes.
    static func properties(contentsJSON data: Data, sequence: Bool, hash: Hash = .sha256) -> [(String, String)] {
        let decoder = JSONDecoder()
        if sequence, let c = try? decoder.decode(CatalogContents.Sequence.self, from: data) { return properties(c) }
        if !sequence, let c = try? decoder.decode(CatalogContents.Sticker.self, from: data) { return properties(c) }
        return [("undecodable", hash.hex([UInt8](data)))]
    }

    /// Fields laid end to end into one hash: each text followed by a byte no UTF-8 text
    /// contains, so that ("ab", "c") and ("a", "bc") differ; a file's bytes after its size.
    private struct Fields {
        private let sha: SHA256Stream?
        private var fnv: ContentDigest?

        init(_ hash: Hash) {
            sha = hash == .sha256 ? SHA256Stream() : nil
            fnv = hash == .fnv1a ? ContentDigest() : nil
        }

        mutating func add(_ properties: [(String, String)]) {
            for (key, value) in properties.sorted(by: { $0.0 < $1.0 }) {
                add(key)
                add(value)
            }
        }

        mutating func add(_ text: String) {
            var bytes = Array(text.utf8)
            bytes.append(0xFF)
            bytes.withUnsafeBytes { add($0) }
        }

        mutating func add(_ data: UnsafeRawBufferPointer) {
            sha?.update(data)
            fnv?.add(data)
        }

        /// The size of the file at `url` as text, then its bytes, read a megabyte at a time (a
        /// file that cannot be read adds size 0 and nothing, as an empty one).
        mutating func addFile(_ url: URL) {
            // The size first: opening a pipe waits for a writer, and a catalog may hold anything.
            guard let size = BoundedRead.regularFileSize(url), let handle = try? FileHandle(forReadingFrom: url) else {
                add("0")
                return
            }
            defer { try? handle.close() }
            add(String(size))
            var left = size
            while left > 0, let chunk = try? handle.read(upToCount: min(left, 1 << 20)), !chunk.isEmpty {
                chunk.withUnsafeBytes { add($0) }
                left -= chunk.count
            }
        }

        func hex() -> String { sha?.hex() ?? fnv!.hex }
    }
}
