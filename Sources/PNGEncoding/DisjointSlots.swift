/// The slots of a buffer that the workers of one parallel loop fill, each slot from one worker.
///
/// The compiler cannot see that two workers never store into the same slot, so this says it:
/// sharing is safe as long as (1) every index is stored by one worker only, (2) the buffer is
/// read only after the workers end (`DispatchQueue.concurrentPerform` returns after every
/// iteration has), and (3) the buffer outlives the loop (callers take it from
/// `withUnsafeMutableBufferPointer` around the loop). `APNGEncoder.compressInParallel` gives
/// worker `w` the indices `w, w + workers, …`; `SplitDeflate` gives piece `i` to iteration `i`.
struct DisjointSlots<Element: Sendable>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Element>

    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }

    /// Stores `value` in slot `index`, which no other worker stores into.
    func store(_ value: Element, at index: Int) { buffer[index] = value }
}
