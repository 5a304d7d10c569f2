/// One compressed VP9 frame as libvpx hands it out (a superframe when it carries a hidden
/// alt-reference frame), with its presentation time in milliseconds.
struct VP9Packet {
    var bytes: [UInt8]
    var pts: Int
    var keyframe: Bool
}
