import Foundation
import ImageCore
import StickerKit
import ImageDecoding

/// Validates sticker files against Messages' rules: format, square grid size, byte budget,
/// transparency, animation timing, and (for a folder) one size for the whole pack.
public enum StickerChecker {
    /// Messages' grid sizes in pixels.
    static let gridSizes = StickerSize.allCases.map(\.pixels)

    /// Checks one file's bytes. `path` is only used to name the file in the report.
    public static func check(_ bytes: [UInt8], path: String, rules: CheckRules = .init()) -> StickerCheckReport {
        var findings: [StickerFinding] = []
        let facts: StickerFacts
        do {
            facts = try StickerFacts(reading: bytes)
        } catch {
            findings.append(.init(.error, .unreadable, "\(error)"))
            findings.append(contentsOf: budgetFindings(bytes.count, rules))
            return StickerCheckReport(path: path, bytes: bytes.count, facts: StickerFacts(format: ImageDecoder.sniff(bytes)?.displayName),
                                      transparent: nil, findings: findings)
        }
        findings.append(contentsOf: formatFindings(facts, bytes: bytes))
        guard facts.format != nil else {
            findings.append(contentsOf: budgetFindings(bytes.count, rules))
            return StickerCheckReport(path: path, bytes: bytes.count, facts: facts, transparent: nil, findings: findings)
        }
        findings.append(contentsOf: sizeFindings(facts))
        findings.append(contentsOf: budgetFindings(bytes.count, rules))

        var transparent: Bool? = facts.mayHaveAlpha ? nil : false
        if facts.mayHaveAlpha && rules.decodePixels && (facts.format == "PNG" || facts.format == "APNG") {
            do {
                var empty: NearlyEmptySticker? = nil
                transparent = try transparency(bytes, animated: facts.frames > 1, empty: &empty)
                if let warning = empty?.warning { findings.append(.init(.warning, .nearlyEmpty, warning)) }
            } catch {
                if let need = LimitsError.memoryNeed(of: error) {
                    findings.append(.init(.info, .notDecoded, "transparency not checked: decoding its pixels " + need))
                } else {
                    findings.append(.init(.error, .unreadable, "\(error)"))
                }
            }
        } else if facts.mayHaveAlpha && facts.format == "GIF" {
            transparent = true
        }
        if transparent == false {
            let why = facts.mayHaveAlpha ? "every pixel is opaque" : "no alpha channel"
            findings.append(.init(.warning, .opaque, "opaque sticker (\(why)): it shows as a rectangle on the conversation"))
        }
        findings.append(contentsOf: animationFindings(facts, rules))
        return StickerCheckReport(path: path, bytes: bytes.count, facts: facts, transparent: transparent, findings: findings)
    }

    /// Whether some pixel is not opaque, within the default memory budget. The first frame
    /// usually answers: a still that decodes by rows is scanned row by row, never held whole (a
    /// 423 KB PNG of 10000² held 805 MB); any other first frame is decoded as its regions. An
    /// animation whose first frame is opaque is decoded to its end, frame by frame, since a
    /// later frame may still be transparent (and a later frame may be damaged). Throws the
    /// decoder's `ImageError`, or `LimitsError.overMemory` when the decoder would pass
    /// `limits.maxMemory` (from the file's structure, before decoding).
    static func transparency(_ bytes: [UInt8], animated: Bool, limits: Limits = .default) throws -> Bool {
        var empty: NearlyEmptySticker? = nil
        return try transparency(bytes, animated: animated, limits: limits, empty: &empty)
    }

    /// `transparency(_:animated:limits:)`, and for a still scanned by rows, `empty` made from
    /// every pixel (nil otherwise): whether it shows practically nothing (`NearlyEmptySticker`,
    /// the rule `resize` warns by).
    static func transparency(_ bytes: [UInt8], animated: Bool, limits: Limits = .default, empty: inout NearlyEmptySticker?) throws -> Bool {
        var any = false
        if !animated {
            // Every pixel once, in any order (an interlaced PNG in its passes' rows, one inflate).
            var scan = NearlyEmptySticker()
            let byRows = try ImageDecoder.scanPixels(bytes) { pixels, count in
                let rgba = UnsafeRawBufferPointer(start: pixels, count: count * 4)
                if !any && !Image.isOpaque(rgba: rgba) { any = true }
                scan.add(rgba)
            }
            if byRows != nil {
                empty = scan
                return any
            }
        }
        try Artwork.checkDecodingMemory(bytes, limits: limits)
        var first = true
        do {
            _ = try ImageDecoder.decodeCanvas(bytes, options: DecodeOptions(firstFrameOnly: !animated)) { frame in
                if !any && !covers(frame) { any = true }
                // A transparent first frame answers: the rest is not decoded.
                if first && any { throw FirstFrameAnswers() }
                first = false
            }
        } catch is FirstFrameAnswers {}
        return any
    }

