/// Bytes held by frame stores that share one budget (`SizeStores`: the fitted frames of every
/// size of one conversion). Each store adds what it keeps and takes it back when it is released.
final class StoreTally {
    /// Bytes held by every store on the tally together.
    private(set) var bytes = 0
    /// Bytes kept as they come, all stores together, before new spans are packed.
    let uncompressed: Int

    init(uncompressed: Int) {
        self.uncompressed = uncompressed
    }

    func add(_ n: Int) { bytes += n }
    func remove(_ n: Int) { bytes -= n }
}
