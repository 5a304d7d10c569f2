/// A probe encode (`PNGEncoder.probeAnimation`): the file, or, when it passed the bytes it was
/// allowed before its last frame, an estimate of the whole file's size — never a file.
package enum APNGProbe {
    case file(bytes: [UInt8], layout: APNGLayout)
    /// The encode stopped early: the file's size extrapolated from the input frames walked.
    case over(estimatedBytes: Int)
}