    private struct FirstFrameAnswers: Error {}

    /// Whether `frame` is opaque: its regions cover the canvas (the rest is transparent) and
    /// every pixel of theirs is opaque.
    private static func covers(_ frame: CanvasFrame) -> Bool {
        frame.heldArea == frame.canvasWidth * frame.canvasHeight && frame.regions.allSatisfy { $0.pixels.isOpaque }
    }

    /// Checks a folder's stickers as one pack: Messages shows a pack at one grid size, so
    /// square stickers of different sizes get a warning.
    public static func checkPack(folder: String, stickers: [StickerCheckReport]) -> PackCheckReport {
        var sizes = Set<Int>()
        for s in stickers {
            if let w = s.facts.width, let h = s.facts.height, w == h { sizes.insert(w) }
        }
        let sorted = sizes.sorted()
        var findings: [StickerFinding] = []
        if sorted.count > 1 {
            findings.append(.init(.warning, .mixedSizes,
                                  "mixed sizes in one pack: \(sorted.map { "\($0)" }.joined(separator: ", ")) px; a pack is shown at one grid size"))
        }
        return PackCheckReport(folder: folder, sizes: sorted, findings: findings)
    }

    static func formatFindings(_ f: StickerFacts, bytes: [UInt8]? = nil) -> [StickerFinding] {
        switch f.format {
        case "PNG", "APNG": return []
        case "GIF", "JPEG":
            return [.init(.warning, .format, "\(f.format!) is accepted by Messages, but PNG/APNG is recommended (8-bit alpha, better quality)")]
        case let other?:
            return [.init(.error, .format, "\(other) is not a sticker format Messages accepts (use PNG or APNG)")]
        case nil:
            // A format people take for artwork is named (a HEIC photo, a .wastickers archive).
            if let bytes, let named = Artwork.otherFormat(of: bytes) { return [.init(.error, .format, named)] }
            return [.init(.error, .format, "not an image: unknown format")]
        }
    }

    static func sizeFindings(_ f: StickerFacts) -> [StickerFinding] {
        guard let w = f.width, let h = f.height else { return [] }
        let lo = gridSizes.first!, hi = gridSizes.last!
        let grid = gridSizes.map { "\($0)" }.joined(separator: "/")
        if w != h {
            return [.init(.error, .square, "not square: \(w)×\(h) (stickers are \(grid) px squares)")]
        }
        if gridSizes.contains(w) { return [] }
        if w >= lo && w <= hi {
            return [.init(.warning, .size, "\(w)×\(h) is not a grid size (\(grid) px): Messages rescales it")]
        }
        return [.init(.error, .size, "\(w)×\(h) is outside \(lo)…\(hi) px (stickers are \(grid) px)")]
    }

    /// Over the budget: an error. Within a budget larger than Messages' limit but over the limit:
    /// a warning, since Messages refuses the file whatever budget it was made for.
    static func budgetFindings(_ bytes: Int, _ rules: CheckRules) -> [StickerFinding] {
        if bytes > rules.maxBytes {
            return [.init(.error, .budget, "\(grouped(bytes)) bytes, over the \(grouped(rules.maxBytes))-byte budget by \(grouped(bytes - rules.maxBytes))")]
        }
        if bytes > ByteBudget.messages {
            return [.init(.warning, .budget, "\(grouped(bytes)) bytes: within the \(grouped(rules.maxBytes))-byte budget, but over Messages' "
                          + "limit of \(grouped(ByteBudget.messages)) bytes: Messages refuses it")]
        }
        return []
    }

    static func animationFindings(_ f: StickerFacts, _ rules: CheckRules) -> [StickerFinding] {
        guard f.frames > 1 else { return [] }
        var parts = ["\(f.frames) frames"]
        if let d = f.durationMs { parts.append(String(format: "%.2f s", d / 1000)) }
        if let fps = f.fps { parts.append(String(format: "%.1f fps", fps)) }
        if let low = f.lowestFPS { parts.append(String(format: "lowest %.1f fps", low)) }
        if let loops = f.loopCount { parts.append(loops == 0 ? "loops forever" : "plays \(loops)×") }
        var out = [StickerFinding(.info, .animation, parts.joined(separator: ", "))]
        if let fps = f.fps, fps + 0.05 < rules.minFPS {
            out.append(.init(.warning, .frameRate, String(format: "%.1f fps on average, below %.0f fps: the animation looks choppy", fps, rules.minFPS)))
        }
        return out
    }

    /// A byte count with thousands separators, as reports print it: 500000 → "500,000".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }
}
