/// Something about a catalog write the user should know; each case carries the values its
/// message names.
public enum CatalogWarning: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The catalog has no `.stickersiconset`: Xcode's build fails without one.
    case noIconSet(catalog: String)
    /// The pack's grid size was `from` and is now `to`.
    case gridSizeChanged(from: String, to: String)
    /// A sticker stickerkit made from `source` was edited since: it is kept, not replaced.
    case editedKept(folder: String, source: String?)
    /// A sticker stickerkit made was edited since; its input is gone, but it is not pruned.
    case editedNotPruned(folder: String)
    /// Stickers stickerkit made from inputs not given this time: kept.
    case keptWithoutInput(folders: [String])
    /// Sticker folders in the pack that its Contents.json did not list: now listed.
    case unlistedNowListed(folders: [String])
    /// Contents.json listed these, but there is no such folder: dropped from the list.
    case missingDropped(folders: [String])
    /// A sticker stickerkit made from `source` was removed from the catalog since (its folder is
    /// gone); the artwork given brings it back.
    case removedAddedAgain(folder: String, source: String)
    /// The pack's order was set by hand (or by an earlier run's labels file): kept, and the
    /// stickers new to the pack, `appended`, follow it.
    case handOrderKept(appended: [String])

    public var description: String {
        switch self {
        case let .noIconSet(catalog):
            "no iMessage App Icon set: Xcode refuses to build a sticker pack without one "
                + "(\"None of the input catalogs contained a matching stickers icon set\"); add it with "
                + "stickerkit icons LOGO.png -o \(Self.quoted(catalog))"
        case let .gridSizeChanged(from, to):
            "grid size changed from \(from) to \(to): the pack's stickers are shown at \(to) size now"
        case let .editedKept(folder, source):
            "\(folder) was changed since stickerkit made it\(source.map { " from \($0)" } ?? ""): kept as it is "
                + "(--overwrite replaces it)"
        case let .editedNotPruned(folder):
            "\(folder) was changed since stickerkit made it: not pruned (--overwrite prunes it too)"
        case let .keptWithoutInput(folders):
            "\(Self.list(folders)): made by stickerkit from inputs not given this time; kept (--prune removes "
                + "\(folders.count == 1 ? "it" : "them"))"
        case let .unlistedNowListed(folders):
            "\(Self.list(folders)): in the pack but not in its Contents.json; now listed"
        case let .missingDropped(folders):
            "\(Self.list(folders)): listed in the pack's Contents.json but missing; dropped from the list"
        case let .removedAddedAgain(folder, source):
            "\(folder), made from \(source), was removed from the catalog since; added again (leave \(source) out "
                + "of the inputs to keep it out)"
        case let .handOrderKept(appended):
            "the pack's order was set by hand (in Xcode, or by an earlier --labels): kept, and \(Self.list(appended)) "
                + "follow\(appended.count == 1 ? "s" : "") it (--labels sets the order)"
        }
    }

    /// Up to five names, then "and N more".
    static func list(_ names: [String]) -> String {
        names.count <= 5 ? names.joined(separator: ", ") : names.prefix(5).joined(separator: ", ") + " and \(names.count - 5) more"
    }

    /// A path as a shell would need it.
    static func quoted(_ path: String) -> String {
        path.contains(where: { " '\"$`\\!*?()&;<>|#~".contains($0) }) ? "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'" : path
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
