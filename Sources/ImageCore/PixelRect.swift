/// A rectangle of whole pixels: columns `x ..< x + width`, rows `y ..< y + height`.
package struct PixelRect: Sendable, Equatable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// True when the rectangle holds no pixel.
    package var isEmpty: Bool { width <= 0 || height <= 0 }
    /// Pixels inside (0 when empty).
    package var area: Int { isEmpty ? 0 : width * height }

    /// The part of this rectangle inside `other` (empty when they do not meet).
    package func clipped(to other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    package func union(_ other: PixelRect) -> PixelRect {
        if other.isEmpty { return self }
        if isEmpty { return other }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width), y1 = max(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// True when every pixel of `other` is inside this rectangle (an empty one always is).
    package func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.x + other.width <= x + width
                          && other.y + other.height <= y + height)
    }
}
