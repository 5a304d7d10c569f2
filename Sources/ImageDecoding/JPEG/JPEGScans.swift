/// Counts a JPEG's scans (SOS markers) from its structure, before libjpeg reads any of them: each
/// scan of a progressive file passes over every block of its components, so a file of many tiny
/// scans costs time out of all proportion to its size (libjpeg-turbo's tools cap scans for this
/// reason). The walk follows marker segments and skips entropy-coded data to the next marker
/// (0xFF followed by anything but a stuffed 0x00, a restart marker or fill), in one pass over the
/// bytes.
enum JPEGScans {
    static func count(_ b: UnsafeBufferPointer<UInt8>) -> Int { walk(b).scans }

    /// The scans, and whether the walk reached the end-of-image marker (EOI): without one,
    /// libjpeg runs out of data (`JPEGError.dataEnds`).
    static func walk(_ b: UnsafeBufferPointer<UInt8>) -> (scans: Int, ended: Bool) {
        var scans = 0
        var pos = 2
        while pos + 1 < b.count {
            guard b[pos] == 0xFF else { pos += 1; continue }
            let marker = b[pos + 1]
            if marker == 0xFF { pos += 1; continue }
            if marker == 0x00 || marker == 0x01 || (0xD0...0xD8).contains(marker) { pos += 2; continue }
            if marker == 0xD9 { return (scans, true) }
            guard pos + 3 < b.count else { break }
            let length = Int(b[pos + 2]) << 8 | Int(b[pos + 3])
            pos += 2 + max(2, length)
            guard marker == 0xDA else { continue }
            scans += 1
            // Entropy-coded data up to the next marker.
            while pos + 1 < b.count {
                if b[pos] == 0xFF, b[pos + 1] != 0x00, b[pos + 1] != 0xFF, !(0xD0...0xD7).contains(b[pos + 1]) { break }
                pos += 1
            }
        }
        return (scans, false)
    }
}
