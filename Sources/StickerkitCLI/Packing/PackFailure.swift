import StickerPackaging

/// A `PackError` of `pack` or `icons` as one line with what the user can do about it. What the
/// check of the target finds before any work (a file or foreign folder where the catalog or icon
/// set goes, icons stickerkit did not make, a catalog file that does not read) is a usage error
/// (exit 2, `beforeWork`); a catalog file that stops reading later, or a write that failed, is a
/// failure (exit 1).
enum PackFailure {
    /// What the command writes, which decides the hint.
    enum Target {
        /// `pack`: a sticker catalog, and its icon set when `--icon` is given.
        case catalog
        /// `icons`: an icon set folder.
        case iconSet
    }

    /// `e` found by the check of the target, before anything was read or converted: a usage error.
    static func beforeWork(_ e: PackError, writing target: Target) -> CommandFailure {
        var failure = explain(e, writing: target)
        failure.kind = .usage
        return failure
    }

    static func explain(_ e: PackError, writing target: Target) -> CommandFailure {
        switch (e, target) {
        case let (.notACatalog(path, isFile), .catalog):
            .usage(path, "\(isFile ? "is a file" : "is a folder but not a sticker catalog"); "
                   + "pack writes only into catalogs (--overwrite replaces it)")
        case let (.notACatalog(path, _), .iconSet):
            .usage(path, "is a file, not an icon set folder; --overwrite replaces it")
        case let (.iconSetNotStickerkits(path, files), _):
            .usage(path, "holds icons stickerkit did not make (\(files.joined(separator: ", "))); "
                   + (target == .catalog ? "leave out --icon to keep them, or --overwrite to replace them" : "--overwrite replaces them"))
        case let (.unreadableCatalogFile(path, reason), _):
            .failed(path, "\(reason); fix it, or pack with --overwrite to replace the whole catalog")
        case let (.cannotWrite(path, reason), _):
            .failed(path, "cannot write (\(reason))")
        case let (.cannotReadSticker(path, reason), _):
            .failed(path, "cannot read the converted sticker (\(reason)); the catalog is left as it is, run pack again")
        default:
            .failed(nil, "\(e)")
        }
    }
}
