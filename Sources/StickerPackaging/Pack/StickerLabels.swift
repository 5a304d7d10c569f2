import Foundation

/// Accessibility labels from a file: CSV (`file,label` rows, RFC 4180 quoting, optional header
/// row) or JSON (`{"file": "label", …}` or `[{"file": …, "label": …}, …]`). The rows keep the
/// file's order, which is the catalog's sticker order. A sticker's source is matched by its path
/// as given, then its file name, then its name without extension; exact case first, then
/// ignoring case, then a key naming the same file with another extension.
///
/// A row whose key repeats an earlier row's (ignoring case) is left out and listed in
/// `duplicates`: the first row of a key is the one used. An empty label is kept as a row (it
/// places the sticker) and means "derive the label from the name", as Messages falls back to the
/// sticker's name when no label is given.
public struct StickerLabels: Sendable, Equatable {
    /// One row of the labels file.
    public struct Row: Sendable, Equatable {
        /// The file the row names, as written.
        public var key: String
        /// The label; may be empty.
        public var label: String
        /// Where the row is: its 1-based line in a CSV file, its 1-based position in a JSON file.
        public var line: Int

        public init(key: String, label: String, line: Int) {
            self.key = key
            self.label = label
            self.line = line
        }
    }

    /// A row left out because an earlier row has the same key.
    public struct Duplicate: Sendable, Equatable {
        /// The repeated row.
        public var row: Row
        /// The line of the row that is used.
        public var firstLine: Int
    }

    /// The rows in file order, one per key.
    public private(set) var rows: [Row]
    /// Rows repeating an earlier key, in file order.
    public private(set) var duplicates: [Duplicate]

    /// Rows already in memory, in order; later repeats of a key are left out as in a file.
    public init(rows: [Row]) {
        var kept: [Row] = []
        var first: [String: Int] = [:]
        var duplicates: [Duplicate] = []
        for row in rows {
            if let line = first[row.key.lowercased()] {
                duplicates.append(Duplicate(row: row, firstLine: line))
            } else {
                first[row.key.lowercased()] = row.line
                kept.append(row)
            }
        }
        self.rows = kept
        self.duplicates = duplicates
    }

    /// The largest labels file read (4 MB: tens of thousands of rows). Its rows are parsed as
    /// text, several times its size in memory: a 1.5 GB file passed 24 GB before it was killed.
    public static let maxFileBytes = 4_000_000

    /// Parses a labels file. `fileName` picks JSON for `.json`; otherwise the content decides
    /// (JSON when it starts with `{` or `[`, else CSV).
    public init(data: [UInt8], fileName: String) throws {
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if fileName.lowercased().hasSuffix(".json") || trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            self.init(rows: try StickerLabels.parseJSON(text, fileName: fileName))
        } else {
            self.init(rows: try StickerLabels.parseCSV(text, fileName: fileName))
        }
    }

    /// The row for a sticker made from `path` (a file, or a frame folder), or nil: the first row
    /// matching its path as given, else its file name, else its name without extension (exact
    /// case first, then ignoring case), else naming the same file with another extension.
    public func row(for path: String) -> Row? {
        for tier in 0..<7 { if let r = rows.first(where: { Self.matches($0.key, path, tier: tier) }) { return r } }
        return nil
    }

    /// Whether `row` names the sticker made from `path` at all (by any of `row(for:)`'s rules).
    public func matches(_ row: Row, _ path: String) -> Bool {
        (0..<7).contains { Self.matches(row.key, path, tier: $0) }
    }

    /// The matching rules in order: path, name, stem exactly (tiers 0–2), then ignoring case (3–5),
    /// then the key's stem equal to the path's stem ignoring case (6).
    static func matches(_ key: String, _ path: String, tier: Int) -> Bool {
        let name = (path as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        let forms = [path, name, stem]
        switch tier {
        case 0...2: return key == forms[tier]
        case 3...5: return key.caseInsensitiveCompare(forms[tier - 3]) == .orderedSame
        default:
            let bare = ((key as NSString).lastPathComponent as NSString).deletingPathExtension
            return bare.caseInsensitiveCompare(stem) == .orderedSame
        }
    }

    /// The label for a sticker made from `path`: its row's label, or nil when there is no row or
    /// the row's label is empty.
    public func label(for path: String) -> String? {
        guard let r = row(for: path), !r.label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return r.label
    }

    // MARK: JSON

    /// `[{"file": …, "label": …}]` through the decoder; `{"file": "label"}` through `FlatJSONObject`,
    /// which keeps the keys' order (a decoded dictionary would lose it).
    static func parseJSON(_ text: String, fileName: String) throws -> [Row] {
        struct Entry: Decodable { var file: String; var label: String }
        if let entries = try? JSONDecoder().decode([Entry].self, from: Data(text.utf8)) {
            return entries.enumerated().map { Row(key: $0.element.file, label: $0.element.label, line: $0.offset + 1) }
        }
        guard let pairs = FlatJSONObject.parse(text) else { throw PackError.labelsNotAMapping(file: fileName) }
        return pairs.enumerated().map { Row(key: $0.element.key, label: $0.element.value, line: $0.offset + 1) }
    }

    // MARK: CSV

    static func parseCSV(_ text: String, fileName: String) throws -> [Row] {
        var out: [Row] = []
        for (i, row) in try csvRows(text, fileName: fileName).enumerated() {
            let fields = row.fields
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            if i == 0, let first = fields.first?.lowercased().trimmingCharacters(in: .whitespaces),
               ["file", "filename", "name", "path"].contains(first) { continue }
            guard fields.count >= 2 else {
                throw PackError.labelsRowTooShort(file: fileName, line: row.line, fields: fields.count)
            }
            out.append(Row(key: fields[0].trimmingCharacters(in: .whitespaces), label: fields[1], line: row.line))
        }
        return out
    }

    /// RFC 4180 rows with the 1-based line each starts on: comma-separated, fields optionally in
    /// double quotes with "" for a quote; quoted fields may hold commas and line breaks.
    static func csvRows(_ text: String, fileName: String) throws -> [(fields: [String], line: Int)] {
        var rows: [(fields: [String], line: Int)] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var quotedField = false
        var line = 1, rowLine = 1
        var chars = Array(text)
        chars.append("\n")
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let isBreak = c == "\n" || c == "\r\n" || c == "\r"
            if inQuotes {
                if c == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" { field.append("\""); i += 1 } else { inQuotes = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" && field.isEmpty && !quotedField {
                inQuotes = true
                quotedField = true
            } else if c == "," {
                row.append(field); field = ""; quotedField = false
            } else if isBreak {
                row.append(field); field = ""; quotedField = false
                rows.append((row, rowLine)); row = []
                rowLine = line + 1
            } else {
                field.append(c)
            }
            if isBreak { line += 1 }
            i += 1
        }
        if inQuotes { throw PackError.labelsUnterminatedQuote(file: fileName) }
        if let last = rows.last, last.fields == [""] { rows.removeLast() }
        return rows
    }
}
