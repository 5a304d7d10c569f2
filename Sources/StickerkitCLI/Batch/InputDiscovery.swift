import StickerKit

/// Finds the input files of a batch: files named on the command line, and the images in folders
/// (recursively, hidden names left out, in byte order of their relative paths).
///
/// Never taken as inputs: stickerkit's own outputs — the output folder's tree, every file a
/// manifest lists (in the output folder or any folder met on the way), `*.xcstickers` catalogs,
/// and preview folders (they hold `PreviewRecord.fileName`). A report is JSON: never an image. Links are followed, to
/// files and to folders; a link that leads back into a folder being searched (a loop) or to a
/// folder already searched, and a broken link, are named and skipped. Any bytes work in a name.
/// A FIFO or device named as an input is "not a regular file"; in a folder it is passed over.
enum InputDiscovery {
    /// What is never an input.
    struct Exclusions: Sendable {
        /// Folders written by this run (`-o`): not searched, and the stickers their manifests
        /// list are not taken wherever they are met.
        var outputFolders: [BytePath] = []
    }

    struct Outcome: Sendable {
        var files: [InputFile]
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
    }

    /// `discover(_:excluding:)` for paths given as strings, excluding nothing.
    static func discover(_ arguments: [String]) -> Outcome {
        discover(arguments.map(BytePath.init), excluding: Exclusions())
    }

    static func discover(_ arguments: [BytePath], excluding exclusions: Exclusions) -> Outcome {
        var walk = Walk(exclusions: exclusions)
        var files: [InputFile] = []
        for arg in arguments {
            let status: FileStatus?
            do { status = try FileStatus.of(arg) } catch {
                walk.missing.append((arg.string ?? arg.display, error.problem.description))
                continue
            }
            guard let status else {
                let link = (try? FileStatus.of(arg, followingLinks: false))?.kind == .symbolicLink
                walk.missing.append((arg.string ?? arg.display, link ? FileError.Problem.brokenLink.description : "no such file or folder"))
                continue
            }
            switch status.kind {
            case .regular:
                files.append(InputFile(location: arg, relative: arg.lastComponent, id: status.id))
            case .directory:
                var found: [InputFile] = []
                let before = walk.missing.count
                walk.search(arg, relative: BytePath(""), id: status.id, ancestors: [], into: &found)
                if found.isEmpty && walk.missing.count == before {
                    walk.missing.append((arg.string ?? arg.display, "no images found in this folder"))
                }
                files += found.sorted { $0.relative < $1.relative }
            default:
                walk.missing.append((arg.string ?? arg.display, FileError.Problem.notARegularFile(status.kind).description))
            }
        }
        return Outcome(files: files, missing: walk.missing, ignored: walk.ignored, notices: walk.notices,
                       skippedOutputs: walk.skippedOutputs, skippedStickers: walk.skippedStickers)
    }

    /// The state of one discovery: what was found, skipped and visited.
    private struct Walk {
        var missing: [(path: String, reason: String)] = []
        var ignored = 0
        var notices: [Notice] = []
        var skippedOutputs: [Notice] = []
        var skippedStickers = 0
        /// Folders searched, by identity, with the path they were searched under.
        var searched: [FileID: BytePath] = [:]
        /// Files never taken: every file a manifest lists.
        var excludedFiles: Set<FileID> = []
        var outputFolders: Set<FileID> = []

        init(exclusions: Exclusions) {
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
                skippedOutputs.append(Notice(folder, "skipped: a preview folder stickerkit wrote"))
                return
            }
            if names.contains(where: Manifest.isManifestName) { excludeRecordedOutputs(of: folder) }
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
                    } else if name.lowercasedExtension == "xcstickers" {
                        skippedOutputs.append(Notice(path, "skipped: a sticker catalog"))
                    } else if inside.contains(status.id) {
                        notices.append(Notice(path, "skipped: a symbolic link to a folder that contains it (a loop)"))
                    } else if let earlier = searched[status.id] {
                        notices.append(Notice(path, "skipped: the same folder as \(earlier.display), already searched"))
                    } else {
                        search(path, relative: rel, id: status.id, ancestors: inside, into: &found)
                    }
                case .regular:
                    if excludedFiles.contains(status.id) {
                        skippedStickers += 1
                        continue
                    }
                    // Artwork is named by a readable format's extension; a file with another
                    // name is still taken when its first bytes are an image's (the bytes decide).
                    if ImageFormat.readableExtensions.contains(name.lowercasedExtension) || looksLikeImage(path) {
                        found.append(InputFile(location: path, relative: rel, id: status.id))
                    } else {
                        ignored += 1
                    }
                default:
                    ignored += 1
                }
            }
        }

        private func looksLikeImage(_ path: BytePath) -> Bool {
            guard let head = FileSystem.readHead(path, count: 16) else { return false }
            return Artwork.format(of: head) != nil
        }
    }
}
