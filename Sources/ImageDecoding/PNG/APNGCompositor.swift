import ImageCore

/// The APNG output buffer: draws each frame's region with its blend op, and applies the previous
/// frame's dispose op first, so every snapshot is the canvas as shown.
///
/// Only `regions` are held (`CanvasPlanes`: the frames' rectangles gathered by `CanvasLayout`,
/// each frame lying in one of them) plus the pixels under a frame that disposes to PREVIOUS.
/// Every pixel that changes is marked in `damage`.
struct APNGCompositor {
    let width: Int
    let height: Int
    private var canvas: CanvasPlanes
    /// The pixels under the last frame, kept when that frame disposes to PREVIOUS.
    private var saved: [UInt8] = []
    private var pending: (control: APNGFrameControl, dispose: APNGFrameControl.Dispose)?

    /// A transparent black canvas held as `regions`, each frame lying in one of them.
    init(width: Int, height: Int, regions: [PixelRect]) {
        self.width = width
        self.height = height
        canvas = CanvasPlanes(height: height, regions: regions)
    }

    /// The regions `CanvasLayout` gathers from the frames of `controls` on a `width × height`
    /// canvas: all a compositor needs to hold.
    static func regions(of controls: [APNGFrameControl], width: Int, height: Int) -> [PixelRect] {
        CanvasLayout.regions(controls.map(\.rect), in: PixelRect(x: 0, y: 0, width: width, height: height))
    }

    /// The damage so far, cleared.
    mutating func takeDamage() -> RowDamage { canvas.takeDamage() }

    /// Draws `frame` (the control's `width × height` region; only its first `rows` rows hold
    /// data) after disposing the previous frame.
    mutating func draw(_ frame: Image, rows: Int, control: APNGFrameControl, isFirst: Bool) {
        if let (previous, dispose) = pending {
            switch dispose {
            case .none: break
            case .background: canvas.clear(previous.rect)
            case .previous:
                if saved.count == previous.width * previous.height * 4 {
                    saved.withUnsafeBufferPointer { canvas.draw($0.baseAddress!, rect: previous.rect, rows: previous.height, blend: false) }
                }
            }
        }
        // A first frame has nothing to go back to: PREVIOUS means BACKGROUND (APNG spec).
        let dispose: APNGFrameControl.Dispose = isFirst && control.dispose == .previous ? .background : control.dispose
        if dispose == .previous { saved = canvas.pixels(under: control.rect) }
        frame.pixels.withUnsafeBufferPointer {
            canvas.draw($0.baseAddress!, rect: control.rect, rows: min(rows, control.height), blend: control.blend == .over)
        }
        pending = (control, dispose)
    }

    /// The canvas as shown now: each region with its pixels (sharing the compositor's storage).
    var snapshot: [CanvasRegion] { canvas.snapshot }

    /// Copies `count` pixels; returns the pixels that changed (empty when none).
    static func copy(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) -> Range<Int> {
        let changed = differing(UnsafeRawPointer(src), UnsafeRawPointer(dst), count: count)
        if !changed.isEmpty {
            (dst + changed.lowerBound * 4).update(from: src + changed.lowerBound * 4, count: changed.count * 4)
        }
        return changed
    }

    /// The pixels from the first to the last that differ between `a` and `b` (`count` RGBA pixels).
    static func differing(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Range<Int> {
        var lo = 0
        while lo < count && a.loadUnaligned(fromByteOffset: lo &* 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: lo &* 4, as: UInt32.self) {
            lo &+= 1
        }
        guard lo < count else { return 0..<0 }
        var hi = count
        while a.loadUnaligned(fromByteOffset: (hi &- 1) &* 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: (hi &- 1) &* 4, as: UInt32.self) {
            hi &-= 1
        }
        return lo..<hi
    }

    /// Straight-alpha source-over of `count` pixels, rounded to nearest:
    /// αo = αs + αd(1 − αs), Co = (Cs·αs + Cd·αd(1 − αs)) / αo, computed exactly in integers
    /// scaled by 255². Returns the pixels that changed.
    static func over(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) -> Range<Int> {
        var lo = Int.max, hi = 0
        var i = 0
        while i < count {
            let o = i &* 4
            let sa = Int(src[o + 3])
            if sa != 0 {
                let before = UnsafeRawPointer(dst + o).loadUnaligned(as: UInt32.self)
                if sa == 255 {
                    dst[o] = src[o]; dst[o + 1] = src[o + 1]; dst[o + 2] = src[o + 2]; dst[o + 3] = 255
                } else {
                    let ws = sa * 255
                    let wd = Int(dst[o + 3]) * (255 - sa)
                    let total = ws + wd
                    let half = total >> 1
                    dst[o] = UInt8(truncatingIfNeeded: (Int(src[o]) * ws + Int(dst[o]) * wd + half) / total)
                    dst[o + 1] = UInt8(truncatingIfNeeded: (Int(src[o + 1]) * ws + Int(dst[o + 1]) * wd + half) / total)
                    dst[o + 2] = UInt8(truncatingIfNeeded: (Int(src[o + 2]) * ws + Int(dst[o + 2]) * wd + half) / total)
                    dst[o + 3] = UInt8(truncatingIfNeeded: (total + 127) / 255)
                }
                if UnsafeRawPointer(dst + o).loadUnaligned(as: UInt32.self) != before {
                    if i < lo { lo = i }
                    hi = i &+ 1
                }
            }
            i &+= 1
        }
        return lo < hi ? lo..<hi : 0..<0
    }
}
