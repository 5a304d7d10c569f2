import CLCMS2
import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

final class ColorProfileTests: XCTestCase {
    /// Adobe RGB (1998) → sRGB by the published matrices (both D65), as an independent reference.
    static func adobeToSRGB(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (Double, Double, Double) {
        let lin = [r, g, b].map { pow(Double($0) / 255, 563.0 / 256.0) }
        let x = 0.5767309 * lin[0] + 0.1855540 * lin[1] + 0.1881852 * lin[2]
        let y = 0.2973769 * lin[0] + 0.6273491 * lin[1] + 0.0752741 * lin[2]
        let z = 0.0270343 * lin[0] + 0.0706872 * lin[1] + 0.9911085 * lin[2]
        let s = [3.2404542 * x - 1.5371385 * y - 0.4985314 * z,
                 -0.9692660 * x + 1.8760108 * y + 0.0415560 * z,
                 0.0556434 * x - 0.2040259 * y + 1.0572252 * z].map { encodeSRGB($0) }
        return (s[0], s[1], s[2])
    }

    static func encodeSRGB(_ v: Double) -> Double {
        let c = min(max(v, 0), 1)
        return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055)
    }

    func testAdobeRGBConvertsLikeThePublishedMatricesAndKeepsAlpha() throws {
        let icc = try OtherFormatFixture.bytes("color/adobe_rgb_1998.icc")
        var pixels: [UInt8] = []
        var seed: UInt32 = 12345
        for i in 0..<4096 {
            seed = seed &* 1_103_515_245 &+ 12345
            pixels += [UInt8(truncatingIfNeeded: seed >> 8), UInt8(truncatingIfNeeded: seed >> 16),
                       UInt8(truncatingIfNeeded: seed >> 24), UInt8(truncatingIfNeeded: i)]
        }
        var image = Image(width: 64, height: 64, pixels: pixels)
        let note = try ColorProfile.convertToSRGB(&image, iccProfile: icc, format: .jpeg)
        XCTAssertEqual(note, "converted from embedded ICC profile 'Adobe RGB (1998)' to sRGB")
        var worst = 0.0, total = 0.0
        for i in stride(from: 0, to: pixels.count, by: 4) {
            XCTAssertEqual(image.pixels[i + 3], pixels[i + 3], "alpha changed at \(i / 4)")
            let e = ColorProfileTests.adobeToSRGB(pixels[i], pixels[i + 1], pixels[i + 2])
            for (c, want) in [e.0, e.1, e.2].enumerated() {
                let d = abs(Double(image.pixels[i + c]) - want)
                worst = max(worst, d); total += d
            }
        }
        XCTAssertLessThanOrEqual(worst, 3.5)
        XCTAssertLessThan(total / Double(pixels.count / 4 * 3), 1.0)
        // Adobe RGB's pure green is outside sRGB: it clips to sRGB's most saturated green.
        var green = Image(width: 1, height: 1, pixels: [0, 255, 0, 255])
        _ = try ColorProfile.convertToSRGB(&green, iccProfile: icc, format: .png)
        XCTAssertEqual(green.pixels[0], 0)
        XCTAssertEqual(green.pixels[1], 255)
    }

    func testSRGBProfileIsANoOp() throws {
        let icc = try OtherFormatFixture.bytes("color/srgb_lcms.icc")
        let original = Image(width: 3, height: 1, pixels: [10, 200, 30, 40, 255, 0, 0, 255, 128, 128, 128, 0])
        var image = original
        XCTAssertNil(try ColorProfile.convertToSRGB(&image, iccProfile: icc, format: .png))
        XCTAssertEqual(image, original)
    }

    func testUnreadableProfileThrowsNamingItsSize() {
        var image = Image(width: 1, height: 1)
        for bytes in [[UInt8](), [UInt8](repeating: 7, count: 200)] {
            let error = OtherFormatFixture.expectError(.decoding) {
                try ColorProfile.convertToSRGB(&image, iccProfile: bytes, format: .jpeg)
            }
            XCTAssertEqual(error, ImageError(.jpeg, ColorProfileError.invalidProfile(bytes: bytes.count)))
            XCTAssertEqual(error?.description, "JPEG: embedded ICC profile is invalid (\(bytes.count) bytes)")
        }
    }

    /// A linear-light gray profile made with lcms2: gray data must come out sRGB-encoded.
    func testGrayProfileOnGrayData() throws {
        let icc = try ColorProfileTests.linearGrayProfile()

        let levels: [UInt8] = [0, 10, 64, 128, 200, 255]
        var image = Image(width: levels.count, height: 1, pixels: levels.flatMap { [$0, $0, $0, 99] })
        let note = try ColorProfile.convertToSRGB(&image, iccProfile: icc, format: .jpeg)
        XCTAssertNotNil(note)
        for (i, v) in levels.enumerated() {
            let want = ColorProfileTests.encodeSRGB(Double(v) / 255)
            for c in 0..<3 {
                XCTAssertEqual(Double(image.pixels[i * 4 + c]), want, accuracy: 2.5, "level \(v)")
            }
            XCTAssertEqual(image.pixels[i * 4 + 3], 99)
        }
    }

    func testGrayProfileOnColourDataIsIgnored() throws {
        let icc = try ColorProfileTests.linearGrayProfile()
        let original = Image(width: 1, height: 1, pixels: [200, 10, 30, 255])
        var image = original
        let note = try ColorProfile.convertToSRGB(&image, iccProfile: icc, format: .png)
        XCTAssertEqual(note?.hasPrefix("ignored embedded ICC profile"), true, "\(String(describing: note))")
        XCTAssertEqual(image, original)
    }

