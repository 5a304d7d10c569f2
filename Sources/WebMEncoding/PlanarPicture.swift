/// Where one I420 picture goes: the three planes libvpx will read, with their strides. Chroma
/// planes are `(width + 1) / 2 × (height + 1) / 2`.
struct PlanarPicture {
    var y: UnsafeMutablePointer<UInt8>
    var u: UnsafeMutablePointer<UInt8>
    var v: UnsafeMutablePointer<UInt8>
    var yStride: Int
    var uStride: Int
    var vStride: Int
    var width: Int
    var height: Int
}
