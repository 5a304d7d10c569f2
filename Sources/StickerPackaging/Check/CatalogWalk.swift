import Foundation

/// The state of one catalog check: where the catalog is, how to name a path inside it, and the
/// findings so far. Reads the Contents.json files, reporting what is missing or does not parse.
struct CatalogWalk {
    /// The catalog (or pack) folder.
    let root: URL
    /// How the user named it; every finding's path starts with it.
    let display: String
    var findings: [StickerFinding] = []

    init(_ path: String) {
        root = URL(fileURLWithPath: path)
        display = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    }

    /// `display/rel`.
    func shown(_ rel: String) -> String { rel.isEmpty ? display : display + "/" + rel }

    func url(_ rel: String) -> URL { rel.isEmpty ? root : root.appendingPathComponent(rel) }

    mutating func add(_ severity: StickerFinding.Severity, _ code: StickerFinding.Code, _ rel: String, _ message: String) {
        findings.append(StickerFinding(severity, code, message, path: shown(rel)))
    }

    /// Non-hidden entries of the folder `rel`, sorted naturally.
    func entries(_ rel: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url(rel).path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted(by: StickerNaming.precedes)
    }

    func isFolder(_ rel: String) -> Bool { CatalogFiles.isFolder(url(rel)) }

    func exists(_ rel: String) -> Bool { FileManager.default.fileExists(atPath: url(rel).path) }

    /// The JSON object in `rel`, or nil with a finding: a missing file is `missing` (a severity),
    /// invalid JSON or a non-object an error.
    mutating func object(_ rel: String, missing: StickerFinding.Severity, what: String) -> [String: Any]? {
        let read = BoundedRead.of(url(rel), limit: BoundedRead.maxJSONBytes)
        if case .tooLarge(let size) = read {
            add(.error, .invalidJSON, rel, BoundedRead.jsonTooLarge(size))
            return nil
        }
        if case .notAFile(let kind) = read {
            add(.error, .invalidJSON, rel, BoundedRead.notAFileMessage(kind) + ": Xcode cannot read it")
            return nil
        }
        guard let bytes = read.bytes else {
            add(missing, .missingContents, rel, "no Contents.json: \(what)")
            return nil
        }
        let data = Data(bytes)
        guard let any = try? JSONSerialization.jsonObject(with: data) else {
            add(.error, .invalidJSON, rel, "not valid JSON: Xcode cannot read it")
            return nil
        }
        guard let object = any as? [String: Any] else {
            add(.error, .invalidJSON, rel, "not a JSON object")
            return nil
        }
        checkInfo(object, rel)
        return object
    }

    /// `info`: a dictionary with `author` (a string) and `version` 1, in every Contents.json.
    mutating func checkInfo(_ object: [String: Any], _ rel: String) {
        guard let info = object["info"] as? [String: Any] else {
            add(.warning, .badKey, rel, object["info"] == nil ? "no \"info\" (author and version), which Xcode writes"
                                                                : "\"info\" is not a dictionary")
            return
        }
        if !(info["author"] is String) { add(.warning, .badKey, rel, "\"info\" has no \"author\" string") }
        if Self.number(info["version"]) != 1 { add(.warning, .badKey, rel, "\"info\".\"version\" is not 1") }
    }

    /// A JSON number as a Double.
    static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    /// `[{"filename": "…"}, …]` under `key`: the file names in order, or nil with a finding when
    /// the key is missing or malformed.
    mutating func fileList(_ object: [String: Any], _ key: String, _ rel: String) -> [String]? {
        guard let array = object[key] as? [Any] else {
            add(.error, .badKey, rel, object[key] == nil ? "no \"\(key)\" array" : "\"\(key)\" is not an array")
            return nil
        }
        var names: [String] = []
        for (i, item) in array.enumerated() {
            guard let name = (item as? [String: Any])?["filename"] as? String, !name.isEmpty else {
                add(.error, .badKey, rel, "\"\(key)\"[\(i)] has no \"filename\" string")
                continue
            }
            names.append(name)
        }
        return names
    }
}
