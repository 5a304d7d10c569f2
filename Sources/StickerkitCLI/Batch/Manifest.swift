import Foundation
import StickerPackaging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What stickerkit wrote into an output folder: the one record of which files there are ours
/// (see `Ownership`), from which input, with which settings.
///
/// One JSON record per line in `DIR/.stickerkit-manifest.jsonl` (a `--shard K/N` run keeps its
/// own `.stickerkit-manifest-shard-K-of-N.jsonl`, so shards on several machines never rewrite
/// each other's records; every file is read). A record is appended and flushed to disk *before*
/// its sticker is renamed into place, so a sticker in place always has its record: a killed run
/// leaves at most a record whose file is still the previous one, which is told apart by content
/// (size, time and inode, else SHA-256). An append that fails is cut back off the file and the
/// sticker is not put in place; an append cut short anyway (power loss) is found and repaired by
/// the next run. When a batch opens the folder, records are checked against the files present
/// and the manifest is rewritten atomically (temporary file, then rename) whenever it holds
/// anything else: damaged lines, records of files gone or changed, superseded records.
final class Manifest: Sendable {
    static let baseName = ".stickerkit-manifest"
    static let fileName = ".stickerkit-manifest.jsonl"

    /// The file a run writes: the main manifest, or the shard's own.
    static func fileName(for shard: Shard?) -> BytePath {
        guard let shard else { return BytePath(fileName) }
        return BytePath("\(baseName)-shard-\(shard.index)-of-\(shard.count).jsonl")
    }

    /// Whether `name` is a manifest file (the main one or a shard's).
    static func isManifestName(_ name: BytePath) -> Bool {
        guard let s = name.string else { return false }
        return s.hasPrefix(baseName) && s.hasSuffix(".jsonl")
    }

    /// A problem found in one manifest file when the folder was opened.
    struct Finding: Sendable {
        var file: BytePath
        var problem: ManifestProblem
    }

    let folder: OutputFolder
    /// The file this run appends to and rewrites.
    let name: BytePath
    var path: BytePath { folder.path(name) }
    /// What was wrong when the folder was opened: each is named in a warning.
    let findings: [Finding]
    /// Whether the record of what stickerkit wrote may be incomplete (no manifest, an empty one,
    /// or one that was damaged): then a file in the way of an output is taken back as ours when converting
    /// its input gives exactly its bytes (`Ownership`).
    let mayBeIncomplete: Bool
    /// Outputs recorded as ours whose file has changed since (edited or replaced by someone else).
    let changedOutputs: Set<BytePath>

    private struct State: Sendable {
        /// The record of each output that is ours, by output path.
        var records: [BytePath: ManifestRecord] = [:]
        /// The file open for appending, or -1.
        var descriptor: Int32 = -1
        /// Whether the file on disk holds anything but `records`, one line each.
        var needsRewrite = false
        /// Other manifest files whose records an unsharded run takes over (removed once rewritten).
        var absorbed: [BytePath] = []
        /// A shard's own outputs (in its own file, or appended by it): the only records its
        /// rewrite writes, since other shards' files keep theirs. nil: an unsharded run, whose
        /// manifest takes every record.
        var own: Set<BytePath>? = nil
    }

    private let state: Locked<State>

