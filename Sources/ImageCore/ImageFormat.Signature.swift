extension ImageFormat {
    /// Magic bytes at fixed offsets that identify a format, e.g. "RIFF" at 0 and "WEBP" at 8.
    public struct Signature: Sendable, Equatable {
        /// Every run of bytes that must be present, each at its offset from the start of the file.
        public let parts: [(offset: Int, bytes: [UInt8])]

        /// One run of bytes at `offset`.
        public init(at offset: Int, _ bytes: [UInt8]) {
            parts = [(offset, bytes)]
        }

        /// Two runs of bytes, each at its offset.
        public init(at offset: Int, _ bytes: [UInt8], at offset2: Int, _ bytes2: [UInt8]) {
            parts = [(offset, bytes), (offset2, bytes2)]
        }

        /// True when every part is present in `file`.
        public func matches(_ file: UnsafeRawBufferPointer) -> Bool {
            parts.allSatisfy { part in
                file.count >= part.offset + part.bytes.count
                    && file[part.offset..<(part.offset + part.bytes.count)].elementsEqual(part.bytes)
            }
        }

        /// True when `file` ends inside the signature and every byte it has matches: a file of
        /// this format cut short (a JPEG that is only FF D8).
        public func isCut(_ file: UnsafeRawBufferPointer) -> Bool {
            guard let end = parts.map({ $0.offset + $0.bytes.count }).max(), file.count < end else { return false }
            return parts.allSatisfy { part in
                (0..<part.bytes.count).allSatisfy { k in
                    part.offset + k >= file.count || file[part.offset + k] == part.bytes[k]
                }
            }
        }

        public static func == (a: Signature, b: Signature) -> Bool {
            a.parts.elementsEqual(b.parts) { $0.offset == $1.offset && $0.bytes == $1.bytes }
        }
    }
}
