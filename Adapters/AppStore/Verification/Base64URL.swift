/// Base64url without padding (RFC 7515 §2, RFC 4648 §5), read strictly: only the URL-safe alphabet, no
/// `=`, no whitespace, and no length that no encoding has (one character left over).
enum Base64URL {
    static func decode(_ text: Substring) -> [UInt8]? {
        decode(bytes: text.utf8)
    }

    /// The bytes the base64url text `bytes` (UTF-8) encodes, or nil.
    static func decode(bytes text: some Collection<UInt8>) -> [UInt8]? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    /// Four characters at a time through a table: a JWS payload is a kilobyte or more, and a character
    /// class test per character (a switch over the alphabet's ranges) mispredicts on text like this.
    private static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let remainder = text.count % 4
        guard remainder != 1 else { return nil }
        let outputCount = text.count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        var isValid = true
        let output = [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
            sextets.withUnsafeBufferPointer { table in
                var input = 0
                var written = 0
                // Every table entry is below 64 or 0xFF, so an OR over four entries shows any invalid one.
                var invalid: UInt8 = 0
                while input + 4 <= text.count {
                    let a = table[Int(text[input])]
                    let b = table[Int(text[input + 1])]
                    let c = table[Int(text[input + 2])]
                    let d = table[Int(text[input + 3])]
                    invalid |= (a | b | c | d) & 0xC0
                    output[written] = a << 2 | b >> 4
                    output[written + 1] = b << 4 | c >> 2
                    output[written + 2] = c << 6 | d
                    input += 4
                    written += 3
                }
                switch remainder {
                case 2:
                    let a = table[Int(text[input])]
                    let b = table[Int(text[input + 1])]
                    invalid |= (a | b) & 0xC0
                    // The bits past the last byte must be zero.
                    invalid |= b & 0x0F
                    output[written] = a << 2 | b >> 4
                    written += 1
                case 3:
                    let a = table[Int(text[input])]
                    let b = table[Int(text[input + 1])]
                    let c = table[Int(text[input + 2])]
                    invalid |= (a | b | c) & 0xC0
                    invalid |= c & 0x03
                    output[written] = a << 2 | b >> 4
                    output[written + 1] = b << 4 | c >> 2
                    written += 2
                default:
                    break
                }
                isValid = invalid == 0
                initialized = written
            }
        }
        return isValid ? output : nil
    }

    /// Each byte's value in the URL-safe alphabet, or 0xFF for a byte outside it.
    private static let sextets: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(byte) - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt8(byte) - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: 0xFF
        }
    }
}
