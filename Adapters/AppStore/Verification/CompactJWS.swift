/// A compact JWS (RFC 7515 §7.1) cut at its two dots, as UTF-8 bytes: the header, payload and signature
/// texts, still base64url. Cut at the byte level, not by `Character`: a JWS is ASCII, and a text that is
/// not ends up refused by the base64url decoding of its parts either way.
struct CompactJWS {
    /// The JWS's UTF-8 bytes.
    let bytes: [UInt8]
    /// The header's base64url text (the start of the signing input).
    let header: ArraySlice<UInt8>
    /// The payload's base64url text (the rest of the signing input, after a dot).
    let payload: ArraySlice<UInt8>
    /// The signature's base64url text.
    let signature: ArraySlice<UInt8>

    /// The parts of `text`, or nil unless it holds exactly two dots.
    init?(_ text: String) {
        let dot = UInt8(ascii: ".")
        // The dots are counted in place first: a text of the wrong shape (megabytes of dots, say) is refused
        // without a copy of it.
        var dots = 0
        for byte in text.utf8 where byte == dot {
            dots += 1
            if dots > 2 { return nil }
        }
        guard dots == 2 else { return nil }
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(of: dot),
            let second = bytes[(first + 1)...].firstIndex(of: dot),
            !bytes[(second + 1)...].contains(dot)
        else { return nil }
        self.bytes = bytes
        header = bytes[..<first]
        payload = bytes[(first + 1)..<second]
        signature = bytes[(second + 1)...]
    }
}
