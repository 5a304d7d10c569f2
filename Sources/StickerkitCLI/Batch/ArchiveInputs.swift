import StickerKit
import StickerPackaging

/// A WhatsApp pack (`.wastickers`), or any ZIP archive of artwork, given to `resize`: each image
/// in it is an input of its own (`InputFile.entry`), read from the archive when its job starts,
/// so a pack made for one app converts for another (`resize Cats.wastickers --platform
/// telegram`) or for Messages.
///
/// Taken: every entry named as an image stickerkit reads. Passed over: the pack's pictures (the
/// file names of every app's `StickerTarget.packIcons`: `tray.png`, `thumbnail.png`, `main.png`,
/// `tab.png`; in a WhatsApp pack without a `tray.png`, the one PNG beside WebP stickers, as
/// `WastickersChecker` finds the tray), its `title.txt` and `author.txt`, folders, Finder
/// metadata and any other file. Outputs go in a folder named after the archive (`Cats/01.png` in
/// `-o`), the entry's own folders kept, with empty, `.` and `..` components dropped so that no
/// name in an archive reaches outside `-o`. An archive is refused whole (`Problem`) when it
/// cannot be read, holds no image, or passes the bounds below.
enum ArchiveInputs {
    /// The most images taken from one archive: every job reads the archive's directory again for
    /// its entry, and `check` reads them all at once, so this and `maxArchiveBytes` bound the
    /// batch's reading (a sticker pack holds 30 to 200).
    static let maxImages = 256
    /// The largest archive opened (64 MiB; a WhatsApp pack of 30 stickers is at most 15 MB).
    static let maxArchiveBytes = 64 << 20

    /// Whether the file at `location` is a ZIP archive, by its first bytes.
    static func isArchive(_ location: BytePath) -> Bool {
        FileSystem.readHead(location, count: 4).map(ZipReader.opensAsZip) ?? false
    }

    /// The platform whose pack archive stickerkit wrote at `location` (WhatsApp's `.wastickers`,
    /// `WastickersPack.marker`; LINE's upload archive, `LinePack.marker`: the comment at the
    /// archive's end, so only the end is read, whatever the file's size), or nil.
    static func stickerkitPack(at location: BytePath) -> StickerTarget? {
        guard let tail = FileSystem.readTail(location, count: WastickersPack.markerTailBytes) else { return nil }
        if WastickersPack.isStickerkitArchive(tail) { return .whatsapp }
        if LinePack.isStickerkitArchive(tail) { return .line }
        return nil
    }

