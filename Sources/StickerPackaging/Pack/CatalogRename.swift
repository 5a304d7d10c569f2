/// A sticker whose folder is named otherwise than its source asked: characters a folder name
/// cannot hold were replaced (`Teddy Bear "Big"` → `Teddy Bear _Big_`), or the name was taken,
/// ignoring case, and a number was added (`Cat` → `Cat 2`).
public struct CatalogRename: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The sticker's source (an input path), when it has one.
    public var source: String?
    /// The name asked for.
    public var wanted: String
    /// The folder it got: "Cat 2.sticker".
    public var folder: String
    /// The folder that already had the name, when the rename is a collision.
    public var takenBy: String?

    /// "packed as Teddy Bear _Big_.sticker (a folder name cannot hold ")".
    public var description: String {
        let why = takenBy.map { "the name \(wanted) is taken by \($0)" } ?? "a folder name cannot hold \(Self.unsafe(in: wanted))"
        return "packed as \(folder) (\(why))"
    }

    /// The characters of `name` a folder name cannot hold, e.g. `" /`; or what else `safeName`
    /// dropped (leading dots, surrounding spaces).
    static func unsafe(in name: String) -> String {
        var seen: [String] = []
        for ch in name where StickerNaming.isForbidden(ch) {
            let shown = ch.unicodeScalars.allSatisfy { $0.value < 0x20 || $0.value == 0x7F } ? "control characters" : String(ch)
            if !seen.contains(shown) { seen.append(shown) }
        }
        return seen.isEmpty ? "leading dots or surrounding spaces" : seen.joined(separator: " ")
    }
}
