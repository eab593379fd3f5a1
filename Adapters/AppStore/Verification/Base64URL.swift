import Foundation

/// Base64url without padding (RFC 7515 §2, RFC 4648 §5), read strictly: only the URL-safe alphabet, no
/// `=`, no whitespace, and no length that no encoding has (one character left over).
enum Base64URL {
    static func decode(_ text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var count = 0
        for character in text.utf8 {
            guard let value = sextet(character) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(truncatingIfNeeded: buffer >> 16))
                output.append(UInt8(truncatingIfNeeded: buffer >> 8))
                output.append(UInt8(truncatingIfNeeded: buffer))
                buffer = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2:
            guard buffer & 0xF == 0 else { return nil }  // bits past the last byte must be zero
            output.append(UInt8(truncatingIfNeeded: buffer >> 4))
        case 3:
            guard buffer & 0x3 == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: buffer >> 10))
            output.append(UInt8(truncatingIfNeeded: buffer >> 2))
        default:
            return nil
        }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
