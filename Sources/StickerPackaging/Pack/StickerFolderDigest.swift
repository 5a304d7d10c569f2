import Foundation

/// The digest of a `.sticker` or `.stickersequence` folder: what its Contents.json says (the file
/// names, the label, the timing — not the formatting, which Xcode may rewrite) and the bytes of
/// every file in it. Equal digests mean nothing a user could see was changed.
enum StickerFolderDigest {
    /// The digest of the folder on disk, or nil when there is no such folder.
    static func of(folder url: URL) -> String? {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else { return nil }
        let names = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix(".") && $0 != "Contents.json" }
        var files: [(String, [UInt8])] = []
        for name in names {
            files.append((name, [UInt8](fm.contents(atPath: url.appendingPathComponent(name).path) ?? Data())))
        }
        let json = fm.contents(atPath: url.appendingPathComponent("Contents.json").path) ?? Data()
        return of(properties: properties(contentsJSON: json, sequence: url.pathExtension == "stickersequence"), files: files)
    }

    /// The digest of a folder holding `files` and a Contents.json with `properties`.
    static func of(properties: [(String, String)], files: [(String, [UInt8])]) -> String {
        var d = ContentDigest()
        for (key, value) in properties.sorted(by: { $0.0 < $1.0 }) {
            d.add(key)
            d.add(value)
        }
        for (name, bytes) in files.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
            d.add(name)
            d.add(String(bytes.count))
            d.add(bytes)
        }
        return d.hex
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
    static func properties(contentsJSON data: Data, sequence: Bool) -> [(String, String)] {
        let decoder = JSONDecoder()
        if sequence, let c = try? decoder.decode(CatalogContents.Sequence.self, from: data) { return properties(c) }
        if !sequence, let c = try? decoder.decode(CatalogContents.Sticker.self, from: data) { return properties(c) }
        var d = ContentDigest()
        d.add(data)
        return [("undecodable", d.hex)]
    }
}
