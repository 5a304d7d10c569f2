import StickerKit

/// One line of the manifest: a file stickerkit wrote in the output folder, from which input,
/// with which settings, and how to recognise it again (size, time, inode, SHA-256).
struct ManifestRecord: Codable, Equatable, Sendable {
    /// Format of the record; 2 since the fields below `settings`. Records without it (written
    /// by earlier versions) still say which files are ours, by size alone.
    var version: Int?
    /// The sticker's path relative to the output folder (`large/sub/cat.png`).
    var output: BytePath
    /// The size it was made for.
    var size: StickerSize?
    /// The output name without the size folder (`sub/cat.png`): what the input keeps across runs.
    var name: BytePath?
    /// The input's absolute path (lexically cleaned, links not resolved).
    var input: BytePath
    var inputBytes: Int
    var inputModifiedNanoseconds: Int64?
    var inputSHA256: String?
    /// Everything that changes the output's bytes (`BatchRunner.settingsKey`).
    var settings: String
    var outputBytes: Int
    var outputModifiedNanoseconds: Int64?
    var outputInode: UInt64?
    var outputSHA256: String?

    static let currentVersion = 2

    /// Whether the file described by `status` is this record's file without reading it: same
    /// size, modification time and inode (a rename keeps all three; an edit changes the time).
    func matchesWithoutReading(_ status: FileStatus) -> Bool {
        status.kind == .regular && status.bytes == outputBytes && status.modifiedNanoseconds == outputModifiedNanoseconds
            && status.id.inode == outputInode
    }
}
