/// A sticker-like RGBA frame made in code, the same on every run: a transparent canvas with an
/// antialiased disc (colour gradients, a seeded speckle texture), a translucent shadow ring and
/// a thin opaque outline, the disc moving with `phase`. Gives encoders what real stickers have —
/// hard alpha edges, soft alpha, flat and textured colour — without a fixture file.
///
/// Returns `width * height * 4` bytes, RGBA, rows top to bottom; fully transparent pixels are
/// (0, 0, 0, 0).
public func syntheticStickerPixels(width: Int, height: Int, phase: Int = 0, seed: UInt64 = 1) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: width * height * 4)
    var rng = SplitMix64(seed: seed)
    let side = Double(min(width, height))
    let cx = Double(width) * 0.5 + side * 0.12 * Double((phase % 8) - 4) / 4
    let cy = Double(height) * 0.5 + side * 0.06 * Double((phase % 5) - 2) / 2
    let radius = side * 0.32
    for y in 0..<height {
        for x in 0..<width {
            let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
            let d = (dx * dx + dy * dy).squareRoot()
            let i = (y * width + x) * 4
            let noise = Int(rng.next() % 24)
            if d <= radius + 0.5 {
                let coverage = min(1, radius + 0.5 - d)
                let outline = abs(d - (radius - side * 0.02)) < side * 0.012
                let r = outline ? 20 : 40 + (200 * x) / max(1, width - 1)
                let g = outline ? 20 : 60 + (160 * y) / max(1, height - 1) - noise
                let b = outline ? 30 : 90 + (phase * 37) % 120 + noise
                out[i] = UInt8(clamping: r); out[i + 1] = UInt8(clamping: g); out[i + 2] = UInt8(clamping: b)
                out[i + 3] = UInt8((255 * coverage).rounded())
            } else if d < radius * 1.2 {
                // Shadow ring: translucent dark gray fading out.
                let t = (d - radius) / (radius * 0.2)
                out[i] = 30; out[i + 1] = 30; out[i + 2] = 40
                out[i + 3] = UInt8((110 * (1 - t)).rounded())
            }
        }
    }
    return out
}
