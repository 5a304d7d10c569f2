import ImageCore

extension OutlineWalk {
    /// JPEG: markers up to the first start-of-frame, which holds the size as stored (EXIF
    /// orientation may swap it in the decoded image).
    mutating func jpeg() throws {
        func fail(_ reason: OutlineError) -> ImageError { ImageError(.jpeg, reason) }
        format = .jpeg
        mayHaveAlpha = false
        var pos = 2
        while pos + 3 < b.count {
            guard b[pos] == 0xFF else { throw fail(.jpegExpectedMarker(at: pos, found: b[pos])) }
            let marker = b[pos + 1]
            if marker == 0xFF { pos += 1; continue }   // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { pos += 2; continue }   // no length
            if marker == 0xD9 || marker == 0xDA { break }   // end of image, start of scan
            let length = be16(pos + 2) ?? 0   // in range: pos + 3 < b.count
            guard length >= 2 else { throw fail(.jpegSegmentLength(marker: marker, length: length)) }
            if marker == 0xE1 {
                // The first EXIF block with an orientation decides, as `JPEGMarkers` reads it.
                let payload = pos + 4, end = min(b.count, pos + 2 + length)
                if jpegOrientation == nil, end - payload > 6,
                   UnsafeBufferPointer(rebasing: b[payload..<payload + 6]).elementsEqual(JPEGMarkers.exifSignature) {
                    jpegOrientation = JPEGMarkers.exifOrientation(tiff: UnsafeBufferPointer(rebasing: b[(payload + 6)..<end]))
                }
            }
            // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                guard pos + 9 <= b.count, length >= 7, let h = be16(pos + 5), let w = be16(pos + 7) else {
                    throw fail(.jpegFrameHeaderTruncated(at: pos))
                }
                guard w > 0, h > 0 else { throw fail(.jpegZeroSize(width: w, height: h)) }
                (width, height) = (w, h)
                jpegProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                let components = u8(pos + 9) ?? 0
                jpegSampling = (0..<components).compactMap { k in
                    u8(pos + 11 + 3 * k).map { (h: max(1, $0 >> 4), v: max(1, $0 & 15)) }
                }
                // The image data must run to an end-of-image marker, as the decoder reads it.
                if inspecting, !JPEGScans.walk(b).ended { throw fail(.jpegNoEnd(fileSize: b.count)) }
                return
            }
            pos += 2 + length
        }
        throw fail(.jpegNoFrameHeader(fileSize: b.count))
    }
}
