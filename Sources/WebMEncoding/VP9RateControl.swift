/// How the VP9 encoder spends bits: the knob the budget search turns.
public enum VP9RateControl: Hashable, Sendable {
    /// Constant quality (libvpx's `VPX_Q`, what `crf` means to ffmpeg with no bitrate): every
    /// frame at quantizer level `cqLevel`, 0 (best, largest) … 63 (worst, smallest). The size
    /// follows the content. With `WebMOptions.maxKilobitsPerSecond` set, the quality is
    /// constrained by that bitrate instead (`VPX_CQ`).
    case constantQuality(cqLevel: Int)
    /// Variable bitrate (`VPX_VBR`) aiming at `kilobitsPerSecond` over the whole animation: the
    /// way to aim at a file size (bytes ≈ kbps × 125 × seconds), best with
    /// `WebMOptions.twoPass`. The aim is approximate: a search still checks the bytes.
    case bitrate(kilobitsPerSecond: Int)
}
