/// Frames of one size that can be walked in order, as many times as needed, without being held
/// at once: what the APNG encoder and the budget search read, whether the frames live in memory,
/// in a store of what changed (`FrameStore` in StickerKit), or are computed again on each walk.
///
/// Each frame comes as its samples — `width × height × bytesPerPixel` bytes, rows top to bottom
/// (palette indices, or RGBA) — valid only during the call, with what changed since the frame
/// delivered before it (nil for the first frame, or when unknown: everything may have changed).
package protocol FrameSequence {
    var width: Int { get }
    var height: Int { get }
    /// Frames delivered by a walk.
    var count: Int { get }
    /// Bytes per pixel of the samples: 1 (indices) or 4 (RGBA).
    var bytesPerPixel: Int { get }
    /// Calls `body` with every frame in order.
    func forEach(_ body: (_ index: Int, _ samples: UnsafeRawBufferPointer, _ damage: RowDamage?) throws -> Void) throws
    /// Calls `body`, in order, with frame 0 and the frames `wanted` accepts, and perhaps others
    /// (callers skip what they did not ask for); each frame's damage covers every change since
    /// the frame delivered before it. A sequence that makes its frames again on each walk
    /// leaves out the work of frames it does not deliver; the others deliver every frame.
    func forEach(only wanted: (_ index: Int) -> Bool,
                 _ body: (_ index: Int, _ samples: UnsafeRawBufferPointer, _ damage: RowDamage?) throws -> Void) throws
}

extension FrameSequence {
    package func forEach(only wanted: (Int) -> Bool, _ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        try forEach(body)
    }
}

/// Frames held in memory as byte arrays (the whole-array APIs): every walk compares nothing and
/// says nothing changed is known (damage nil).
package struct ArrayFrames: FrameSequence {
    package let width: Int
    package let height: Int
    package let bytesPerPixel: Int
    package let frames: [[UInt8]]

    package init(width: Int, height: Int, bytesPerPixel: Int, frames: [[UInt8]]) {
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        self.frames = frames
    }

    package var count: Int { frames.count }

    package func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        for (i, f) in frames.enumerated() {
            try f.withUnsafeBytes { try body(i, $0, nil) }
        }
    }
}
