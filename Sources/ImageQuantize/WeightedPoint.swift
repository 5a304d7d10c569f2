/// A histogram colour as a point of `ErrorSpace` with its pixel count.
struct WeightedPoint {
    var x: SIMD4<Float>
    var w: Float
}
