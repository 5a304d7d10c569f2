/// A platform's pack archive opened for checking (`WastickersChecker`, `LineSetChecker`): its
/// entries but folders and the metadata a Mac's Finder adds, or the finding that stops the check
/// (an archive that does not read, or one of more than `maxEntries` files, which is not read:
/// each could expand to the checkers' per-entry limit).
enum PackArchive {
    /// The reader and entries of the archive `bytes`, or nil with the finding that stops the check
    /// added to `findings`; `tooMany` words the finding for a count of files past `maxEntries`.
    static func open(_ bytes: [UInt8], maxEntries: Int, tooMany: (Int) -> String,
                     findings: inout [StickerFinding]) -> (reader: ZipReader, entries: [ZipEntry])? {
        let zip: ZipReader
        do { zip = try ZipReader(bytes) } catch {
            findings.append(StickerFinding(.error, .unreadable, "\(error)"))
            return nil
        }
        let entries = zip.entries.filter { !$0.isFolder && !$0.isFinderMetadata }
        if entries.count > maxEntries {
            findings.append(StickerFinding(.error, .stickerCount, tooMany(entries.count)))
            return nil
        }
        return (zip, entries)
    }
}
