/// A palette image: one index per pixel into a palette of at most 256 RGBA entries (8-bit alpha).
public struct IndexedImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Straight-alpha sRGB entries; at most 256.
    public var palette: [RGBA]
    /// `width * height` indices, rows top to bottom. Every index is `< palette.count`.
    public var indices: [UInt8]

    public init(width: Int, height: Int, palette: [RGBA], indices: [UInt8]) {
        precondition(palette.count <= 256 && indices.count == width * height)
        self.width = width
        self.height = height
        self.palette = palette
        self.indices = indices
    }

    /// The image this palette image stands for.
    public func expanded() -> Image {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let pal = palette
        out.withUnsafeMutableBufferPointer { o in
            indices.withUnsafeBufferPointer { idx in
                for i in 0..<idx.count {
                    let c = pal[Int(idx[i])]
                    o[i * 4] = c.r; o[i * 4 + 1] = c.g; o[i * 4 + 2] = c.b; o[i * 4 + 3] = c.a
                }
            }
        }
        return Image(width: width, height: height, pixels: out)
    }
}
