import ImageCore

/// The fitted frames of one animation at one sticker size, in the form the budget search walks
/// them: a `FrameStore` while what it holds stays within `budget` bytes, otherwise made again —
/// decoded and fitted — on every walk (`replay`), so that memory never grows with the frame
/// count. Either way a walk gives the same frames with the same damage.
final class FittedFrames: FrameSequence {
    /// A walk that makes the frames again: given which frames are wanted (nil: all), it may
    /// leave out the fitting of the others, delivering each frame it does with the damage since
    /// the one delivered before (`FrameSequence.forEach(only:_:)`).
    typealias Walk = (_ wanted: ((Int) -> Bool)?, _ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws -> Void

    let width: Int
    let height: Int
    let bytesPerPixel = 4
    private(set) var count = 0
    /// Each frame's delay as shown.
    var delays: [Delay] = []
    /// Bytes the store may hold.
    let budget: Int
    /// The stores sharing `budget` (other sizes' of the same conversion).
    private let tally: StoreTally
    private var store: FrameStore?
    /// Walks the frames again from the source, once the store gave up.
    private var replay: Walk?
    /// Output pixels that changed, over all frames after the first (the work a walk's consumers
    /// redo), for the search's cost estimates.
    private(set) var changedPixels = 0
    /// The same per frame (0 for the first).
    private(set) var changedByFrame: [Int] = []

    /// Frames of `side × side`, kept within `budget` bytes: the first `uncompressedShare` of it
    /// as they come, then deflated.
    convenience init(side: Int, budget: Int, uncompressedShare: Double = 0.5) {
        self.init(width: side, height: side, budget: budget, uncompressedShare: uncompressedShare)
    }

    /// Frames of `width × height` (a platform whose canvas follows the artwork's shape, LINE).
    convenience init(width: Int, height: Int, budget: Int, uncompressedShare: Double = 0.5) {
        self.init(width: width, height: height, budget: budget,
                  tally: StoreTally(uncompressed: Int(Double(budget) * uncompressedShare)))
    }

    /// Frames of `side × side` whose store is counted on `tally` with other sizes' (the caller
    /// keeps their total within the budget they share, `giveUp`), and holds at most `budget`.
    convenience init(side: Int, budget: Int, tally: StoreTally) {
        self.init(width: side, height: side, budget: budget, tally: tally)
    }

    private init(width: Int, height: Int, budget: Int, tally: StoreTally) {
        self.width = width
        self.height = height
        self.budget = budget
        self.tally = tally
        store = FrameStore(width: width, height: height, bytesPerPixel: 4, tally: tally)
    }

    /// What the budget has left once every store sharing it is counted (all of it for this
    /// store's own part when it gave up: it holds nothing).
    var room: Int { max(0, budget - tally.bytes) }

    /// Frames already in memory (tests, and callers that hold frames of sticker size), in a
    /// store with the whole `budget`.
    convenience init(_ frames: [Frame], budget: Int = .max) {
        self.init(width: frames[0].image.width, height: frames[0].image.height, budget: budget)
        for (i, f) in frames.enumerated() {
            append(f.image, damage: i == 0 ? nil : RowDamage.between(f.image, frames[i - 1].image), delay: f.delay)
        }
    }

    /// A store for copies of some of these frames (a timeline's kept frames, `KeptFrames`),
    /// counted with the stores sharing the budget, so that `room` leaves out what it holds; nil
    /// while the frames are stored here (a walk then decodes nothing).
    func storeForCopies() -> FrameStore? {
        replays ? FrameStore(width: width, height: height, bytesPerPixel: 4, tally: tally) : nil
    }

    /// Whether the stores sharing the budget, and `extra` bytes held beside them out of the same
    /// room, are within the part of it kept as it comes (before spans are packed).
    func fitsUnpacked(beside extra: Int) -> Bool { tally.bytes + extra <= min(budget, tally.uncompressed) }

    /// True when frames are made again on every walk (the store would have passed its budget).
    var replays: Bool { store == nil }
    /// Bytes held.
    var bytes: Int { store?.bytes ?? 0 }

    /// Adds the next fitted frame and what changed since the one before (nil for the first).
    func append(_ image: Image, damage: RowDamage?, delay: Delay) {
        count += 1
        delays.append(delay)
        changedPixels += damage?.area ?? 0
        changedByFrame.append(damage?.area ?? 0)
        guard let store else { return }
        image.pixels.withUnsafeBytes { store.append($0, damage: damage) }
        if store.bytes > budget { self.store = nil }
    }

    /// Drops the store: from now on the frames are made again on every walk (`replaying`).
    func giveUp() { store = nil }

    /// Sets how to make the frames again when the store gave up (called once all frames are in).
    func replaying(_ walk: @escaping Walk) {
        if store == nil { replay = walk }
    }

    func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        try walk(nil, body)
    }

    /// A replayed walk fits only frame 0 and the frames `wanted` accepts (each frame is still
    /// decoded: a frame draws on the canvas the next ones see); a stored one delivers them all.
    func forEach(only wanted: (Int) -> Bool, _ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        try withoutActuallyEscaping(wanted) { try walk($0, body) }
    }

    /// The store's frames, or the replay's (told which are wanted; nil: all).
    private func walk(_ wanted: ((Int) -> Bool)?, _ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        if let store { return try store.forEach(body) }
        guard let replay else { preconditionFailure("FittedFrames: walked without a store or a way to replay") }
        try replay(wanted, body)
    }

    /// Copies of the frames at `indices` (ascending or not), from one walk.
    func images(_ indices: Set<Int>) throws -> [Int: Image] {
        var out: [Int: Image] = [:]
        guard let last = indices.max() else { return out }
        do {
            try forEach(only: { indices.contains($0) }) { i, samples, _ in
                if indices.contains(i) { out[i] = Image(width: width, height: height, pixels: [UInt8](samples)) }
                if i == last { throw WalkDone() }
            }
        } catch is WalkDone {}
        return out
    }
}

/// Thrown inside a walk to end it early, once what was wanted has been seen.
struct WalkDone: Error {}
