import ImageCore
import XCTest
@testable import ImageResize

/// `FrameFitter` (one frame at a time) and `VisibleBounds` (trim bounds fed frame by frame).
final class FrameFitterTests: XCTestCase {
    /// Random frames on one canvas, with transparent margins that differ per frame.
    static func animation(_ w: Int, _ h: Int, frames: Int, seed: UInt64) -> Animation {
        var rng = SeededGenerator(seed: seed)
        var out: [Frame] = []
        for i in 0..<frames {
            let content = randomImage(w, h, &rng)
            var img = Image(width: w, height: h)
            let x0 = Int(rng.next() % UInt64(w / 3)), y0 = Int(rng.next() % UInt64(h / 3))
            let x1 = w - Int(rng.next() % UInt64(w / 3)), y1 = h - Int(rng.next() % UInt64(h / 3))
            for y in y0..<y1 { for x in x0..<x1 { img[x, y] = content[x, y] } }
            out.append(Frame(image: img, delay: Delay(centiseconds: 3 + i)))
        }
        return Animation(width: w, height: h, frames: out, loopCount: 2)
    }

    static let optionSets: [FitOptions] = [
        FitOptions(size: 17), FitOptions(size: 17, fit: .cover), FitOptions(size: 64, inset: 5),
        FitOptions(size: 23, fit: .cover, inset: 2, linear: true), FitOptions(size: 9, inset: 7),
        FitOptions(size: 0),
    ]

    func testEachFrameFitsAsAStill() {
        let anim = Self.animation(41, 29, frames: 4, seed: 5)
        for options in Self.optionSets {
            var fitter = FrameFitter(canvasWidth: 41, canvasHeight: 29, options: options)
            let whole = Resizer.fit(anim, options: options)
            for (i, frame) in anim.frames.enumerated() {
                let one = fitter.fit(frame.image)
                XCTAssertEqual(one, fitStill(frame.image, options), "\(options) frame \(i)")
                XCTAssertEqual(one, whole.animation.frames[i].image, "\(options) frame \(i)")
            }
            XCTAssertEqual(fitter.warnings, whole.warnings, "\(options)")
            XCTAssertEqual(fitter.upscaled, whole.upscaled, "\(options)")
            XCTAssertEqual(fitter.size, whole.animation.width, "\(options)")
        }
    }

    /// Canvas frames given with their damage (a square moving over a patterned canvas; one
    /// frame unchanged): each output is the still fit of its canvas, the damage returned is
    /// exactly the output pixels that changed, and outputs the caller keeps stay as they were
    /// (each frame is written over the one before in place, copied only while it is still held).
    func testCanvasFramesWithDamageEqualStills() {
        let w = 24, h = 20
        var canvases: [Image] = []
        for k in 0..<10 {
            var img = Image(width: w, height: h)
            for y in 0..<h { for x in 0..<w where (x + y) % 5 != 0 { img[x, y] = RGBA(UInt8(x * 10), UInt8(y * 12), 90, 255) } }
            let p = k == 5 ? 4 : k   // frame 5 repeats frame 4
            for y in (2 + p)..<(7 + p) { for x in (3 + 2 * p)..<(9 + 2 * p) { img[x, y] = RGBA(250, 20, UInt8(p * 20), 200) } }
            canvases.append(img)
        }
        func spans(_ d: RowDamage, _ rows: Int) -> [Range<Int>?] { (0..<rows).map { d.span($0) } }
        for options in Self.optionSets {
            for keeps in [false, true] {
                var fitter = FrameFitter(canvasWidth: w, canvasHeight: h, options: options)
                var kept: [Image] = []
                var last: Image? = nil
                for (k, canvas) in canvases.enumerated() {
                    let damage = k == 0 ? nil : RowDamage.between(canvases[k - 1], canvas)
                    let frame = CanvasFrame(canvasWidth: w, canvasHeight: h, box: PixelRect(x: 0, y: 0, width: w, height: h),
                                            pixels: canvas, damage: damage, delay: Delay(centiseconds: 4))
                    let (out, changed) = fitter.fit(frame)
                    XCTAssertEqual(out, fitStill(canvas, options), "\(options) frame \(k)")
                    if let last {
                        XCTAssertEqual(spans(changed, out.height), spans(RowDamage.between(last, out), out.height), "\(options) frame \(k)")
                    }
                    last = keeps ? out : fitStill(canvas, options)
                    if keeps { kept.append(out) }
                }
                for (k, out) in kept.enumerated() { XCTAssertEqual(out, fitStill(canvases[k], options), "\(options) kept frame \(k)") }
            }
        }
    }

