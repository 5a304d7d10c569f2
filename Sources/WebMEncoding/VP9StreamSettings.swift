/// What one VP9 stream (colour, or alpha) is encoded with.
struct VP9StreamSettings {
    var rate: VP9RateControl
    var maxKilobitsPerSecond: Int?
    var speed: Int
    var lookahead: Int
    var keyframeInterval: Int?
    var twoPass: Bool
    /// The picture is full range (alpha) rather than BT.601 studio range (colour).
    var fullRange: Bool
    /// libvpx's realtime deadline rather than "good" (`WebMOptions.realtime`).
    var realtime: Bool
}
