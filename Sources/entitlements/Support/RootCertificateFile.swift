import Foundation

/// A `--root-certificate` file: one DER certificate, or PEM text holding one or more.
///
/// Only the shape is checked here — PEM armour, base64, and a DER `SEQUENCE` of exactly the file's length
/// that opens with the `tbsCertificate` `SEQUENCE` — so that a key, a CSR's text or a stray file is refused
/// up front (`64`). The App Store verifier reads the certificates themselves.
enum RootCertificateFile {
    /// The DER certificates in `data`, or `nil` when it holds none.
    static func certificates(in data: Data) -> [Data]? {
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") {
            let blocks = pemBlocks(in: text)
            guard !blocks.isEmpty, blocks.allSatisfy(isCertificateShaped) else { return nil }
            return blocks
        }
        return isCertificateShaped(data) ? [data] : nil
    }

    /// The base64 bodies of every `CERTIFICATE` block; any other block (a key) makes the text unusable.
    private static func pemBlocks(in text: String) -> [Data] {
        var blocks: [Data] = []
        var body: String?
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("-----BEGIN ") {
                guard line == "-----BEGIN CERTIFICATE-----", body == nil else { return [] }
                body = ""
            } else if line.hasPrefix("-----END ") {
                guard line == "-----END CERTIFICATE-----", let text = body,
                    let der = Data(base64Encoded: text)
                else { return [] }
                blocks.append(der)
                body = nil
            } else if body != nil {
                body? += line
            }
        }
        return body == nil ? blocks : []
    }

    /// A DER `SEQUENCE` spanning all of `der` whose content starts with another `SEQUENCE`.
    private static func isCertificateShaped(_ der: Data) -> Bool {
        let bytes = [UInt8](der)
        guard let outer = header(bytes, at: 0), outer.tag == 0x30, outer.contentStart + outer.length == bytes.count,
            let inner = header(bytes, at: outer.contentStart), inner.tag == 0x30,
            inner.contentStart + inner.length <= bytes.count
        else { return false }
        return true
    }

    /// The tag, the content's start and its length (definite DER lengths up to four bytes).
    private static func header(_ bytes: [UInt8], at offset: Int) -> (tag: UInt8, contentStart: Int, length: Int)? {
        guard offset + 2 <= bytes.count else { return nil }
        let first = bytes[offset + 1]
        if first < 0x80 { return (bytes[offset], offset + 2, Int(first)) }
        let count = Int(first & 0x7F)
        guard (1...4).contains(count), offset + 2 + count <= bytes.count else { return nil }
        var length = 0
        for byte in bytes[(offset + 2)..<(offset + 2 + count)] { length = length << 8 | Int(byte) }
        return (bytes[offset], offset + 2 + count, length)
    }
}
