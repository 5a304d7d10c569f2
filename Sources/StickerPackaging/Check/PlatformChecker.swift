import Foundation
import ImageDecoding
import StickerKit

/// Validates sticker files against a platform's rules (`StickerTarget`, the same values
/// `resize --platform` converts by): container for its kind, the square canvas, the byte cap of
/// its kind, and for animations the duration, frame-rate, frame-count and loop limits. Structure only: every fact
/// comes from `ImageOutline` or `WebMOutline`, no pixel is decoded.
public enum PlatformChecker {
    /// Checks one file's bytes for `target`. `path` only names the file in the report.
    /// A file named as one of the platform's pack pictures (`StickerTarget.packIcons`: WhatsApp's
    /// `tray.png`, Telegram's `thumbnail.png` or `thumbnail.webm`, LINE's `main.png` and
    /// `tab.png`; `StickerTarget.fileNames(of:)`) is checked as that picture — a PNG still of its
    /// exact size within its byte cap, or an animation of it — not as a sticker.
    public static func check(_ bytes: [UInt8], path: String, target: StickerTarget) -> StickerCheckReport {
        let name = URL(fileURLWithPath: path).lastPathComponent
        if let icon = target.packIcons.first(where: { target.fileNames(of: $0).contains(name) }) {
            return check(bytes, path: path, packIcon: icon, target: target)
        }
        var findings: [StickerFinding] = []
        let facts: StickerFacts
        let container: StickerContainer?
        var shortestDelayMs: Double? = nil
        do {
            if WebMOutline.isEBML(bytes) {
                guard let w = try WebMOutline.read(bytes) else { throw ImageError(nil, WebMOutlineError.notWebM(docType: nil)) }
                container = .webm
                let times = w.frameTimesMs
                let end = w.durationMs ?? times.last.map { $0 + (times.count > 1 ? (times.last! - times.first!) / Double(times.count - 1) : 0) }
                var f = StickerFacts(format: "WebM", width: w.width, height: w.height, frames: w.frameCount,
                                     durationMs: end, loopCount: nil, mayHaveAlpha: w.alphaMode)
                if let d = end, d > 0 { f.fps = Double(w.frameCount) * 1000 / d }
                facts = f
                let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
                shortestDelayMs = gaps.min()
                if w.codecID != "V_VP9" {
                    findings.append(.init(.error, .format, "video codec \(w.codecID); \(target.displayName) takes VP9"))
                }
                if !w.alphaMode {
                    findings.append(.init(.warning, .opaque, "no alpha stream (AlphaMode): the video shows as a rectangle"))
                }
            } else {
                let o = try outline(bytes)
                let animated = o.frameCount > 1 || o.format == .apng
                switch o.format {
                case .png: container = .png
                case .apng: container = .apng
                case .webp: container = .webp
                default: container = nil
                }
                var f = StickerFacts(format: o.format.displayName, width: o.width, height: o.height, frames: o.frameCount,
                                     loopCount: animated ? o.loopCount : nil, mayHaveAlpha: o.mayHaveAlpha)
                let delays = o.storedDelays.map(\.displayed.seconds)
                if animated && !delays.isEmpty {
                    let total = delays.reduce(0, +)
                    f.durationMs = total * 1000
                    if total > 0 { f.fps = Double(o.frameCount) / total }
                    if let longest = delays.max(), longest > 0 { f.lowestFPS = 1 / longest }
                    shortestDelayMs = delays.min().map { $0 * 1000 }
                }
                facts = f
                if let gray = grayFinding(o, target: target) { findings.append(gray) }
            }
        } catch {
            return unreadable(error, path: path, bytes: bytes, findings: findings)
        }

        let animated = container?.holdsAnimation(frames: facts.frames) ?? (facts.frames > 1)
        let expected = target.container(animated: animated)
        if let c = container, c != expected {
            findings.append(.init(.error, .format, "\(c.rawValue) \(animated ? "animation" : "still"); \(target.displayName) takes \(expected.rawValue) for \(animated ? "animations" : "stills")"))
        } else if container == nil {
            findings.append(.init(.error, .format, "\(facts.format ?? "unknown format"); \(target.displayName) takes \(expected.rawValue)"))
        }
        if let box = target.box(animated: animated), let w = facts.width, let h = facts.height {
            if !box.allows(width: w, height: h) {
                findings.append(.init(.error, .size, "\(w)×\(h) px; \(target.displayName) \(animated ? "animations" : "stills") are \(box.description)"))
            }
        } else if let side = target.side, let w = facts.width, let h = facts.height, w != side || h != side {
            findings.append(.init(.error, .size, "\(w)×\(h) px; \(target.displayName) stickers are \(side)×\(side)"))
        }
        if animated, let range = target.frameCount, !range.contains(facts.frames) {
            findings.append(.init(.error, .animation, "\(facts.frames) frames; \(target.displayName) takes \(range.lowerBound)–\(range.upperBound)"))
        }
        if animated, let maxLoops = target.maxLoops, let loops = facts.loopCount {
            if loops == 0 || loops > maxLoops {
                findings.append(.init(.error, .animation, (loops == 0 ? "loops forever" : "plays \(loops) times") + "; \(target.displayName) takes 1–\(maxLoops) plays"))
            } else if let limit = target.maxDurationMs, let d = facts.durationMs, Double(loops) * d > Double(limit) + 0.5 {
                findings.append(.init(.error, .animation, String(format: "%d plays of %.2f s last %.2f s, over ", loops, d / 1000, Double(loops) * d / 1000)
                                      + target.displayName + String(format: "'s %.1f s in all", Double(limit) / 1000)))
            }
        }
        let cap = target.maxBytes(animated: animated)
        if bytes.count > cap {
            findings.append(.init(.error, .budget, "\(StickerChecker.grouped(bytes.count)) bytes, over \(target.displayName)'s \(StickerChecker.grouped(cap)) for \(animated ? "animations" : "stills")"))
        }
        if animated, let limit = target.maxDurationMs, let d = facts.durationMs, d > Double(limit) + 0.5 {
            findings.append(.init(.error, .animation, String(format: "lasts %.2f s, over ", d / 1000) + target.displayName
                                  + String(format: "'s %.1f s", Double(limit) / 1000)))
        }
        if animated, let maxFPS = target.maxFPS, let shortest = shortestDelayMs, shortest > 0, shortest < 1000 / maxFPS - 1 {
            findings.append(.init(.error, .frameRate, String(format: "a frame shown for %.0f ms (%.0f fps), over ", shortest, 1000 / shortest)
                                  + target.displayName + String(format: "'s %.0f fps", maxFPS)))
        }
        if let d = facts.durationMs, animated {
            findings.append(.init(.info, .animation, String(format: "%d frames, %.2f s", facts.frames, d / 1000)))
        }
        return StickerCheckReport(path: path, bytes: bytes.count, facts: facts, transparent: nil, findings: findings)
    }

