import Foundation
import StickerKit

/// Accessibility labels from a file: CSV (`file,label` rows, RFC 4180 quoting, optional header
/// row) or JSON (`{"file": "label", …}` or `[{"file": …, "label": …}, …]`). A file is matched by
/// its path as given, then its file name, then its name without extension; exact case first,
/// then ignoring case.
public struct StickerLabels: Sendable, Equatable {
    /// Keys as written in the labels file → labels.
    public private(set) var entries: [String: String]

    /// Labels already in memory, keyed as a labels file would key them.
    public init(entries: [String: String]) { self.entries = entries }

    /// Parses a labels file. `fileName` picks JSON for `.json`; otherwise the content decides
    /// (JSON when it starts with `{` or `[`, else CSV).
    public init(data: [UInt8], fileName: String) throws {
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if fileName.lowercased().hasSuffix(".json") || trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            self.entries = try StickerLabels.parseJSON(Data(data), fileName: fileName)
        } else {
            self.entries = try StickerLabels.parseCSV(text, fileName: fileName)
        }
    }

    /// The label for a sticker source file, or nil.
    public func label(for path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        let forms = [path, name, stem]
        for key in forms { if let l = entries[key] { return l } }
        let keys = entries.keys.sorted() // deterministic when several keys match
        for form in forms {
            if let k = keys.first(where: { $0.caseInsensitiveCompare(form) == .orderedSame }) { return entries[k] }
        }
        // A key naming the same file with another extension (labels written for the source art).
        let bare = { (k: String) in ((k as NSString).lastPathComponent as NSString).deletingPathExtension }
        if let k = keys.first(where: { bare($0).caseInsensitiveCompare(stem) == .orderedSame }) { return entries[k] }
        return nil
    }

    static func parseJSON(_ data: Data, fileName: String) throws -> [String: String] {
        if let dict = try? JSONDecoder().decode([String: String].self, from: data) { return dict }
        struct Row: Decodable { var file: String; var label: String }
        if let rows = try? JSONDecoder().decode([Row].self, from: data) {
            return Dictionary(rows.map { ($0.file, $0.label) }, uniquingKeysWith: { _, b in b })
        }
        throw PackError.labelsNotAMapping(file: fileName)
    }

    static func parseCSV(_ text: String, fileName: String) throws -> [String: String] {
        let rows = try csvRows(text, fileName: fileName)
        var out: [String: String] = [:]
        for (i, row) in rows.enumerated() {
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            if i == 0, let first = row.first?.lowercased().trimmingCharacters(in: .whitespaces),
               ["file", "filename", "name", "path"].contains(first) { continue }
            guard row.count >= 2 else {
                throw PackError.labelsRowTooShort(file: fileName, line: i + 1, fields: row.count)
            }
            out[row[0].trimmingCharacters(in: .whitespaces)] = row[1]
        }
        return out
    }

    /// RFC 4180 rows: comma-separated, fields optionally in double quotes with "" for a quote;
    /// quoted fields may hold commas and line breaks.
    static func csvRows(_ text: String, fileName: String) throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var inQuotes = false
        var quotedField = false
        var chars = Array(text)
        chars.append("\n")
        var i = 0
        while i < chars.count {
            let c = chars[i]
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
            } else if c == "\n" || c == "\r\n" || c == "\r" {
                row.append(field); field = ""; quotedField = false
                rows.append(row); row = []
            } else {
                field.append(c)
            }
            i += 1
        }
        if inQuotes { throw PackError.labelsUnterminatedQuote(file: fileName) }
        if rows.last == [""] { rows.removeLast() }
        return rows
    }
}
