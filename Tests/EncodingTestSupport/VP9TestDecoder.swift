import CVPX
import ImageCore

/// libvpx's VP9 decoder for the tests: one context per stream, frames in decode order.
public final class VP9TestDecoder {
    private let ctx = UnsafeMutablePointer<vpx_codec_ctx_t>.allocate(capacity: 1)

    public init() throws {
        ctx.initialize(to: vpx_codec_ctx_t())
        guard cvpx_decoder_init(ctx, 1) == VPX_CODEC_OK else { throw DecodeFailure.initFailed }
    }

    deinit {
        vpx_codec_destroy(ctx)
        ctx.deallocate()
    }

    public enum DecodeFailure: Error { case initFailed, decodeFailed(Int32), noFrame }

    /// The decoded planes of one compressed frame: Y, U, V (tightly packed) and the size.
    public struct Planes {
        public var width: Int, height: Int
        public var y: [UInt8], u: [UInt8], v: [UInt8]
        public var fullRange: Bool
    }

    public func decode(_ data: [UInt8]) throws -> Planes {
        let status = data.withUnsafeBufferPointer { vpx_codec_decode(ctx, $0.baseAddress, UInt32($0.count), nil, 0) }
        guard status == VPX_CODEC_OK else { throw DecodeFailure.decodeFailed(Int32(status.rawValue)) }
        var iterator: vpx_codec_iter_t? = nil
        guard let img = vpx_codec_get_frame(ctx, &iterator) else { throw DecodeFailure.noFrame }
        let w = Int(img.pointee.d_w), h = Int(img.pointee.d_h)
        func plane(_ p: UnsafeMutablePointer<UInt8>, _ stride: Int32, _ pw: Int, _ ph: Int) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(pw * ph)
            for row in 0..<ph { out += UnsafeBufferPointer(start: p + row * Int(stride), count: pw) }
            return out
        }
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        return Planes(width: w, height: h, y: plane(img.pointee.planes.0!, img.pointee.stride.0, w, h),
                      u: plane(img.pointee.planes.1!, img.pointee.stride.1, cw, ch),
                      v: plane(img.pointee.planes.2!, img.pointee.stride.2, cw, ch),
                      fullRange: img.pointee.range == VPX_CR_FULL_RANGE)
    }

    /// BT.601 studio-range YUV 4:2:0 → RGBA, with `alpha` as the alpha plane (255 when nil).
    public static func rgba(_ p: Planes, alpha: Planes?) -> Image {
        var out = [UInt8](repeating: 255, count: p.width * p.height * 4)
        let cw = (p.width + 1) / 2
        for y in 0..<p.height {
            for x in 0..<p.width {
                let yy = (Double(p.y[y * p.width + x]) - 16) * 255 / 219
                let u = (Double(p.u[(y / 2) * cw + x / 2]) - 128) * 255 / 224
                let v = (Double(p.v[(y / 2) * cw + x / 2]) - 128) * 255 / 224
                let r = yy + 1.402 * v, g = yy - 0.344136 * u - 0.714136 * v, b = yy + 1.772 * u
                let i = (y * p.width + x) * 4
                out[i] = UInt8(max(0, min(255, r.rounded())))
                out[i + 1] = UInt8(max(0, min(255, g.rounded())))
                out[i + 2] = UInt8(max(0, min(255, b.rounded())))
                if let alpha { out[i + 3] = alpha.y[y * p.width + x] }
            }
        }
        return Image(width: p.width, height: p.height, pixels: out)
    }
}
