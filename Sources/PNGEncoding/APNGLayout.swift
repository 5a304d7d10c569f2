/// How an APNG encode laid its frames out: for each written frame, the input frames it shows,
/// its rectangle, blend and dispose ops. Pass it back with the same frames to encode them at
/// another effort without searching the layout again
/// (`PNGEncoder.encodeAnimation(frames:delays:loopCount:effort:alwaysAnimated:layout:)`).
///
/// The layout search ranks candidates the same way at every effort, so a layout found at `.fast`
/// is the one a fresh `.default` or `.max` encode would find, and reusing it gives the same bytes.
package struct APNGLayout: Sendable, Equatable {
    /// One written frame.
    struct Frame: Sendable, Equatable {
        /// The input frames it shows: `start` is drawn, the rest are identical and only add their
        /// delays.
        var start: Int
        var end: Int
        var rect: CanvasRect
        var blend: APNGBlendOp
        var dispose: APNGDisposeOp
    }

    let width: Int
    let height: Int
    /// Input frames the layout was made for.
    package let frameCount: Int
    let frames: [Frame]
    /// The size of each written frame's zlib stream in the encode that made this layout (at
    /// libdeflate level 6 for a `.fast` palette encode): a per-frame cost for callers that
    /// drop or merge frames later.
    package let streamBytes: [Int]

    /// Frames written to the file (fewer than `frameCount` when identical frames were merged).
    package var writtenFrameCount: Int { frames.count }

    /// Bytes each input frame added to the file in the encode that made this layout: a written
    /// frame's stream with its chunks (`APNGEncoder.fileBytes(ofFrame:stream:)`) at the input
    /// frame it starts at, nothing at the frames merged into it. Where a file's bytes lie over its
    /// frames, for extrapolating an encode of the same frames that stops early.
    package var bytesByInputFrame: [Int] {
        var bytes = [Int](repeating: 0, count: frameCount)
        for (k, f) in frames.enumerated() where f.start < frameCount {
            bytes[f.start] = APNGEncoder.fileBytes(ofFrame: k, stream: streamBytes[k])
        }
        return bytes
    }

    /// The streams themselves and the size of the file they made: what `shrinkAnimation` keeps
    /// for the frames it does not recompress. Not part of equality (a layout is the same layout
    /// whatever the level its streams were compressed at).
    var streams: [[UInt8]] = []
    var fileBytes = 0

    package static func == (a: APNGLayout, b: APNGLayout) -> Bool {
        a.width == b.width && a.height == b.height && a.frameCount == b.frameCount && a.frames == b.frames
            && a.streamBytes == b.streamBytes
    }
}
