/// Bytes from hex digits, for test vectors; traps on anything else (the vectors are fixed).
func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") })
    precondition(digits.count % 2 == 0, "odd number of hex digits")
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
            preconditionFailure("not hex: \(hex)")
        }
        bytes.append(byte)
    }
    return bytes
}

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}
