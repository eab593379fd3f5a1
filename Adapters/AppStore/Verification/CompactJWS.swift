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
        let bytes = Array(text.utf8)
        let dot = UInt8(ascii: ".")
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
