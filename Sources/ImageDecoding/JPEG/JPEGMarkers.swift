import CJPEGShim

/// The metadata Stickerkit uses from a JPEG's APP1 (EXIF) and APP2 (ICC) markers.
struct JPEGMarkers {
    /// EXIF orientation tag value (1…8 when valid), from IFD0 tag 0x0112.
    var orientation: Int?
    /// The ICC profile, reassembled from its `ICC_PROFILE` chunks in sequence order.
    var icc: [UInt8]?
    /// Why the ICC chunks could not be reassembled, when they could not.
    var iccProblem: JPEGError?

    init(decoder: OpaquePointer) {
        var chunks: [(sequence: Int, count: Int, payload: [UInt8])] = []
        let markerCount = Int(sk_jpeg_marker_count(decoder))
        for i in 0..<markerCount {
            var code: Int32 = 0
            var pointer: UnsafePointer<UInt8>?
            var length = 0
            guard sk_jpeg_marker(decoder, Int32(i), &code, &pointer, &length) != 0, let pointer else { continue }
            let bytes = UnsafeBufferPointer(start: pointer, count: length)
            if code == 0xE1, orientation == nil, bytes.starts(with: JPEGMarkers.exifSignature) {
                orientation = JPEGMarkers.exifOrientation(tiff: UnsafeBufferPointer(rebasing: bytes[6...]))
            } else if code == 0xE2, bytes.count >= 14, bytes.starts(with: JPEGMarkers.iccSignature) {
                chunks.append((Int(bytes[12]), Int(bytes[13]), Array(bytes[14...])))
            }
        }
        if !chunks.isEmpty { assembleICC(chunks) }
    }

    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let iccSignature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// Puts the chunks in sequence order; every chunk must agree on the count and each
    /// sequence number 1…count must appear exactly once.
    private mutating func assembleICC(_ chunks: [(sequence: Int, count: Int, payload: [UInt8])]) {
        let count = chunks[0].count
        let sequences = chunks.map(\.sequence).sorted()
        guard count > 0, chunks.allSatisfy({ $0.count == count }), sequences == Array(1...count) else {
            iccProblem = .inconsistentICCChunks(sequences: chunks.map(\.sequence), counts: chunks.map(\.count))
            return
        }
        icc = chunks.sorted { $0.sequence < $1.sequence }.flatMap(\.payload)
    }

    /// Reads IFD0's orientation tag (0x0112, SHORT) from a TIFF structure in either byte order.
    /// Any inconsistency gives nil: a broken EXIF block must not stop the image from decoding.
    static func exifOrientation(tiff: UnsafeBufferPointer<UInt8>) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for e in 0..<entries {
            let entry = ifd + 2 + e * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let count = u32(entry + 4) else { return nil }
            if tag == 0x0112 {
                // SHORT (3) with count 1 stores its value in the first two bytes of the value field.
                guard type == 3, count >= 1, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }
}
