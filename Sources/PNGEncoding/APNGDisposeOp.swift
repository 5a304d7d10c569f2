/// What a decoder does with a frame's region before the next frame (fcTL `dispose_op`). The
/// encoder never writes APNG_DISPOSE_OP_PREVIOUS (2): readers disagree on it for the first frame.
enum APNGDisposeOp: UInt8, Sendable {
    /// Leave the canvas as it is.
    case none = 0
    /// Clear the frame's region to transparent black.
    case background = 1
}