    /// Trim by hand: crop every frame to the union of its visible pixels (computed here with
    /// plain loops), then fit the crops without trim.
    func testTrimWithFedBoundsEqualsFittingHandCroppedFrames() {
        let anim = Self.animation(47, 38, frames: 3, seed: 11)
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for frame in anim.frames {
            for y in 0..<38 { for x in 0..<47 where frame.image[x, y].a != 0 {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            } }
        }
        XCTAssertTrue(x0 > 0 || y0 > 0 || x1 < 46 || y1 < 37, "the fixture should have a margin to trim")
        func crop(_ img: Image) -> Image {
            var out = Image(width: x1 - x0 + 1, height: y1 - y0 + 1)
            for y in 0..<out.height { for x in 0..<out.width { out[x, y] = img[x0 + x, y0 + y] } }
            return out
        }
        for var options in Self.optionSets {
            options.trim = true
            var bounds = VisibleBounds()
            for frame in anim.frames { bounds.add(frame.image) }
            var fitter = FrameFitter(canvasWidth: 47, canvasHeight: 38, options: options, visibleBounds: bounds)
            let whole = Resizer.fit(anim, options: options)
            var untrimmed = options
            untrimmed.trim = false
            for (i, frame) in anim.frames.enumerated() {
                let one = fitter.fit(frame.image)
                XCTAssertEqual(one, fitStill(crop(frame.image), untrimmed), "\(options) frame \(i)")
                XCTAssertEqual(one, whole.animation.frames[i].image, "\(options) frame \(i)")
            }
            XCTAssertEqual(fitter.warnings, whole.warnings, "\(options)")
        }
    }

    func testTrimWithoutBoundsOrWithNothingVisibleKeepsTheWholeCanvas() {
        let anim = Self.animation(30, 20, frames: 2, seed: 3)
        var plain = FrameFitter(canvasWidth: 30, canvasHeight: 20, options: FitOptions(size: 12))
        var noBounds = FrameFitter(canvasWidth: 30, canvasHeight: 20, options: FitOptions(size: 12, trim: true))
        var empty = FrameFitter(canvasWidth: 30, canvasHeight: 20, options: FitOptions(size: 12, trim: true),
                                visibleBounds: VisibleBounds())
        for frame in anim.frames {
            let want = plain.fit(frame.image)
            XCTAssertEqual(noBounds.fit(frame.image), want)
            XCTAssertEqual(empty.fit(frame.image), want)
        }
        // Bounds are ignored without trim.
        var bounds = VisibleBounds()
        for frame in anim.frames { bounds.add(frame.image) }
        var ignoring = FrameFitter(canvasWidth: 30, canvasHeight: 20, options: FitOptions(size: 12), visibleBounds: bounds)
        var trimming = FrameFitter(canvasWidth: 30, canvasHeight: 20, options: FitOptions(size: 12, trim: true), visibleBounds: bounds)
        XCTAssertEqual(ignoring.fit(anim.frames[0].image), plain.fit(anim.frames[0].image))
        XCTAssertNotEqual(trimming.fit(anim.frames[0].image), plain.fit(anim.frames[0].image))
    }

    func testRepeatedFramesShareOneResult() {
        let anim = Self.animation(25, 25, frames: 2, seed: 8)
        let (a, b) = (anim.frames[0].image, anim.frames[1].image)
        var fitter = FrameFitter(canvasWidth: 25, canvasHeight: 25, options: FitOptions(size: 10))
        let out = [a, a, b, a].map { fitter.fit($0) }
        XCTAssertEqual(out[0], out[1])
        XCTAssertEqual(out[3], out[0])
        XCTAssertNotEqual(out[2], out[0])
        // A repeat shares the storage of the result it repeats: the fitted animation of a
        // mostly-still GIF does not hold one image per frame.
        let sharing = out[0].pixels.withUnsafeBufferPointer { p in out[1].pixels.withUnsafeBufferPointer { $0.baseAddress == p.baseAddress } }
        XCTAssertTrue(sharing)
    }

    func testBoundsFedFrameByFrameAreTheUnion() {
        var f1 = Image(width: 20, height: 10), f2 = Image(width: 20, height: 10)
        f1[3, 4] = RGBA(1, 2, 3, 1)
        f2[15, 8] = RGBA(1, 2, 3, 255)
        f2[0, 2] = RGBA(0, 0, 0, 0)
        var bounds = VisibleBounds()
        XCTAssertNil(bounds.rectangle)
        bounds.add(f1)
        XCTAssertEqual(bounds.rectangle, TrimBounds(x: 3, y: 4, width: 1, height: 1))
        bounds.add(f2)
        XCTAssertEqual(bounds.rectangle, TrimBounds(x: 3, y: 4, width: 13, height: 5))
        bounds.add(Image(width: 20, height: 10))
        XCTAssertEqual(bounds.rectangle, TrimBounds(x: 3, y: 4, width: 13, height: 5))
    }
}
