/// One part of a canvas a decoder holds: `pixels` (`rect.width × rect.height` straight-alpha
/// RGBA) lie at `rect` on the canvas.
package struct CanvasRegion: Sendable {
    package var rect: PixelRect
    package var pixels: Image

    package init(rect: PixelRect, pixels: Image) {
        precondition(pixels.width == rect.width && pixels.height == rect.height, "CanvasRegion: pixels do not fill the rectangle")
        self.rect = rect
        self.pixels = pixels
    }
}
