/// Percent-encoding of one URL path segment.
package enum PathSegment {
    /// `text` with every byte outside RFC 3986's unreserved set (`A–Z a–z 0–9 - . _ ~`) percent-encoded
    /// as UTF-8, so no id can add a path segment (`/`), a query (`?`), a fragment (`#`) or a dot segment's
    /// meaning: `a/b c?d` → `a%2Fb%20c%3Fd`. `.` and `..` alone are encoded too, since a server or proxy
    /// would resolve them as the current and parent directory.
    package static func encode(_ text: String) -> String {
        if text == "." { return "%2E" }
        if text == ".." { return "%2E%2E" }
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return encoded
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: true
        default: false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(Unicode.Scalar(nibble < 10 ? 0x30 + nibble : 0x41 + nibble - 10))
    }
}