    /// `bytes` as `icon`: a PNG still of exactly its size, within its byte cap; or, for a picture
    /// that animates (`PackIcon.animates`: LINE's main image, Telegram's thumbnail), an animation
    /// in the platform's animated container (an APNG, a WebM named `thumbnail.webm`) checked as an
    /// animated sticker of `target.animationTarget(for:)`. `path`'s file name, when it is the
    /// animated picture's other name, says which the file must be.
    public static func check(_ bytes: [UInt8], path: String, packIcon icon: PackIcon, target: StickerTarget) -> StickerCheckReport {
        var findings: [StickerFinding] = []
        if icon.animates && target.container(animated: true) == .webm, let report = video(bytes, path: path, packIcon: icon, target: target) {
            return report
        }
        let outline: ImageOutline
        do {
            outline = try Self.outline(bytes)
        } catch {
            return unreadable(error, path: path, bytes: bytes, findings: findings)
        }
        if icon.animates && outline.format == .apng {
            var report = check(bytes, path: path, target: target.animationTarget(for: icon))
            report.findings.append(.init(.info, .format, "\(target.displayName)'s \(icon.role) (\(icon.fileName)), animated"))
            return report
        }
        let facts = StickerFacts(format: outline.format.displayName, width: outline.width, height: outline.height,
                                 frames: outline.frameCount, loopCount: nil, mayHaveAlpha: outline.mayHaveAlpha)
        if let gray = grayFinding(outline, target: target) { findings.append(gray) }
        if outline.format != .png {
            findings.append(.init(.error, .format, "\(outline.format.displayName); \(target.displayName)'s \(icon.role) is a PNG"))
        }
        if outline.width != icon.width || outline.height != icon.height {
            findings.append(.init(.error, .size, "\(outline.width)×\(outline.height) px; \(target.displayName)'s \(icon.role) is \(icon.dimensions)"))
        }
        if bytes.count > icon.maxBytes {
            findings.append(.init(.error, .budget, "\(StickerChecker.grouped(bytes.count)) bytes, over \(target.displayName)'s \(StickerChecker.grouped(icon.maxBytes)) for its \(icon.role)"))
        }
        findings.append(.init(.info, .format, "\(target.displayName)'s \(icon.role) (\(icon.fileName))"))
        return StickerCheckReport(path: path, bytes: bytes.count, facts: facts, transparent: nil, findings: findings)
    }