    static func linearGrayProfile() throws -> [UInt8] {
        let curve = cmsBuildGamma(nil, 1.0)
        defer { cmsFreeToneCurve(curve) }
        let profile = cmsCreateGrayProfile(cmsD50_xyY(), curve)
        defer { cmsCloseProfile(profile) }
        return try save(profile)
    }

    static func save(_ profile: cmsHPROFILE?) throws -> [UInt8] {
        var size: cmsUInt32Number = 0
        struct CannotSave: Error {}
        guard cmsSaveProfileToMem(profile, nil, &size) != 0 else { throw CannotSave() }
        var icc = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &icc, &size) != 0 else { throw CannotSave() }
        return icc
    }

    /// A CMYK → Lab profile named "Test CMYK" whose 2×2×2×2 table holds the naive conversion of
    /// each ink corner (0 = no ink), so corner colours must come out as the naive formula says.
    static func naiveCMYKProfile() throws -> [UInt8] {
        let srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab4Profile(nil)
        defer { cmsCloseProfile(srgb); cmsCloseProfile(lab) }
        let toLab = cmsCreateTransform(srgb, (4 << 16) | (3 << 3) | 1, lab, (10 << 16) | (3 << 3) | 2, 0, 0)  // RGB_8 → Lab_16
        defer { cmsDeleteTransform(toLab) }
        var table = [cmsUInt16Number](repeating: 0, count: 16 * 3)
        for corner in 0..<16 {
            // The first channel (C) is the most significant in the table index.
            let c = corner >> 3 & 1, m = corner >> 2 & 1, y = corner >> 1 & 1, k = corner & 1
            let rgb: [UInt8] = [c, m, y].map { UInt8((1 - $0) * (1 - k) * 255) }
            var out = [cmsUInt16Number](repeating: 0, count: 3)
            cmsDoTransform(toLab, rgb, &out, 1)
            table.replaceSubrange((corner * 3)..<(corner * 3 + 3), with: out)
        }
        let profile = cmsCreateProfilePlaceholder(nil)
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigInputClass)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetPCS(profile, cmsSigLabData)
        let pipeline = cmsPipelineAlloc(nil, 4, 3)
        defer { cmsPipelineFree(pipeline) }
        // lutAtoBType needs the A-curves/CLUT/B-curves layout: identity curves around the table.
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 4, nil))
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocCLut16bit(nil, 2, 4, 3, table))
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
        cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline))
        let mlu = cmsMLUalloc(nil, 1)
        defer { cmsMLUfree(mlu) }
        cmsMLUsetASCII(mlu, "en", "US", "Test CMYK")
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
        cmsWriteTag(profile, cmsSigMediaWhitePointTag, UnsafeRawPointer(cmsD50_XYZ()))
        return try save(profile)
    }

    func testCMYKProfileOnBothInkConventions() throws {
        let icc = try ColorProfileTests.naiveCMYKProfile()
        // Corners: cyan, magenta, yellow, black, white, all inks.
        let plain: [UInt8] = [255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]
        let want: [UInt8] = [0, 255, 255, 255, 255, 0, 255, 255, 255, 255, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255]
        for (input, inverted) in [(plain, false), (plain.map { 255 - $0 }, true)] {
            let result = try input.withUnsafeBufferPointer {
                try ColorProfile.cmykToSRGB($0.baseAddress!, pixelCount: 6, inverted: inverted, iccProfile: icc,
                                            format: .jpeg, lenient: false)
            }
            XCTAssertEqual(result.note, "converted CMYK with embedded ICC profile 'Test CMYK' to sRGB")
            XCTAssertLessThanOrEqual(OtherFormatFixture.maxDifference(result.pixels, want), 4, "inverted \(inverted): \(result.pixels)")
        }
        // A CMYK profile on RGB data is ignored.
        var image = Image(width: 1, height: 1, pixels: [1, 2, 3, 255])
        let note = try ColorProfile.convertToSRGB(&image, iccProfile: icc, format: .jpeg)
        XCTAssertEqual(note, "ignored embedded ICC profile 'Test CMYK': it describes CMYK data, the image is RGB")
        XCTAssertEqual(image.pixels, [1, 2, 3, 255])
    }

    func testNaiveCMYK() throws {
        // Plain CMYK (0 = no ink) and Adobe-inverted CMYK (255 = no ink) of the same colours.
        let plain: [UInt8] = [255, 0, 0, 0, /**/ 0, 0, 0, 255, /**/ 0, 0, 0, 0, /**/ 0, 128, 255, 64]
        let inverted = plain.map { 255 - $0 }
        let want: [UInt8] = [0, 255, 255, 255, /**/ 0, 0, 0, 255, /**/ 255, 255, 255, 255,
                             191, 95, 0, 255]   // (255-C)(255-K)/255 rounded: 255·191/255, 127·191/255
        for (input, flag) in [(plain, false), (inverted, true)] {
            let result = try input.withUnsafeBufferPointer {
                try ColorProfile.cmykToSRGB($0.baseAddress!, pixelCount: 4, inverted: flag, iccProfile: nil,
                                            format: .jpeg, lenient: false)
            }
            XCTAssertEqual(result.pixels, want, "inverted: \(flag)")
            XCTAssertTrue(result.note.contains("naive"))
        }
    }

    func testCMYKWithAnRGBProfileFallsBackToNaive() throws {
        let icc = try OtherFormatFixture.bytes("color/adobe_rgb_1998.icc")
        let result = try [UInt8](repeating: 255, count: 4).withUnsafeBufferPointer {
            try ColorProfile.cmykToSRGB($0.baseAddress!, pixelCount: 1, inverted: true, iccProfile: icc,
                                        format: .jpeg, lenient: false)
        }
        XCTAssertEqual(result.pixels, [255, 255, 255, 255])
        XCTAssertTrue(result.note.contains("describes RGB data, not CMYK"), result.note)
    }
}
