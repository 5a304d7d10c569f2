import ImageCore

/// Some frames of a sequence — the frames a timeline keeps, in order — as a sequence of their
/// own: a frame comes with everything that changed since the previous kept frame (the damage of
/// the frames dropped between them included).
struct KeptFrames: FrameSequence {
    let base: any FrameSequence
    /// Indices into `base`, ascending; the first must be 0.
    let indices: [Int]

    var width: Int { base.width }
    var height: Int { base.height }
    var count: Int { indices.count }
    var bytesPerPixel: Int { base.bytesPerPixel }

    func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
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
