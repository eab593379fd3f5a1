/// The DER form of an ECDSA signature (SEC 1 §C.8, RFC 3279 §2.2.3): `SEQUENCE { r INTEGER, s INTEGER }`,
/// read strictly. A BER variant (long or indefinite lengths where short ones fit, leading zero bytes,
/// negative integers, trailing bytes) is refused: each signature has one encoding, so a signature cannot be
/// altered into another that still verifies.
package enum ECDSASignatureDER {
    /// The big-endian magnitudes of r and s, or nil when `bytes` are not exactly such a DER signature.
    package static func integers(of bytes: [UInt8]) -> (r: ArraySlice<UInt8>, s: ArraySlice<UInt8>)? {
        var outer = bytes[...]
        guard let sequence = element(tagged: 0x30, from: &outer), outer.isEmpty else { return nil }
        var inner = sequence
        guard let r = integer(from: &inner), let s = integer(from: &inner), inner.isEmpty else { return nil }
        return (r, s)
    }

    /// A non-negative INTEGER in its minimal encoding, without a sign byte.
    private static func integer(from input: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let content = element(tagged: 0x02, from: &input), let first = content.first else { return nil }
        if first & 0x80 != 0 { return nil }  // negative
        if first == 0, content.count > 1 {
            // A zero byte is only there to keep the next byte's top bit from reading as a sign.
            guard content[content.startIndex + 1] & 0x80 != 0 else { return nil }
            return content.dropFirst()
        }
        return content
    }

    /// The contents of the element at the start of `input` if it has `tag` and a minimal definite length;
    /// `input` moves past it.
    private static func element(tagged tag: UInt8, from input: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard input.count >= 2, input.first == tag else { return nil }
        var position = input.startIndex + 1
        let lengthByte = input[position]
        position += 1
        var length: Int
        switch lengthByte {
        case 0..<0x80:
            length = Int(lengthByte)
        case 0x81:
            guard position < input.endIndex, input[position] >= 0x80 else { return nil }
            length = Int(input[position])
            position += 1
        case 0x82:
            guard input.endIndex - position >= 2, input[position] != 0 else { return nil }
            length = Int(input[position]) << 8 | Int(input[position + 1])
            guard length >= 0x100 else { return nil }
            position += 2
        default:
            // Indefinite (0x80) lengths are not DER; longer length fields are never needed for a signature.
            return nil
        }
        guard input.endIndex - position >= length else { return nil }
        let content = input[position..<(position + length)]
        input = input[(position + length)...]
        return content
    }
}
