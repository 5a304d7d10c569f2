import StickerKit

/// Finds the input files of a command: files named on the command line, and the images in folders
/// (recursively, hidden names left out, in byte order of their relative paths). Every command
/// searches folders here, so names, links and loops behave the same in all of them.
///
/// Reading artwork (`resize`, `pack`), stickerkit's own outputs are never taken as inputs: the
/// output folder's tree, every file a manifest lists (in the output folder or any folder met on
/// the way), `*.xcstickers` catalogs, app icon sets (`*.stickersiconset`, `*.appiconset`), and
/// (for `resize`, which takes `.wastickers` packs as artwork) packs stickerkit wrote.
/// Reading stickers (`check`, `preview`), those are what is looked at: catalogs and sticker packs
/// are found as such, not searched file by file, and app icon sets are passed over. The files a
/// preview wrote (its record, `PreviewRecord.fileName`, lists its copies, page and contact sheet)
/// are never read; anything else in its folder is. A report is JSON: never an image. Links are
/// followed, to files and to folders; a link that leads back into a folder being searched (a
/// loop) or to a folder already searched, and a broken link, are named and skipped. Any bytes work
/// in a name. A FIFO or device named as an input is "not a regular file"; in a folder it is passed
/// over.
enum InputDiscovery {
    /// Why a named input failed, in the words every command uses (exit 1, the others go on).
    static let noSuchInput = "no such file or folder"
    static let noImagesInFolder = "no images found in this folder"

    /// What `noImagesInFolder` adds when the folder held only stickerkit's own outputs: a user
    /// who packs or converts a folder `resize` wrote learns why, and how to take them anyway.
    static func onlyOwnOutputs(files: Int, folders: Int) -> String {
        var parts: [String] = []
        if files > 0 { parts.append("\(files) file\(files == 1 ? "" : "s") stickerkit wrote (its records list \(files == 1 ? "it" : "them"))") }
        if folders > 0 { parts.append("\(folders) folder\(folders == 1 ? "" : "s") stickerkit wrote (catalogs, icon sets, previews)") }
        guard !parts.isEmpty else { return "" }
        return "; left out: " + parts.joined(separator: " and ") + (files > 0 ? " — name a file to read it anyway" : "")
    }
    /// How an empty argument is named in its error line.
    static let emptyArgument = "\"\""

    /// What a search reads, which decides what it takes.
    enum Reading: Sendable {
        /// Artwork to convert: stickerkit's outputs and catalogs are left out.
        case artwork
        /// Stickers to check or show: stickerkit's outputs are read, and catalogs and sticker
        /// packs are listed in `Outcome.catalogs`; files with the name of an image format
        /// stickerkit does not read are taken too, to be reported.
        case stickers

        /// The extensions of the files taken in a folder (others only when their bytes are an image's).
        var extensions: Set<String> {
            switch self {
            case .artwork: ImageFormat.readableExtensions
            // WebM: Telegram's video stickers, which `check --platform telegram` reads.
            case .stickers: ImageFormat.readableExtensions.union(ImageFormat.unreadExtensions).union(["webm"])
            }
        }

        /// Whether a folder of this name is a sticker catalog or pack, read as one (`.stickers`).
        static func isCatalog(_ name: BytePath) -> Bool { ["xcstickers", "stickerpack"].contains(name.lowercasedExtension) }

        /// Whether a file of this name is a WhatsApp pack archive, read as one (`.stickers`; named
        /// on the command line, any file whose bytes are a ZIP archive is).
        static func isArchive(_ name: BytePath) -> Bool { name.lowercasedExtension == "wastickers" }

        /// Whether a folder of this name is an app icon set, never a sticker (`.stickers`).
        static func isIconSet(_ name: BytePath) -> Bool { ["stickersiconset", "appiconset"].contains(name.lowercasedExtension) }
    }

    /// What is never an input.
    struct Exclusions: Sendable {
        /// Folders written by this run (`-o`): not searched, and the stickers their manifests
        /// list are not taken wherever they are met.
        var outputFolders: [BytePath] = []
    }

