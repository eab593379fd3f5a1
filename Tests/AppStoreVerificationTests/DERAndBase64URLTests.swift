import Foundation
import Testing

@testable import EntitlementKitAppStore
@testable import EntitlementKitCrypto

/// The readers under the verifier take hostile bytes: strict DER and strict base64url.
@Suite(.timeLimit(.minutes(5))) struct DERAndBase64URLTests {
    static func element(_ bytes: [UInt8]) -> Result<DERElement, DERError> {
        var reader = DERReader(bytes)
        return Result { () throws(DERError) in try reader.read() }
    }

    @Test func shortAndMinimalLongLengthsRead() throws {
        #expect(try Self.element([0x04, 0x02, 0xAA, 0xBB]).get().content == 2..<4)
        let long = [0x04, 0x81, 0x80] + [UInt8](repeating: 0, count: 128)
        #expect(try Self.element(long).get().content == 3..<131)
    }

    @Test(
        arguments: [
            ([0x04, 0x80, 0x00, 0x00], "indefinite"),  // indefinite length
            ([0x04, 0x81, 0x05, 1, 2, 3, 4, 5], "under 128"),  // long form for a short length
            ([0x04, 0x82, 0x00, 0x81] + [UInt8](repeating: 0, count: 0x81), "leading zero"),
            ([0x04, 0x85, 1, 1, 1, 1, 1], "too long"),  // five length bytes
            ([0x04, 0x05, 1, 2], "runs past"),  // longer than its container
            ([0x04], "length is missing"),
            ([0x1F, 0x01, 0x00], "multi-byte tag"),
            ([0x04, 0x82, 0x01], "cut short"),
        ] as [([UInt8], String)])
    func malformedDERIsRefusedWithItsReason(bytes: [UInt8], reason: String) {
        guard case .failure(let error) = Self.element(bytes) else {
            Issue.record("read: \(bytes)")
            return
        }
        #expect(error.description.contains(reason), "\(error)")
    }

    @Test func aChildNeverReadsPastItsParent() throws {
        // SEQUENCE of 3 bytes holding an OCTET STRING that claims 5.
        var reader = DERReader([0x30, 0x03, 0x04, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00])
        let sequence = try reader.read(DERTag.sequence, "a sequence")
        var children = reader.children(of: sequence)
        #expect(throws: DERError.self) { try children.read() }
    }

    @Test func objectIdentifiersReadAsTheStandardsPrintThem() {
        #expect(ObjectIdentifierText.dotted([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]) == "1.2.840.10045.4.3.2")
        #expect(ObjectIdentifierText.dotted([0x2B, 0x81, 0x04, 0x00, 0x22]) == "1.3.132.0.34")
        #expect(
            ObjectIdentifierText.dotted([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x63, 0x64, 0x06, 0x0B, 0x01])
                == "1.2.840.113635.100.6.11.1")
        #expect(ObjectIdentifierText.dotted([0x55, 0x1D, 0x13]) == "2.5.29.19")
        #expect(ObjectIdentifierText.dotted([]) == nil)
        #expect(ObjectIdentifierText.dotted([0x2A, 0x86]) == nil)  // an arc cut short
        #expect(ObjectIdentifierText.dotted([0x2A, 0x80, 0x01]) == nil)  // a padded arc
    }

    @Test func base64URLIsStrict() {
        #expect(Base64URL.decode("eyJhIjoxfQ") == Array(#"{"a":1}"#.utf8))
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.decode("eyJhIjoxfQ==") == nil)  // padding
        #expect(Base64URL.decode("ab+/") == nil)  // the standard alphabet
        #expect(Base64URL.decode("abcde") == nil)  // one character left over
        #expect(Base64URL.decode("ab c") == nil)  // whitespace
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("AB") == nil)  // stray bits after the last byte
    }
}
