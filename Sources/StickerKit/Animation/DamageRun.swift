import ImageCore

/// What changed over a run of frames of which only the last is delivered: each frame's damage
/// is added as it comes, and the delivered frame takes the union (nil when any frame's damage
/// was unknown). A run of one frame gives that frame's own damage, without a copy.
struct DamageRun {
    private var union: RowDamage?
    private var unknown = false

    /// Adds the next frame's damage (nil: unknown, everything may have changed).
    mutating func add(_ damage: RowDamage?) {
        guard let damage else {
            unknown = true
            return
        }
        if union == nil { union = damage } else { union!.formUnion(damage) }
    }

    /// Everything added since the last `take` (nil when some of it was unknown), and starts a
    /// new run.
    mutating func take() -> RowDamage? {
        defer {
            union = nil
            unknown = false
        }
        return unknown ? nil : union
    }
}