    /// `bytes` as `icon` when a video is that picture's animation (Telegram's `thumbnail.webm`):
    /// a WebM under that name is checked as an animated sticker of
    /// `target.animationTarget(for:)`; a WebM under the still's name, or anything else under the
    /// video's, is an error of format. Nil for a file that is neither (a still, checked as such).
    private static func video(_ bytes: [UInt8], path: String, packIcon icon: PackIcon, target: StickerTarget) -> StickerCheckReport? {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let videoName = target.fileName(of: icon, animated: true)
        let isVideo = WebMOutline.isEBML(bytes)
        if isVideo && name == videoName {
            var report = check(bytes, path: path, target: target.animationTarget(for: icon))
            report.findings.append(.init(.info, .format, "\(target.displayName)'s \(icon.role) (\(videoName)), animated"))
            return report
        }
        guard isVideo || name == videoName else { return nil }
        let facts = StickerFacts(format: isVideo ? "WebM" : ImageDecoder.sniff(bytes)?.displayName)
        let what = isVideo ? "a WebM video" : "not a WebM video"
        return StickerCheckReport(path: path, bytes: bytes.count, facts: facts, transparent: nil, findings: [
            .init(.error, .format, "\(what), named \(name); \(target.displayName)'s \(icon.role) is \(icon.fileName) (PNG) or \(videoName) (WebM video)"),
        ])
    }

    /// The error of a gray PNG (colour type 0 or 4) for an app that asks for RGB colour
    /// (`StickerTarget.allowsGrayPNG`: LINE); nil for any other file or app.
    static func grayFinding(_ outline: ImageOutline, target: StickerTarget) -> StickerFinding? {
        guard !target.allowsGrayPNG, outline.pngColorType == .grayscale || outline.pngColorType == .grayscaleAlpha else { return nil }
        return StickerFinding(.error, .format, "a gray PNG (colour type \(outline.pngColorType?.rawValue ?? 0)); "
                              + "\(target.displayName) asks for RGB colour (palette, RGB or RGBA)")
    }

    /// The structure of an image file, or why it is not one (as `check` without a platform says).
    private static func outline(_ bytes: [UInt8]) throws -> ImageOutline {
        guard let o = try ImageOutline.inspect(bytes) else { throw ImageError(nil, SniffError.unrecognised(bytes)) }
        return o
    }

    /// The report of a file that could not be read: the format its first bytes name (as `check`
    /// without a platform says), `findings` so far and the error.
    private static func unreadable(_ error: Error, path: String, bytes: [UInt8], findings: [StickerFinding]) -> StickerCheckReport {
        StickerCheckReport(path: path, bytes: bytes.count, facts: StickerFacts(format: ImageDecoder.sniff(bytes)?.displayName), transparent: nil,
                           findings: findings + [.init(.error, .unreadable, "\(error)")])
    }
}
