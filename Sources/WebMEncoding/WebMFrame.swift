/// One frame as the muxer places it: the colour stream's VP9 frame, the alpha stream's (nil when
/// the file has no alpha), when it starts and how long it lasts (milliseconds, the timestamp
/// scale), and whether it is a keyframe in both streams.
struct WebMFrame {
    var color: [UInt8]
    var alpha: [UInt8]?
    var start: Int
    var duration: Int
    var keyframe: Bool
}
