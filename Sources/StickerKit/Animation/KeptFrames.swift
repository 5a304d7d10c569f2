import ImageCore

/// Some frames of a sequence — the frames a timeline keeps, in order — as a sequence of their
/// own: a frame comes with everything that changed since the previous kept frame (the damage of
/// the frames dropped between them included).
///
/// When its base makes the frames again on every walk (`FittedFrames.replays`: decoding the
/// whole animation and fitting the kept frames), the first walk that reaches the end also keeps
/// what it delivered in a store (`Copies`) while that fits, and later walks read the store: a
/// search encodes one timeline several times (301 frames of a moving gradient at 408 px: five
/// real encodes of the same 101 kept frames).
final class KeptFrames: FrameSequence {
    /// Where a walk's frames are kept: `make` gives an empty store (nil: none may be kept), and
    /// `fits` says whether what the stores hold is still within their budget.
    struct Copies {
        let make: () -> FrameStore?
        let fits: () -> Bool
    }

    let base: any FrameSequence
    /// Indices into `base`, ascending; the first must be 0.
    let indices: [Int]
    private let copies: Copies?
    private var store: FrameStore?
    /// False once the frames did not fit their store: later walks do not try again.
    private var copying = true

    init(base: any FrameSequence, indices: [Int], copies: Copies? = nil) {
        self.base = base
        self.indices = indices
        self.copies = copies
    }

    var width: Int { base.width }
    var height: Int { base.height }
    var count: Int { indices.count }
    var bytesPerPixel: Int { base.bytesPerPixel }
    /// Whether the frames are kept (walks no longer go to the base).
    var isStored: Bool { store != nil }

    func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        if let store { return try store.forEach(body) }
        guard copying, let copies, let copy = copies.make() else { return try walk(body) }
        var filling: FrameStore? = copy
        try walk { k, samples, damage in
            if let f = filling {
                f.append(samples, damage: damage)
                if !copies.fits() {
                    filling = nil
                    copying = false
                }
            }
            try body(k, samples, damage)
        }
        if let filling, filling.count == count { store = filling }
    }

    /// The kept frames, from the base.
    private func walk(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        if indices.count == base.count {
            try base.forEach(body)
            return
        }
        var next = 0
        var changes = DamageRun()
        let kept = Set(indices)
        try base.forEach(only: { kept.contains($0) }) { i, samples, damage in
            guard next < indices.count else { return }
            changes.add(damage)
            guard i == indices[next] else { return }
            let since = changes.take()
            try body(next, samples, next == 0 ? nil : since)
            next += 1
        }
    }
}
