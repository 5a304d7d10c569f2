import Foundation
import StickerPackaging

/// A labels file as `pack` uses it: each sticker's label and rank (its row's line), and, at the
/// end, what the user should know — rows that match no input or name one again, repeated keys,
/// stickers without a row.
struct LabelUse {
    let file: StickerLabels?
    private var matched = Set<Int>()
    private var withoutRow: [String] = []

    init(_ file: StickerLabels?) { self.file = file }

    /// The label (from the row, or derived from `name` when there is none or it is empty) and
    /// rank of the sticker made from `path`.
    mutating func use(_ path: String, name: String) -> (label: String, rank: Int?) {
        let row = file?.row(for: path)
        if let row { matched.insert(row.line) } else if file != nil { withoutRow.append((path as NSString).lastPathComponent) }
        return (file?.label(for: path) ?? StickerNaming.label(fromFileName: name), row?.line)
    }

    /// One message per thing to report, for inputs `given` (paths of files and frame folders).
    func warnings(given: [String]) -> [String] {
        guard let file else { return [] }
        var out = file.duplicates.map { d in "line \(d.row.line) repeats \(d.row.key) (line \(d.firstLine)); line \(d.firstLine) is used" }
        for row in file.rows where !matched.contains(row.line) {
            if let path = given.first(where: { file.matches(row, $0) }), let used = file.row(for: path) {
                out.append("line \(row.line) (\(row.key)) names \((path as NSString).lastPathComponent) again; line \(used.line) is used")
            } else {
                out.append("line \(row.line): \(row.key) matches no input")
            }
        }
        if !withoutRow.isEmpty {
            let names = withoutRow.count <= 5 ? withoutRow.joined(separator: ", ")
                                              : withoutRow.prefix(5).joined(separator: ", ") + " and \(withoutRow.count - 5) more"
            out.append("no row for \(names): " + (withoutRow.count == 1 ? "its label comes from its name, it follows"
                                                                        : "their labels come from their names, they follow") + " the listed stickers")
        }
        return out
    }
}