    struct Outcome: Sendable {
        var files: [InputFile]
        /// Sticker catalogs and packs, named or found in folders, when reading `.stickers`.
        var catalogs: [BytePath] = []
        /// WhatsApp pack archives (`.wastickers`) found in folders, when reading `.stickers`.
        var archives: [InputFile] = []
        /// Named inputs that cannot be used, with the reason: each an input that failed.
        var missing: [(path: String, reason: String)]
        /// Files in folders that are not images (README, SOURCES.md, …), passed over silently.
        var ignored: Int
        /// Links and folders skipped, and why: each named in a warning.
        var notices: [Notice] = []
        /// Folders left out as stickerkit's own outputs (output folder, catalogs, previews).
        var skippedOutputs: [Notice] = []
        /// Stickers left out because a manifest lists them.
        var skippedStickers = 0
        /// Files left out because they were met before under the same name (`dropRepeats`).
        var repeats = 0

        /// Leaves out the files and archives met before under the same name (in `seen`, or
        /// earlier here), counted in `repeats`: one file given twice (`art/cat.png art/`,
        /// `cat.png ./cat.png`) is one input, converted once, not a second time as
        /// `cat.png.png`. Two names of one file (hard links) stay two inputs.
        mutating func dropRepeats(seen: inout Set<SameInput>) {
            let before = files.count + archives.count
            func firstOfEach(_ list: [InputFile]) -> [InputFile] {
                list.filter { f in f.id.map { seen.insert(SameInput(id: $0, relative: f.relative)).inserted } ?? true }
            }
            files = firstOfEach(files)
            archives = firstOfEach(archives)
            repeats += before - files.count - archives.count
        }

        /// For `resize`: every file whose bytes are a ZIP archive (named, or a `.wastickers` found
        /// in a folder) stands for the images in it (`ArchiveInputs`), in its place; one that
        /// cannot be read, or holds no image, is an input that failed.
        mutating func expandArchives(limits: Limits) {
            var expanded: [InputFile] = []
            for f in files {
                guard f.entry == nil, ArchiveInputs.isArchive(f.location) else {
                    expanded.append(f)
                    continue
                }
                switch ArchiveInputs.inputs(of: f, limits: limits, notices: &notices) {
                case .success(let entries): expanded += entries
                case .failure(let why): missing.append((f.path, why.description))
                }
            }
            files = expanded
        }

        /// Names what was skipped (a warning each), then the inputs that cannot be used (an error
        /// each): a file skipped may be why a folder holds no images.
        func announce(on terminal: Terminal) {
            for n in notices { terminal.warning(n.line) }
            for m in missing { terminal.error("\(m.path): error: \(m.reason)") }
        }
    }

    /// `discover(_:excluding:)` for paths given as strings, excluding nothing.
    static func discover(_ arguments: [String]) -> Outcome {
        discover(arguments.map(BytePath.init), excluding: Exclusions())
    }

