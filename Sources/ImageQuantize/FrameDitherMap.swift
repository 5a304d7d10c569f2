import ImageCore

/// Where error diffusion is allowed in one frame (edges and flat areas get none): depends on the
/// frame alone, so it can be made once and reused for every palette the frame is remapped to.
package struct FrameDitherMap: Sendable {
    let map: [UInt8]
    package init(_ frame: Image) { map = DitherMap.make(frame) }
}