    /// Reads every manifest file in `folder` and checks each record against the file present.
    /// An own manifest that is not a regular file is moved aside (named in `findings`), unless
    /// `movesAside` is false (a dry run changes nothing).
    init(folder: OutputFolder, shard: Shard?, movesAside: Bool = true) {
        self.folder = folder
        let own = Self.fileName(for: shard)
        name = own
        var findings: [Finding] = []
        var candidates: [BytePath: [ManifestRecord]] = [:]
        var lines = 0
        var sawFile = false
        var incomplete = false
        var absorbed: [BytePath] = []
        var ownOutputs = Set<BytePath>()
        let names = (try? folder.withFolder(BytePath(""), create: false) { fd, path throws(FileError) in
            try FileSystem.list(descriptor: fd, path: path)
        }) ?? []
        for file in names.filter(Self.isManifestName).sorted() {
            let isOwn = file == own
            guard let status = folder.status(of: file) else { continue }
            switch status.kind {
            case .regular:
                sawFile = true
                do throws(FileError) {
                    let parsed = try ManifestLines { body throws(FileError) in try folder.read(file, inChunks: body) }
                    lines += parsed.total
                    for r in parsed.records { candidates[r.output, default: []].append(r) }
                    if isOwn { ownOutputs.formUnion(parsed.records.map(\.output)) }
                    if parsed.isDamaged {
                        findings.append(Finding(file: file, problem: .damagedLines(unreadable: parsed.unreadable, of: parsed.total,
                                                                                   cutShort: parsed.cutShort, kept: parsed.records.count)))
                        incomplete = true
                    }
                } catch {
                    findings.append(Finding(file: file, problem: .unreadable(error.problem)))
                    incomplete = true
                }
                if !isOwn && shard == nil { absorbed.append(file) }
            case .symbolicLink:
                findings.append(Finding(file: file, problem: .symbolicLink))
                incomplete = true
                if !isOwn && shard == nil { absorbed.append(file) }
            default:
                var movedTo: BytePath? = nil
                if isOwn && movesAside {
                    for k in 1...100 {
                        let aside = file.appendingSuffix(k == 1 ? ".moved-aside" : ".moved-aside-\(k)")
                        if (try? folder.moveAside(file, to: aside)) != nil {
                            movedTo = folder.path(aside)
                            break
                        }
                    }
                }
                findings.append(Finding(file: file, problem: .notAFile(status.kind, movedTo: movedTo)))
                incomplete = true
            }
        }

        var records: [BytePath: ManifestRecord] = [:]
        var changed: Set<BytePath> = []
        var refreshed = false
        for (output, list) in candidates {
            guard let status = folder.status(of: output), status.kind == .regular else { continue }
            if let r = list.last(where: { $0.matchesWithoutReading(status) }) {
                records[output] = r
                continue
            }
            // A file whose size no record gives is not one of them, whatever its bytes: it is
            // not read (a file put there may be of any size).
            guard list.contains(where: { $0.outputBytes == status.bytes }) else {
                changed.insert(output)
                continue
            }
            guard let bytes = try? folder.read(output) else { continue }
            let digest = SHA256.hex(bytes)
            // Known by content: copied, restored from a backup, or left by a run killed between
            // its record and its rename (the previous record still describes the file).
            if var r = list.last(where: { $0.outputSHA256 == digest })
                ?? list.last(where: { $0.outputSHA256 == nil && $0.outputBytes == status.bytes }) {
                r.outputSHA256 = digest
                r.outputBytes = status.bytes
                r.outputModifiedNanoseconds = status.modifiedNanoseconds
                r.outputInode = status.id.inode
                records[output] = r
                refreshed = true
            } else {
                changed.insert(output)
            }
        }
        findings.sort { $0.file < $1.file }
        self.findings = findings
        // No records at all (no manifest, or an empty one): nothing says the files in the way
        // are not ours, so they are checked by content.
        mayBeIncomplete = incomplete || !sawFile || candidates.isEmpty
        changedOutputs = changed
        let needsRewrite = !findings.isEmpty || refreshed || lines != records.count || !absorbed.isEmpty
        state = Locked(State(records: records, needsRewrite: needsRewrite, absorbed: absorbed, own: shard == nil ? nil : ownOutputs))
    }

    deinit {
        state.withLock { s in if s.descriptor >= 0 { close(s.descriptor) } }
    }

    /// The record of the file at `output` when that file is ours.
    func record(for output: BytePath) -> ManifestRecord? {
        state.withLock { $0.records[output] }
    }

    /// Every record, by output.
    var records: [BytePath: ManifestRecord] { state.withLock { $0.records } }

