import ImageCore
import ImageDecoding

/// What a sticker file's headers say, read without decoding pixels.
public struct StickerFacts: Sendable, Codable, Equatable {
    /// "PNG", "APNG", "GIF", "JPEG", "WebP", or nil when the bytes are no known image format.
    public var format: String?
    public var width: Int?
    public var height: Int?
    /// Frames shown (1 for a still).
    public var frames: Int
    /// Sum of the frame delays as browsers show them (`Delay.displayed`); nil for stills.
    public var durationMs: Double?
    /// Frames per second over the whole loop (`frames / duration`); nil for stills.
    public var fps: Double?
    /// The rate of the longest-held frame (`1 / longest delay`); nil for stills.
    public var lowestFPS: Double?
    /// Times to play (0 = forever); nil for stills.
    public var loopCount: Int?
    /// False when the header proves every pixel is opaque (no alpha channel, no tRNS, no GIF
    /// transparent index); true when pixels may be transparent.
    public var mayHaveAlpha: Bool

    public init(format: String?, width: Int? = nil, height: Int? = nil, frames: Int = 1, durationMs: Double? = nil,
                fps: Double? = nil, lowestFPS: Double? = nil, loopCount: Int? = nil, mayHaveAlpha: Bool = false) {
        self.format = format
        self.width = width
        self.height = height
        self.frames = frames
        self.durationMs = durationMs
        self.fps = fps
        self.lowestFPS = lowestFPS
        self.loopCount = loopCount
        self.mayHaveAlpha = mayHaveAlpha
    }

    /// The facts of the file in `bytes`, from its outline (`ImageOutline.inspect`). Throws
    /// `ImageError` when the file is empty or its structure is broken.
    init(reading bytes: [UInt8]) throws {
        if ImageFormat.identify(bytes) == .webp {
            // Messages does not take WebP: only its size is reported, its structure is not checked.
            let outline = ImageOutline.read(bytes)
            self.init(format: ImageFormat.webp.displayName, width: outline?.width, height: outline?.height,
                      mayHaveAlpha: outline?.mayHaveAlpha ?? true)
            return
        }
        guard let outline = try ImageOutline.inspect(bytes) else {
            self.init(format: nil)
            return
        }
        let animated = outline.frameCount > 1
        self.init(format: outline.format.displayName, width: outline.width, height: outline.height,
                  frames: outline.frameCount, loopCount: animated ? outline.loopCount : nil,
                  mayHaveAlpha: outline.mayHaveAlpha)
        if animated { setTiming(outline.storedDelays.map(\.displayed.seconds)) }
    }

    /// Fills in duration and rates from the frame delays in seconds, as displayed. Summed as
    /// doubles: exact fractions could overflow on hostile denominators.
    mutating func setTiming(_ delays: [Double]) {
        guard frames > 1, !delays.isEmpty else { return }
        let total = delays.reduce(0, +)
        durationMs = total * 1000
        if total > 0 { fps = Double(frames) / total }
        if let longest = delays.max(), longest > 0 { lowestFPS = 1 / longest }
    }
}
