import ImageCore

/// RGBA → the two I420 pictures a VP9 WebM with alpha carries: colour as BT.601 studio range
/// (what browsers and Telegram assume for VP9 without other signalling, and what the stream's
/// header says), and alpha as the luma of a second picture (chroma a constant 128), which
/// decoders take as the alpha plane unchanged.
///
/// Colour under transparency is invisible but not free: black there (as the pipeline leaves it)
/// makes hard edges the codec spends bits on, and ringing and chroma subsampling at those edges
/// pull the colour of antialiased pixels towards black. So, for the colour picture only, fully
/// transparent pixels take the colour of the nearest visible pixel in their row (rows with none,
/// that of the nearest row with some), and each 2×2 chroma sample is the alpha-weighted mean of
/// its pixels (the plain mean where all four are transparent).
enum YUVConversion {
    // BT.601 studio range in 16.16 fixed point: Y = 16 + 219/255 · (0.299 R + 0.587 G + 0.114 B),
    // Cb and Cr scaled by 224/255 around 128.
    private static let yR = 16829, yG = 33039, yB = 6416
    private static let uR = -9714, uG = -19070, uB = 28784
    private static let vR = 28784, vG = -24103, vB = -4681

    /// Writes the colour picture of the `width × height` RGBA bytes `rgba` into `picture`;
    /// `opaque` says whether every alpha is 255 (`Image.isOpaque(rgba:)`), which the caller has
    /// found already. Opaque frames are read in place; others are copied once, to fill the
    /// colour under their transparent pixels.
    static func writeColor(rgba: UnsafeRawBufferPointer, width w: Int, height h: Int, opaque: Bool,
                           into picture: PlanarPicture) {
        let original = rgba.bindMemory(to: UInt8.self).baseAddress!
        guard !opaque else { return writeColor(original, alpha: original, width: w, height: h, into: picture) }
        let filled = colorUnderTransparencyFilled(Image(width: w, height: h, pixels: [UInt8](rgba)))
        filled.withUnsafeBufferPointer { writeColor($0.baseAddress!, alpha: original, width: w, height: h, into: picture) }
    }

    private static func writeColor(_ p: UnsafePointer<UInt8>, alpha: UnsafePointer<UInt8>, width w: Int, height h: Int,
                                   into picture: PlanarPicture) {
        for y in 0..<h {
            let row = p + y * w * 4
            let out = picture.y + y * picture.yStride
            for x in 0..<w {
                let r = Int(row[x * 4]), g = Int(row[x * 4 + 1]), b = Int(row[x * 4 + 2])
                out[x] = UInt8((yR * r + yG * g + yB * b + (16 << 16) + 32768) >> 16)
            }
        }
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        for cy in 0..<ch {
            let u = picture.u + cy * picture.uStride, v = picture.v + cy * picture.vStride
            // Whole 2×2 blocks: both rows there and the next pixel too (all but an odd side's last).
            let whole = cy * 2 + 1 < h ? w / 2 : 0
            let top = p + cy * 2 * w * 4, bottom = top + w * 4
            let topAlpha = alpha + cy * 2 * w * 4, bottomAlpha = topAlpha + w * 4
            for cx in 0..<whole {
                let i = cx * 8
                let a0 = Int(topAlpha[i + 3]), a1 = Int(topAlpha[i + 7])
                let a2 = Int(bottomAlpha[i + 3]), a3 = Int(bottomAlpha[i + 7])
                let pr = Int(top[i]) + Int(top[i + 4]) + Int(bottom[i]) + Int(bottom[i + 4])
                let pg = Int(top[i + 1]) + Int(top[i + 5]) + Int(bottom[i + 1]) + Int(bottom[i + 5])
                let pb = Int(top[i + 2]) + Int(top[i + 6]) + Int(bottom[i + 2]) + Int(bottom[i + 6])
                let sw = a0 + a1 + a2 + a3
                if sw == 4 * 255 || sw == 0 {
                    // Every pixel opaque (the weighted mean is the plain one) or none visible:
                    // the plain mean of four, a shift.
                    u[cx] = chromaOfFour(uR * pr + uG * pg + uB * pb)
                    v[cx] = chromaOfFour(vR * pr + vG * pg + vB * pb)
                    continue
                }
                let sr = a0 * Int(top[i]) + a1 * Int(top[i + 4]) + a2 * Int(bottom[i]) + a3 * Int(bottom[i + 4])
                let sg = a0 * Int(top[i + 1]) + a1 * Int(top[i + 5]) + a2 * Int(bottom[i + 1]) + a3 * Int(bottom[i + 5])
                let sb = a0 * Int(top[i + 2]) + a1 * Int(top[i + 6]) + a2 * Int(bottom[i + 2]) + a3 * Int(bottom[i + 6])
                u[cx] = chroma(uR * sr + uG * sg + uB * sb, weight: sw)
                v[cx] = chroma(vR * sr + vG * sg + vB * sb, weight: sw)
            }
            for cx in whole..<cw {
                var sw = 0, sr = 0, sg = 0, sb = 0          // alpha-weighted sums
                var n = 0, pr = 0, pg = 0, pb = 0           // plain sums
                for dy in 0..<2 where cy * 2 + dy < h {
                    for dx in 0..<2 where cx * 2 + dx < w {
                        let i = ((cy * 2 + dy) * w + cx * 2 + dx) * 4
                        let a = Int(alpha[i + 3])
                        let r = Int(p[i]), g = Int(p[i + 1]), b = Int(p[i + 2])
                        sw += a; sr += a * r; sg += a * g; sb += a * b
                        n += 1; pr += r; pg += g; pb += b
                    }
                }
                if sw == 0 { (sw, sr, sg, sb) = (n, pr, pg, pb) }
                u[cx] = chroma(uR * sr + uG * sg + uB * sb, weight: sw)
                v[cx] = chroma(vR * sr + vG * sg + vB * sb, weight: sw)
            }
        }
    }