    /// The inputs the archive `archive` holds, or why it cannot be read (one line). A name the
    /// archive gives to more than one image is read from its first entry, the others named in
    /// `notices`.
    static func inputs(of archive: InputFile, limits: Limits, notices: inout [Notice]) -> Result<[InputFile], Problem> {
        let reader: ZipReader
        switch read(archive.location, limits: limits) {
        case .success(let z): reader = z
        case .failure(let why): return .failure(why)
        }
        let folder = archive.relative.deletingExtension
        let (images, repeated) = firstOfEachName(candidates(in: reader, archive: archive.location))
        var inputs: [InputFile] = []
        for e in images {
            let parts = e.name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).map(String.init).filter { $0 != "." && $0 != ".." }
            guard !parts.isEmpty else { continue }
            inputs.append(InputFile(location: archive.location, relative: folder.appending(parts.joined(separator: "/")),
                                    id: archive.id, entry: e.name))
        }
        if let problem = beyondBounds(reader, images: inputs.count, archiveBytes: reader.byteCount) { return .failure(problem) }
        if inputs.isEmpty {
            return .failure(.noImage)
        }
        for name in repeated {
            notices.append(Notice(archive.location.appending(name), "skipped: another entry of the archive has this name; its first is read"))
        }
        return .success(inputs.sorted { $0.relative < $1.relative })
    }

    /// Why an archive with `images` images to take is not read, if it is not: more images than
    /// `maxImages`, or entries that share their data (central directory records pointing into
    /// one another's bytes, a ZIP bomb's trick: many inputs of one small file).
    static func beyondBounds(_ reader: ZipReader, images: Int, archiveBytes: Int) -> Problem? {
        if archiveBytes > maxArchiveBytes { return .tooLarge(archiveBytes) }
        if images > maxImages { return .tooManyImages(images) }
        let laidOut = reader.entries.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (a, b) in Swift.zip(laidOut, laidOut.dropFirst()) where a.localHeaderOffset + 30 + a.compressedSize > b.localHeaderOffset {
            return .overlappingEntries
        }
        return nil
    }

    /// Whether the archive at `archive` holding `reader`'s entries is a WhatsApp pack: named so,
    /// or holding its title, author or tray icon. Any other ZIP is artwork (or another app's
    /// stickers), its images taken one by one.
    static func isWhatsAppPack(_ archive: BytePath, _ reader: ZipReader) -> Bool {
        let marks = [WastickersPack.titleName, WastickersPack.authorName, WastickersPack.trayName]
        return archive.lowercasedExtension == "wastickers" || reader.entries.contains { marks.contains($0.fileName.lowercased()) }
    }

    /// The entries of `reader` (the archive at `archive`) that are images to take, in archive
    /// order: named as an image stickerkit reads, not a pack picture, not the tray of a WhatsApp
    /// pack; of two entries with one name (read by name), the first.
    static func images(in reader: ZipReader, archive: BytePath) -> [ZipEntry] {
        firstOfEachName(candidates(in: reader, archive: archive)).first
    }

    /// `entries` without those whose name an earlier one has (entries are read by name, so only
    /// the first of each is taken), and the names that repeat, each once, in archive order.
    private static func firstOfEachName(_ entries: [ZipEntry]) -> (first: [ZipEntry], repeated: [String]) {
        var seen = Set<String>(), first: [ZipEntry] = [], repeated: [String] = []
        for e in entries {
            if seen.insert(e.name).inserted { first.append(e) } else if !repeated.contains(e.name) { repeated.append(e.name) }
        }
        return (first, repeated)
    }

    /// `images(in:archive:)` before entries of a name already met are dropped.
    private static func candidates(in reader: ZipReader, archive: BytePath) -> [ZipEntry] {
        let entries = reader.entries.filter { !$0.isFolder && !$0.isFinderMetadata && !$0.name.utf8.contains(0) }
        // A pack's pictures (WhatsApp's tray.png, Telegram's thumbnail.png, LINE's main.png and
        // tab.png) are not stickers; nor, in a WhatsApp pack, the one PNG beside WebP stickers
        // (sticker-convert's cover.png is the tray of its WhatsApp packs). In any other ZIP of
        // artwork a PNG beside WebPs is a sticker like the others.
        let pictures = Set(StickerTarget.all.flatMap { t in t.packIcons.flatMap { t.fileNames(of: $0) } }.map { $0.lowercased() })
        let images = entries.filter {
            ImageFormat.readableExtensions.contains(extensionOf($0.fileName)) && !pictures.contains($0.fileName.lowercased())
        }
        let pngs = images.filter { extensionOf($0.fileName) == "png" }
        let hasWebP = images.contains { extensionOf($0.fileName) == "webp" }
        let hasTray = entries.contains { $0.fileName.lowercased() == WastickersPack.trayName }
        let trayEntry = isWhatsAppPack(archive, reader) && !hasTray && hasWebP && pngs.count == 1 ? pngs[0].name : nil
        return images.filter { $0.name != trayEntry }
    }

    /// The bytes of the entry `input` names, read from its archive (its directory and the
    /// entry's bytes).
    static func bytes(of input: InputFile, limits: Limits) -> Result<[UInt8], Problem> {
        guard let name = input.entry else { return .failure(.entryGone(input.location.display)) }
        return bytes(ofEntry: name, in: input.location, limits: limits)
    }

    /// The bytes of the entry `name` of the archive at `archive`, read as `resize` reads them
    /// (the archive within `maxArchiveBytes`, the entry within what one input may hold): its
    /// directory and the entry's own bytes, never the whole archive.
    static func bytes(ofEntry name: String, in archive: BytePath, limits: Limits) -> Result<[UInt8], Problem> {
        let zip: ZipReader
        switch read(archive, limits: limits) {
        case .success(let z): zip = z
        case .failure(let why): return .failure(why)
        }
        guard let entry = zip.entries.first(where: { $0.name == name }) else {
            return .failure(.entryGone(archive.display))
        }
        do {
            return .success(try contents(of: entry, in: zip, limits: limits, from: archive))
        } catch {
            return .failure(.unreadable("\(error)"))
        }
    }

    /// The extension of each of `entries`' stickers for `target` (its still or animated
    /// container, told by the entry's outline), each archive's directory read once. An entry
    /// that cannot be read gets the still container's (its job names why it fails).
    static func fileExtensions(of entries: [InputFile], target: StickerTarget, limits: Limits) -> [InputFile: String] {
        var found: [InputFile: String] = [:]
        for (archive, inputs) in Dictionary(grouping: entries, by: \.location) {
            let zip = try? read(archive, limits: limits).get()
            for input in inputs {
                let bytes = zip.flatMap { zip in
                    zip.entries.first { $0.name == input.entry }.flatMap { try? contents(of: $0, in: zip, limits: limits, from: archive) }
                } ?? []
                found[input] = bytes.withUnsafeBytes { target.fileExtension(forInput: $0) }
            }
        }
        return found
    }

    /// The bytes of `entry` of `reader`, expanded when one input of its size may be held within
    /// `limits` (`check`, `preview` and `resize` read an archive's images alike): from the
    /// reader's bytes, or, for a directory read from the end of the archive at `archive`, from
    /// the file by range.
    static func contents(of entry: ZipEntry, in reader: ZipReader, limits: Limits, from archive: BytePath? = nil) throws -> [UInt8] {
        try StickerConverter.checkFileSize(entry.size, head: [], limits: limits)
        guard let archive else { return try reader.contents(of: entry, limit: entry.size) }
        return try ZipReader.contents(of: entry, limit: entry.size, fileSize: reader.byteCount) { range in
            FileSystem.readRange(archive, range).flatMap { $0.count == range.count ? $0 : nil }
        }
    }

    /// The directory of the archive at `location`, read from its end (the end record and the
    /// central directory), never the whole archive.
    private static func read(_ location: BytePath, limits: Limits) -> Result<ZipReader, Problem> {
        do throws(FileError) {
            guard let status = try FileStatus.of(location) else { return .failure(.unreadable(InputDiscovery.noSuchInput)) }
            if status.bytes > maxArchiveBytes { return .failure(.tooLarge(status.bytes)) }
            let size = status.bytes
            guard var tail = FileSystem.readRange(location, max(0, size - endSearchBytes)..<size) else {
                return .failure(.unreadable("cannot read the archive"))
            }
            var start = size - tail.count
            if let directory = ZipReader.directoryStart(tail: tail, at: start), directory < start, directory >= 0,
               let whole = FileSystem.readRange(location, directory..<size) {
                tail = whole
                start = directory
            }
            do throws(ZipError) { return .success(try ZipReader(tail: tail, at: start)) } catch {
                return .failure(.unreadable("cannot read the archive: \(error)"))
            }
        } catch {
            return .failure(.unreadable(error.problem.description))
        }
    }

    /// How much of an archive's end is read to find its end record: the record and the longest
    /// comment it may carry.
    private static let endSearchBytes = 22 + 0xFFFF

    private static func extensionOf(_ name: String) -> String { BytePath(name).lowercasedExtension }
}