    /// `takesArchives` (`resize`): `.wastickers` packs in folders are taken too, for
    /// `Outcome.expandArchives` to open (a file named on the command line always is).
    static func discover(_ arguments: [BytePath], excluding exclusions: Exclusions, reading: Reading = .artwork,
                         takesArchives: Bool = false) -> Outcome {
        var walk = Walk(exclusions: exclusions, reading: reading)
        walk.takesArchives = takesArchives
        var files: [InputFile] = []
        for arg in arguments {
            // An empty argument (a shell variable never set) names nothing: the file system
            // would take it for the current folder.
            if arg.bytes.isEmpty {
                walk.missing.append((emptyArgument, noSuchInput + " (the argument is empty)"))
                continue
            }
            let status: FileStatus?
            do { status = try FileStatus.of(arg) } catch {
                walk.missing.append((arg.string ?? arg.display, error.problem.description))
                continue
            }
            guard let status else {
                let link = (try? FileStatus.of(arg, followingLinks: false))?.kind == .symbolicLink
                walk.missing.append((arg.string ?? arg.display, link ? FileError.Problem.brokenLink.description : noSuchInput))
                continue
            }
            switch status.kind {
            case .regular:
                files.append(InputFile(location: arg, relative: arg.lastComponent, id: status.id))
            case .directory where reading == .stickers && Reading.isCatalog(arg.lastComponent):
                walk.catalogs.append(arg)
            case .directory:
                var found: [InputFile] = []
                let before = (walk.missing.count, walk.catalogs.count, walk.archives.count)
                let ownBefore = (walk.ownFiles, walk.ownFolders)
                walk.search(arg, relative: BytePath(""), id: status.id, ancestors: [], into: &found)
                walk.archives[before.2...].sort { $0.relative < $1.relative }
                if found.isEmpty && (walk.missing.count, walk.catalogs.count, walk.archives.count) == before {
                    let own = (walk.ownFiles - ownBefore.0, walk.ownFolders - ownBefore.1)
                    walk.missing.append((arg.string ?? arg.display, noImagesInFolder + Self.onlyOwnOutputs(files: own.0, folders: own.1)))
                }
                files += found.sorted { $0.relative < $1.relative }
            default:
                walk.missing.append((arg.string ?? arg.display, FileError.Problem.notARegularFile(status.kind).description))
            }
        }
        var outcome = Outcome(files: files, catalogs: walk.catalogs, archives: walk.archives, missing: walk.missing, ignored: walk.ignored,
                              notices: walk.notices, skippedOutputs: walk.skippedOutputs, skippedStickers: walk.skippedStickers)
        var seen = Set<SameInput>()
        outcome.dropRepeats(seen: &seen)
        return outcome
    }

    /// A file and the name it is taken under: an input met twice under one name is taken once.
    struct SameInput: Hashable {
        var id: FileID
        var relative: BytePath
    }

    /// The state of one discovery: what was found, skipped and visited.
    private struct Walk {
        let reading: Reading
        /// Whether `.wastickers` packs are taken as artwork (`resize`).
        var takesArchives = false
        var catalogs: [BytePath] = []
        var archives: [InputFile] = []
        var missing: [(path: String, reason: String)] = []
        var ignored = 0
        var notices: [Notice] = []
        var skippedOutputs: [Notice] = []
        var skippedStickers = 0
        /// Files and folders of stickerkit's own passed over, for `onlyOwnOutputs`: files its
        /// manifests or a preview's record list, and folders (output folder, catalogs, icon sets).
        var ownFiles = 0
        var ownFolders = 0
        /// Folders searched, by identity, with the path they were searched under.
        var searched: [FileID: BytePath] = [:]
        /// Files never taken: every file a manifest lists.
        var excludedFiles: Set<FileID> = []
        /// Files never taken: every file a preview's record lists (its copies, page, sheet).
        var previewFiles: Set<FileID> = []
        var outputFolders: Set<FileID> = []

        init(exclusions: Exclusions, reading: Reading) {
            self.reading = reading
            for folder in exclusions.outputFolders {
                guard let s = try? FileStatus.of(folder), s.kind == .directory else { continue }
                outputFolders.insert(s.id)
                // Outputs of this folder may sit in an input folder inside it (`resize out/sub -o out`).
                excludeRecordedOutputs(of: folder)
            }
        }

        mutating func excludeRecordedOutputs(of folder: BytePath) {
            for output in Manifest.recordedOutputs(inFolder: folder) {
                if let s = try? FileStatus.of(folder.appending(output), followingLinks: false), s.kind == .regular {
                    excludedFiles.insert(s.id)
                }
            }
        }

