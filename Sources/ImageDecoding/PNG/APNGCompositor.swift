import ImageCore

/// The APNG output buffer: draws each frame's region with its blend op, and applies the previous
/// frame's dispose op first, so every snapshot is the canvas as shown.
struct APNGCompositor {
    let width: Int
    let height: Int
    private(set) var canvas: [UInt8]
    /// The region under the last frame, kept when that frame disposes to PREVIOUS.
    private var saved: [UInt8] = []
    private var pending: (control: APNGFrameControl, dispose: APNGFrameControl.Dispose)?

    /// A transparent black canvas.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        canvas = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Draws `frame` (the control's `width × height` region; only its first `rows` rows hold
    /// data) after disposing the previous frame.
    mutating func draw(_ frame: Image, rows: Int, control: APNGFrameControl, isFirst: Bool) {
        if let (previous, dispose) = pending {
            switch dispose {
            case .none: break
            case .background: clear(previous)
            case .previous: restore(previous)
            }
        }
        // A first frame has nothing to go back to: PREVIOUS means BACKGROUND (APNG spec).
        let dispose: APNGFrameControl.Dispose = isFirst && control.dispose == .previous ? .background : control.dispose
        if dispose == .previous { save(control) }
        let rowBytes = control.width * 4
        let canvasRowBytes = width * 4
        let drawRows = min(rows, control.height)
        frame.pixels.withUnsafeBufferPointer { src in
            canvas.withUnsafeMutableBufferPointer { dst in
                for r in 0..<drawRows {
                    let s = src.baseAddress! + r * rowBytes
                    let d = dst.baseAddress! + (control.y + r) * canvasRowBytes + control.x * 4
                    if control.blend == .source {
                        d.update(from: s, count: rowBytes)
                    } else {
                        APNGCompositor.over(s, d, count: control.width)
                    }
                }
            }
        }
        pending = (control, dispose)
    }

    /// The canvas as shown now.
    var snapshot: Image { Image(width: width, height: height, pixels: canvas) }

    /// Straight-alpha source-over of `count` pixels, rounded to nearest:
    /// αo = αs + αd(1 − αs), Co = (Cs·αs + Cd·αd(1 − αs)) / αo, computed exactly in integers
    /// scaled by 255².
    static func over(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        var i = 0
        while i < count {
            let o = i &* 4
            let sa = Int(src[o + 3])
            if sa == 255 {
                dst[o] = src[o]; dst[o + 1] = src[o + 1]; dst[o + 2] = src[o + 2]; dst[o + 3] = 255
            } else if sa != 0 {
                let ws = sa * 255
                let wd = Int(dst[o + 3]) * (255 - sa)
                let total = ws + wd
                let half = total >> 1
                dst[o] = UInt8(truncatingIfNeeded: (Int(src[o]) * ws + Int(dst[o]) * wd + half) / total)
                dst[o + 1] = UInt8(truncatingIfNeeded: (Int(src[o + 1]) * ws + Int(dst[o + 1]) * wd + half) / total)
                dst[o + 2] = UInt8(truncatingIfNeeded: (Int(src[o + 2]) * ws + Int(dst[o + 2]) * wd + half) / total)
                dst[o + 3] = UInt8(truncatingIfNeeded: (total + 127) / 255)
            }
            i &+= 1
        }
    }

    private mutating func clear(_ c: APNGFrameControl) {
        let rowBytes = c.width * 4
        canvas.withUnsafeMutableBufferPointer { dst in
            for r in 0..<c.height {
                (dst.baseAddress! + ((c.y + r) * width + c.x) * 4).update(repeating: 0, count: rowBytes)
            }
        }
    }

    private mutating func save(_ c: APNGFrameControl) {
        let rowBytes = c.width * 4
        saved = [UInt8](repeating: 0, count: rowBytes * c.height)
        canvas.withUnsafeBufferPointer { src in
            saved.withUnsafeMutableBufferPointer { dst in
                for r in 0..<c.height {
                    (dst.baseAddress! + r * rowBytes).update(from: src.baseAddress! + ((c.y + r) * width + c.x) * 4, count: rowBytes)
                }
            }
        }
    }

    private mutating func restore(_ c: APNGFrameControl) {
        let rowBytes = c.width * 4
        guard saved.count == rowBytes * c.height else { return }
        saved.withUnsafeBufferPointer { src in
            canvas.withUnsafeMutableBufferPointer { dst in
                for r in 0..<c.height {
                    (dst.baseAddress! + ((c.y + r) * width + c.x) * 4).update(from: src.baseAddress! + r * rowBytes, count: rowBytes)
                }
            }
        }
    }
}
