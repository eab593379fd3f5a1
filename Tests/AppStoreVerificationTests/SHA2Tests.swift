import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitCrypto
import Testing

/// SHA-384 and SHA-512 against the examples NIST publishes for FIPS 180-4 (its "Examples with
/// Intermediate Values": one block, two blocks, and the long message), and the empty message.
@Suite(.timeLimit(.minutes(5)))
struct SHA2Tests {
    static let twoBlockMessage = Array(
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
            + "mnopqrstnopqrstu").utf8)

    @Test func sha384OfOneBlock() {
        #expect(
            hexString(SHA384.hash(Array("abc".utf8)))
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
    }

    @Test func sha384OfTwoBlocks() {
        #expect(
            hexString(SHA384.hash(Self.twoBlockMessage))
                == "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039")
    }

    @Test func sha384OfNothing() {
        #expect(
            hexString(SHA384.hash([]))
                == "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b")
    }

    @Test func sha384OfAMillionAs() {
        #expect(
            hexString(SHA384.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000)))
                == "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985")
    }

    @Test func sha512OfOneBlock() {
        #expect(
            hexString(SHA512.hash(Array("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    }

    @Test func sha512OfTwoBlocks() {
        #expect(
            hexString(SHA512.hash(Self.twoBlockMessage))
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    @Test func sha512OfNothing() {
        #expect(
            hexString(SHA512.hash([]))
                == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
    }

    @Test func sha512OfAMillionAs() {
        #expect(
            hexString(SHA512.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000)))
                == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    /// Padding puts the length in the last 16 bytes of a block: 111 bytes fit one block, 112 need two.
    /// These lengths sit on that boundary; each digest must differ from its neighbours' and be stable.
    @Test func lengthsAroundTheBlockBoundaryGiveDistinctDigests() {
        let digests = (110...114).map { SHA512.hash(repeatElement(UInt8(ascii: "a"), count: $0)) }
        #expect(Set(digests.map(hexString)).count == digests.count)
        #expect(digests.allSatisfy { $0.count == 64 })
    }

    /// The core's SHA-256 is reachable from the verification code (package access) and still right.
    @Test func sha256OfOneBlock() {
        #expect(
            hexString(SHA256.digest(of: Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
