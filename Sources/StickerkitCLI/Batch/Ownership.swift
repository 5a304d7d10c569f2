/// The ownership model, enforced here and nowhere else. In the output folder:
///
/// - a file is **ours** when the manifest records it and it is still the file recorded (same
///   size, time and inode, else same SHA-256); only ours is ever replaced without `--overwrite`;
/// - an output of ours is **up to date** when its record names this input (same size and time,
///   else same SHA-256) and these settings; up to date is skipped unless `--force`;
/// - `--force` redoes outputs of ours even when up to date; it never touches anything else;
/// - `--overwrite` also replaces files that are not ours (a user's file, one of ours the user
///   has since edited, a link — the link itself, never what it points to);
/// - never replaced, whatever the flags: a folder, a FIFO, a device or socket, and any input of
///   the run.
///
/// After a manifest was lost or damaged (`Manifest.mayBeIncomplete`), a file in the way that is
/// not recorded is converted anyway and taken back as ours when the new sticker has exactly its
/// bytes (conversion is deterministic); otherwise it is left alone as not ours.
struct Ownership: Sendable {
    /// What may be done at one output path.
    enum Verdict: Equatable, Sendable {
        /// Nothing is there: write.
        case create
        /// Ours and up to date: skip.
        case upToDate(ManifestRecord)
        /// Ours, stale (or `--force`): write over it.
        case redo(ManifestRecord)
        /// Not recorded, but the record may be incomplete: convert, and take it back as ours if
        /// the new sticker is byte for byte the file; else leave it.
        case adoptIfIdentical(FileStatus)
        /// Not ours, and `--overwrite`: write over it.
        case replaceTheirs
        /// Not ours: leave it, for this reason.
        case keep(KeepReason)
        /// Never replaced: fail this output.
        case refuse(RefuseReason)
    }

    /// Why a file in the way is left alone.
    enum KeepReason: Equatable, Sendable, CustomStringConvertible {
        /// stickerkit did not write it.
        case notOurs
        /// stickerkit wrote it, and it has changed since.
        case changedSinceWritten

        var description: String {
            switch self {
            case .notOurs: "exists and was not written by stickerkit (--overwrite replaces it)"
            case .changedSinceWritten: "changed since stickerkit wrote it (--overwrite replaces it)"
            }
        }
    }

    /// Why an output can never be written.
    enum RefuseReason: Equatable, Sendable, CustomStringConvertible {
        /// Something that is not a regular file or a link is at the output path.
        case notAFile(FileStatus.Kind)
        /// The output path is an input of this run.
        case isAnInput

        var description: String {
            switch self {
            case .notAFile(let kind): "output path is \(kind.noun); stickerkit replaces only files"
            case .isAnInput: "output would replace an input; choose another output folder"
            }
        }
    }

    let manifest: Manifest
    let force: Bool
    let overwrite: Bool
    /// Every input of the run: never replaced.
    let inputs: Set<FileID>

    /// The verdict for `output` (relative to the output folder), made from `input` (its absolute
    /// path) with `settings`. `inputFingerprint` is the input's size and time now; `inputDigest`
    /// reads and hashes it, asked only when the time has changed.
    func verdict(for output: BytePath, input: BytePath, settings: String, inputFingerprint: FileStatus?,
                 inEntry: Bool = false, inputDigest: () -> String?) -> Verdict {
        guard let status = manifest.folder.status(of: output) else { return .create }
        if inputs.contains(status.id) { return .refuse(.isAnInput) }
        switch status.kind {
        case .regular, .symbolicLink: break
        default: return .refuse(.notAFile(status.kind))
        }
        guard let record = manifest.record(for: output) else {
            if overwrite { return .replaceTheirs }
            if manifest.changedOutputs.contains(output) { return .keep(.changedSinceWritten) }
            if manifest.mayBeIncomplete && status.kind == .regular { return .adoptIfIdentical(status) }
            return .keep(.notOurs)
        }
        if force { return .redo(record) }
        return isCurrent(record, input: input, settings: settings, fingerprint: inputFingerprint, inEntry: inEntry, digest: inputDigest)
            ? .upToDate(record) : .redo(record)
    }

    /// Whether `record` was made from this input, as it is now, with these settings.
    func isCurrent(_ record: ManifestRecord, input: BytePath, settings: String, fingerprint: FileStatus?,
                   inEntry: Bool = false, digest: () -> String?) -> Bool {
        guard record.version == ManifestRecord.currentVersion, record.input == input, record.settings == settings,
              let now = fingerprint else { return false }
        if now.bytes == record.inputBytes && now.modifiedNanoseconds == record.inputModifiedNanoseconds { return true }
        // A file of another size has changed; an archive of another size (an entry added,
        // removed or replaced) may still hold the same bytes for this entry.
        guard now.bytes == record.inputBytes || inEntry else { return false }
        return record.inputSHA256 != nil && digest() == record.inputSHA256
    }
}
