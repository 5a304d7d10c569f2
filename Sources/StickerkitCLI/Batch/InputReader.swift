import ImageCore
import StickerKit
import StickerPackaging

/// One input's bytes and SHA-256, each read at most once and only when asked, as a run reads
/// them: a file whose size alone passes the memory budget is never read whole
/// (`StickerConverter.checkFileSize`; its digest is hashed as it is read), an archive's entry
/// from its archive (`ArchiveInputs`). `problem` says why there are no bytes.
final class InputReader {
    let input: InputFile
    /// The file's size and time, when they could be read; for an archive's entry the archive's,
    /// which say whether the entry may have changed.
    let fingerprint: FileStatus?
    private let limits: Limits
    private var bytes: [UInt8]?
    private var digest: String?
    /// Why `read()` has nothing: the size over the budget, the file unreadable, the entry gone.
    private(set) var problem: String?
    private let tooLarge: Bool

    init(_ input: InputFile, limits: Limits) {
        self.input = input
        self.limits = limits
        fingerprint = try? FileStatus.of(input.location)
        var sizeProblem: String?
        if input.entry == nil, let size = fingerprint?.bytes {
            do {
                try StickerConverter.checkFileSize(size, head: FileSystem.readHead(input.location, count: 64) ?? [], limits: limits)
            } catch { sizeProblem = "\(error)" }
        }
        problem = sizeProblem
        tooLarge = sizeProblem != nil
    }

    /// The input's bytes, or nil (`problem` says why).
    func read() -> [UInt8]? {
        if bytes == nil && problem == nil {
            if input.entry != nil {
                switch ArchiveInputs.bytes(of: input, limits: limits) {
                case .success(let b): bytes = b
                case .failure(let why): problem = why.description
                }
            } else {
                do throws(FileError) { bytes = try FileSystem.readFile(input.location) } catch { problem = error.problem.description }
            }
        }
        return bytes
    }

    /// The SHA-256 of the input's bytes, or nil when they cannot be read. A file too large to
    /// read whole is hashed as it is read, so that one touched without being changed is still
    /// found up to date.
    func sha256() -> String? {
        if digest == nil, let b = read() { digest = SHA256.hex(b) }
        if digest == nil, tooLarge { digest = try? FileSystem.sha256(input.location) }
        return digest
    }

    /// Why the input cannot be converted from its bytes: `problem`, or "cannot read the file".
    var failure: String { problem ?? "cannot read the file" }
}
