/// Bytes held by frame stores that share one budget: the fitted frames of every size of one
/// conversion, filled together in one walk (`StickerConverter`). Each store adds what it keeps
/// and takes it back when it is released, so that one size may use what the others leave of
/// the share instead of a fixed part of it: the colour cube at `--size all` had its 408-px
/// frames made again (decoded and fitted) on every walk while the 300-px store used a third
/// of its part, and the watchface deflated the spans of its 618-px frames (inflated on every
/// walk) while the others' parts stood unused.
final class StoreTally {
    /// Bytes held by every store on the tally together.
    private(set) var bytes = 0
    /// Bytes kept as they come, all stores together, before new spans are deflated.
    let uncompressed: Int

    init(uncompressed: Int) {
        self.uncompressed = uncompressed
    }

    func add(_ n: Int) { bytes += n }
    func remove(_ n: Int) { bytes -= n }
}
