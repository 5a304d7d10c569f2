/// A crop rectangle in source pixels: the smallest rectangle holding every pixel with non-zero
/// alpha, over all frames (computed by `VisibleBounds`).
struct TrimBounds: Equatable {
    var x: Int, y: Int, width: Int, height: Int
}
