/// A region of the canvas.
struct CanvasRect: Equatable, Sendable {
    var x: Int, y: Int, width: Int, height: Int

    /// Whether `other` lies inside this rectangle (or equals it).
    func contains(_ other: CanvasRect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}
