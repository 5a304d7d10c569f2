/// Which file a path leads to (device and inode): what tells that two paths are the same file or
/// folder whatever links or `..` they go through.
struct FileID: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
}