    /// Appends `record` and flushes it to disk, before its sticker is put in place. When the
    /// line cannot be written whole (disk full, I/O error), what was written of it is cut off
    /// again and the error is thrown: the caller then leaves the sticker out.
    func append(_ record: ManifestRecord) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line: [UInt8]
        do { line = [UInt8](try encoder.encode(record)) + [0x0A] } catch { throw FileError(.record, path, .system(EINVAL)) }
        let path = self.path
        let result: Result<Void, FileError> = state.withLock { s in
            do throws(FileError) {
                if s.descriptor < 0 { s.descriptor = try openForAppending() }
                let start = try FileStatus.of(descriptor: s.descriptor, path: path).bytes
                // A line left without its newline (a cut append the rewrite could not repair)
                // is ended first, so the new record is never glued to it.
                var bytes = line
                if start > 0 && !endsWithNewline(s.descriptor, size: start) { bytes.insert(0x0A, at: 0) }
                do throws(FileError) {
                    try FileSystem.writeAll(s.descriptor, bytes, operation: .record, path: path)
                    if fsync(s.descriptor) != 0 { throw FileError(.record, path, .system(errno)) }
                } catch {
                    if ftruncate(s.descriptor, off_t(start)) != 0 { s.needsRewrite = true }
                    throw error
                }
                if s.records.updateValue(record, forKey: record.output) != nil || bytes.count != line.count { s.needsRewrite = true }
                s.own?.insert(record.output)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Removes the file at `output`, ours (superseded by another file of ours, or pruned), and
    /// drops its record: only when it is still exactly the file its record describes (size, time,
    /// inode and SHA-256), never when it was edited or replaced since. Returns whether it was removed.
    /// The manifest is rewritten by the next `rewriteIfNeeded`; until then its stale line names a
    /// file that is gone, which the next run drops.
    func removeOwn(_ output: BytePath) throws(FileError) -> Bool {
        try checkOwn(output, removing: true)
    }

    /// Whether `removeOwn` would remove the file at `output` (for a dry run).
    func isRemovable(_ output: BytePath) throws(FileError) -> Bool {
        try checkOwn(output, removing: false)
    }

    private func checkOwn(_ output: BytePath, removing: Bool) throws(FileError) -> Bool {
        let folder = self.folder
        let result: Result<Bool, FileError> = state.withLock { s in
            guard let record = s.records[output] else { return .success(false) }
            do throws(FileError) {
                let removed = try folder.withFolder(output.parent, create: false) { fd, path throws(FileError) -> Bool in
                    let name = output.lastComponent
                    guard let status = try FileStatus.of(name, in: fd, path: path.appending(name)),
                          record.matchesWithoutReading(status) else { return false }
                    // Removing is not undone by a rerun: the bytes are checked too.
                    if let digest = record.outputSHA256,
                       SHA256.hex(try FileSystem.readFile(name, in: fd, path: path.appending(name))) != digest { return false }
                    guard removing else { return true }
                    if name.withCString({ unlinkat(fd, $0, 0) }) != 0 { throw FileError(.remove, path.appending(name), .system(errno)) }
                    return true
                }
                guard removing else { return .success(removed) }
                if removed {
                    s.records[output] = nil
                    s.own?.remove(output)
                    s.needsRewrite = true
                }
                return .success(removed)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Rewrites the manifest atomically with exactly the records of the files that are ours (a
    /// shard's: those its own file held or it appended), when the file holds anything else; then
    /// removes the shard manifests it took over.
    func rewriteIfNeeded() throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let result: Result<Void, FileError> = state.withLock { s in
            guard s.needsRewrite else { return .success(()) }
            var bytes: [UInt8] = []
            for output in s.records.keys.sorted() where s.own?.contains(output) ?? true {
                guard let line = try? encoder.encode(s.records[output]!) else { continue }
                bytes += line
                bytes.append(0x0A)
            }
            let own = name
            do throws(FileError) {
                try folder.withFolder(BytePath(""), create: false) { fd, root throws(FileError) in
                    try AtomicFile.write(bytes, named: own, in: fd, folderPath: root, beforeReplacing: { _ throws(FileError) in })
                    for other in s.absorbed { _ = other.withCString { unlinkat(fd, $0, 0) } }
                }
            } catch {
                return .failure(FileError(.record, path, error.problem))
            }
            if s.descriptor >= 0 { close(s.descriptor) }
            s.descriptor = -1
            s.absorbed = []
            s.needsRewrite = false
            return .success(())
        }
        try result.get()
    }

    private func openForAppending() throws(FileError) -> Int32 {
        let own = name
        let path = self.path
        return try folder.withFolder(BytePath(""), create: false) { fd, _ throws(FileError) in
            let d = own.withCString { openat(fd, $0, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644) }
            guard d >= 0 else { throw FileError(.record, path, errno == ELOOP ? .symbolicLink : .system(errno)) }
            let status = try FileStatus.of(descriptor: d, path: path)
            guard status.kind == .regular else {
                close(d)
                throw FileError(.record, path, .notARegularFile(status.kind))
            }
            return d
        }
    }

    private func endsWithNewline(_ fd: Int32, size: Int) -> Bool {
        var last: UInt8 = 0
        return pread(fd, &last, 1, off_t(size - 1)) == 1 && last == 0x0A
    }

    /// The outputs the manifests in the folder at `path` list, as paths below it; for input
    /// discovery, which never takes stickerkit's own outputs as inputs. Damage is not reported
    /// here (the batch writing into that folder does that).
    static func recordedOutputs(inFolder path: BytePath) -> [BytePath] {
        records(inFolder: path).map(\.output)
    }

    /// The records of every manifest file in the folder at `path` (read only; damage is not
    /// reported here).
    static func records(inFolder path: BytePath) -> [ManifestRecord] {
        guard let names = try? FileSystem.list(path) else { return [] }
        var records: [ManifestRecord] = []
        for name in names where isManifestName(name) {
            let file = path.appending(name)
            guard (try? FileStatus.of(file, followingLinks: false))?.kind == .regular,
                  let lines = try? ManifestLines(reading: { body throws(FileError) in try FileSystem.readFile(file, inChunks: body) })
            else { continue }
            records += lines.records
        }
        return records
    }
}
