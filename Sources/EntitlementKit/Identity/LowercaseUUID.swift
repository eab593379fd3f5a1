/// The text form of a UUID in lower case (`8-4-4-4-12` hex digits), compared by its bytes: the form of
/// Adapty's anonymous profile ids. Shared by the Adapty provider and the simulated backend (`package`:
/// not a public promise).
package enum LowercaseUUID {
    /// Whether `id` is exactly a lower-case UUID (an upper-case one is not the SDKs' form).
    package static func matches(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}