    /// 128 + numerator / (weight · 65536), rounded to nearest, clamped to a byte.
    @inline(__always)
    private static func chroma(_ numerator: Int, weight: Int) -> UInt8 {
        let den = weight << 16
        let q = numerator >= 0 ? (numerator + den / 2) / den : -((-numerator + den / 2) / den)
        return UInt8(max(0, min(255, 128 + q)))
    }

    /// `chroma(numerator, weight: 4)` for the plain sums of a whole 2×2 block, as a shift: the
    /// same value as `chroma` of the opaque block's weighted sums (255 times these, at weight
    /// 4 · 255: the same quotient). Two divisions per chroma sample were a third of the
    /// conversion's time, and it runs on every frame of every encode.
    @inline(__always)
    private static func chromaOfFour(_ numerator: Int) -> UInt8 {
        let q = numerator >= 0 ? (numerator + (1 << 17)) >> 18 : -((-numerator + (1 << 17)) >> 18)
        return UInt8(max(0, min(255, 128 + q)))
    }

    /// Writes the alpha picture of the `width × height` RGBA bytes `rgba` (alpha as luma, neutral
    /// chroma) into `picture`.
    static func writeAlpha(rgba: UnsafeRawBufferPointer, width w: Int, height h: Int, into picture: PlanarPicture) {
        let p = rgba.bindMemory(to: UInt8.self).baseAddress!
        for y in 0..<h {
            let out = picture.y + y * picture.yStride
            let row = p + y * w * 4
            for x in 0..<w { out[x] = row[x * 4 + 3] }
        }
        let cw = (w + 1) / 2
        for cy in 0..<(h + 1) / 2 {
            (picture.u + cy * picture.uStride).update(repeating: 128, count: cw)
            (picture.v + cy * picture.vStride).update(repeating: 128, count: cw)
        }
    }

    /// `image`'s pixels with every fully transparent pixel given the colour of the nearest
    /// visible one in its row (ties to the left), and rows without any visible pixel the colours
    /// of the nearest row that has some (ties upwards). Alpha is kept.
    static func colorUnderTransparencyFilled(_ image: Image) -> [UInt8] {
        var out = image.pixels
        let (w, h) = (image.width, image.height)
        var rowHasVisible = [Bool](repeating: false, count: h)
        out.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            var leftDistance = [Int](repeating: Int.max, count: w)
            for y in 0..<h {
                let row = p + y * w * 4
                var last = -1
                for x in 0..<w {
                    if row[x * 4 + 3] != 0 { last = x; leftDistance[x] = 0; continue }
                    leftDistance[x] = last < 0 ? Int.max : x - last
                    if last >= 0 { copy(row + last * 4, to: row + x * 4) }
                }
                guard last >= 0 else { continue }
                rowHasVisible[y] = true
                var next = -1
                for x in stride(from: w - 1, through: 0, by: -1) {
                    if row[x * 4 + 3] != 0 { next = x; continue }
                    if next >= 0 && next - x < leftDistance[x] { copy(row + next * 4, to: row + x * 4) }
                }
            }
            guard rowHasVisible.contains(true) else { return }
            var nearest = [Int](repeating: -1, count: h)
            var last = -1
            for y in 0..<h {
                if rowHasVisible[y] { last = y }
                nearest[y] = last
            }
            var next = -1
            for y in stride(from: h - 1, through: 0, by: -1) {
                if rowHasVisible[y] { next = y; continue }
                if nearest[y] < 0 || (next >= 0 && next - y < y - nearest[y]) { nearest[y] = next }
            }
            for y in 0..<h where !rowHasVisible[y] {
                let from = p + nearest[y] * w * 4, to = p + y * w * 4
                for x in 0..<w { copy(from + x * 4, to: to + x * 4) }
            }
        }
        return out
    }

    /// Copies the colour of one pixel to another, keeping the target's alpha.
    @inline(__always)
    private static func copy(_ from: UnsafeMutablePointer<UInt8>, to: UnsafeMutablePointer<UInt8>) {
        to[0] = from[0]; to[1] = from[1]; to[2] = from[2]
    }
}
