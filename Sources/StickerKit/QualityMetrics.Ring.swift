extension QualityMetrics {
    /// The SSIM window's working rows for one pair of planes: a ring of the last `2r + 1` source
    /// rows of the five horizontally blurred planes (x, y, x², y², xy), from which each output row
    /// is blurred vertically and scored. The ring's border columns stay zero.
    final class Ring {
        static let radius = 5
        /// Gaussian σ 1.5, normalized to sum 1.
        static let kernel: [Float] = {
            let r = radius
            var k = [Float](repeating: 0, count: 2 * r + 1)
            var sum: Float = 0
            for i in -r...r { let v = Float(exp(-Double(i * i) / (2 * 1.5 * 1.5))); k[i + r] = v; sum += v }
            return k.map { $0 / sum }
        }()

        private let w: Int
        private let taps = 2 * radius + 1
        private let k: UnsafeMutablePointer<Float>
        private let rows: UnsafeMutablePointer<Float>
        private let products: UnsafeMutablePointer<Float>
        private let blurred: UnsafeMutablePointer<Float>

        /// `width` must exceed `2 · radius`.
        init(width: Int) {
            w = width
            k = .allocate(capacity: taps)
            k.initialize(from: Self.kernel, count: taps)
            rows = .allocate(capacity: 5 * taps * width)
            rows.initialize(repeating: 0, count: 5 * taps * width)
            products = .allocate(capacity: 3 * width)
            blurred = .allocate(capacity: 5 * width)
        }

        deinit { k.deallocate(); rows.deallocate(); products.deallocate(); blurred.deallocate() }

        /// Blurs source row `row` (`x` and `y`, `width` values each) horizontally into its slot.
        func add(row: Int, x: UnsafePointer<Float>, y: UnsafePointer<Float>) {
            let r = Self.radius
            QualityMetrics.rowProducts(x, y, products, products + w, products + 2 * w, w)
            // Plane p of source row `row` at `rows + (p · taps + row % taps) · w`.
            let slot = rows + (row % taps) * w + r, plane = taps * w, span = w - 2 * r
            QualityMetrics.horizontal(x, slot, span, k, r)
            QualityMetrics.horizontal(y, slot + plane, span, k, r)
            QualityMetrics.horizontal(products, slot + 2 * plane, span, k, r)
            QualityMetrics.horizontal(products + w, slot + 3 * plane, span, k, r)
            QualityMetrics.horizontal(products + 2 * w, slot + 4 * plane, span, k, r)
        }

        /// Takes source row `row` from `other` (same width), whose source row was bit-for-bit this
        /// ring's: the same values `add` would have computed.
        func copy(row: Int, from other: Ring) {
            for p in 0..<5 {
                let offset = (p * taps + row % taps) * w
                (rows + offset).update(from: other.rows + offset, count: w)
            }
        }

        /// The SSIM terms of output row `row - radius`, summed, once source rows
        /// `row - 2 · radius … row` are in.
        func score(through row: Int) -> Float {
            let r = Self.radius
            for p in 0..<5 {
                QualityMetrics.vertical(rows + p * taps * w, firstSlot: (row - 2 * r) % taps, taps: taps, blurred + p * w, w, k)
            }
            return QualityMetrics.ssimRow(blurred, blurred + w, blurred + 2 * w, blurred + 3 * w, blurred + 4 * w, w, r)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
