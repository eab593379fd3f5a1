import EntitlementKit

/// Adapty's anonymous form: the profile id its SDKs make on the device, a lower-case UUID
/// (`8-4-4-4-12` hex digits). An anonymous app user id *is* the Adapty profile id.
enum AdaptyProfileId {
    /// A version-4 UUID, lower-case, from 32 random hex digits (the version and variant digits set as
    /// RFC 9562 says, as `UUID()` would).
    static func make(fromHex hex: String) -> String {
        var digits = Array(hex.utf8.prefix(32))
        // Version 4 in the 13th digit; variant `10xx` in the 17th (8, 9, a or b).
        digits[12] = UInt8(ascii: "4")
        let variantNibble = (hexValue(digits[16]) & 0x3) | 0x8
        digits[16] = Array("89ab".utf8)[Int(variantNibble - 8)]
        var text = ""
        for (index, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.unicodeScalars.append(Unicode.Scalar(digit))
        }
        return text
    }

    /// Whether `id` may go into a request's path and `adapty-sdk-profile-id` header: 1 to 100 visible
    /// ASCII characters (no CR/LF to split a header) without `/` (which would add a path segment).
    static func isUsable(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 100
            && id.utf8.allSatisfy { (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "/") }
    }

    /// Whether `id` is a lower-case UUID, compared by its bytes (an upper-case UUID is not the SDK's form).
    static func isAnonymousForm(_ id: String) -> Bool {
        LowercaseUUID.matches(id)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8 {
        digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10
    }
}