        mutating func search(_ folder: BytePath, relative: BytePath, id: FileID, ancestors: Set<FileID>, into found: inout [InputFile]) {
            searched[id] = folder
            let names: [BytePath]
            do { names = try FileSystem.list(folder) } catch {
                missing.append((folder.string ?? folder.display, "cannot read the folder: \(error.problem)"))
                return
            }
            if names.contains(BytePath(PreviewRecord.fileName)) {
                // The files a preview wrote are copies, never read; anything else beside them is
                // (a preview written into a folder of stickers leaves the stickers readable).
                guard let text = folder.string else {
                    skippedOutputs.append(Notice(folder, "skipped: a preview folder stickerkit wrote"))
                    ownFolders += 1
                    return
                }
                let copies = PreviewRecord.read(in: text).files
                for file in copies {
                    if let s = try? FileStatus.of(folder.appending(BytePath(file)), followingLinks: false), s.kind == .regular {
                        previewFiles.insert(s.id)
                    }
                }
                skippedOutputs.append(Notice(folder, "skipped: the \(copies.count) file\(copies.count == 1 ? "" : "s") a preview wrote here"))
            }
            if reading == .artwork && names.contains(where: Manifest.isManifestName) { excludeRecordedOutputs(of: folder) }
            let inside = ancestors.union([id])
            for name in names.sorted() where name.bytes.first != BytePath.dot {
                let path = folder.appending(name)
                let rel = relative.appending(name)
                guard let own = try? FileStatus.of(path, followingLinks: false) else { continue }
                var status = own
                if own.kind == .symbolicLink {
                    guard let target = try? FileStatus.of(path) else {
                        notices.append(Notice(path, "skipped: \(FileError.Problem.brokenLink)"))
                        continue
                    }
                    status = target
                }
                switch status.kind {
                case .directory:
                    if outputFolders.contains(status.id) {
                        skippedOutputs.append(Notice(path, "skipped: the output folder"))
                        ownFolders += 1
                    } else if reading == .stickers && Reading.isIconSet(name) {
                        ignored += 1
                    } else if reading == .artwork && Reading.isIconSet(name) {
                        // An icon set `icons` wrote beside the artwork: app icons, never artwork.
                        skippedOutputs.append(Notice(path, "skipped: an app icon set"))
                        ownFolders += 1
                    } else if reading == .artwork && name.lowercasedExtension == "xcstickers" {
                        skippedOutputs.append(Notice(path, "skipped: a sticker catalog"))
                        ownFolders += 1
                    } else if inside.contains(status.id) {
                        notices.append(Notice(path, "skipped: a symbolic link to a folder that contains it (a loop)"))
                    } else if let earlier = searched[status.id] {
                        notices.append(Notice(path, "skipped: the same folder as \(earlier.display), already searched"))
                    } else if reading == .stickers && Reading.isCatalog(name) {
                        searched[status.id] = path
                        catalogs.append(path)
                    } else {
                        search(path, relative: rel, id: status.id, ancestors: inside, into: &found)
                    }
                case .regular:
                    if previewFiles.contains(status.id) {
                        ownFiles += 1
                        continue
                    }
                    if excludedFiles.contains(status.id) {
                        skippedStickers += 1
                        ownFiles += 1
                        continue
                    }
                    // Artwork is named by a readable format's extension; a file with another
                    // name is still taken when its first bytes are an image's (the bytes decide).
                    let ext = name.lowercasedExtension
                    if reading == .stickers && Reading.isArchive(name) {
                        archives.append(InputFile(location: path, relative: rel, id: status.id))
                        continue
                    }
                    if takesArchives && Reading.isArchive(name) {
                        // A pack `pack --platform` wrote beside the artwork holds the artwork's
                        // own stickers: an output, taken only when named.
                        if let platform = ArchiveInputs.stickerkitPack(at: path) {
                            skippedOutputs.append(Notice(path, "skipped: a \(platform.displayName) pack stickerkit wrote (name it to convert its stickers)"))
                            ownFiles += 1
                        } else {
                            found.append(InputFile(location: path, relative: rel, id: status.id))
                        }
                        continue
                    }
                    if reading.extensions.contains(ext) {
                        found.append(InputFile(location: path, relative: rel, id: status.id))
                        continue
                    }
                    let head = FileSystem.readHead(path, count: 16) ?? []
                    if Artwork.format(of: head) != nil {
                        found.append(InputFile(location: path, relative: rel, id: status.id))
                    } else if ImageFormat.unreadExtensions.contains(ext) {
                        // Artwork in a format not read (a HEIC photo): named, never passed over
                        // in silence, though it does not fail the run.
                        let why = Artwork.otherFormat(of: head) ?? "a .\(ext) file: not a format stickerkit reads"
                        notices.append(Notice(path, "skipped: " + why))
                    } else {
                        ignored += 1
                    }
                default:
                    ignored += 1
                }
            }
        }
    }
}
