extension VP9StreamEncoder {
    /// Thrown when `encode`'s `stop` said so: `coded` frames' packets came out, `bytes` in all,
    /// `first` of them the first frame's.
    struct Stopped: Error {
        var coded: Int
        var bytes: Int
        var first: Int
    }
}
