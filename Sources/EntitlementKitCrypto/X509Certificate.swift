import EntitlementKitJSON
import Foundation

/// An X.509 certificate (RFC 5280) read as far as checking an App Store chain needs: the signed bytes
/// and their signature, issuer and subject (compared as DER bytes), validity, an EC public key, basic
/// constraints, key usage and which extensions it carries.
package struct X509Certificate: Sendable {
    /// The DER of the `tbsCertificate`: what the issuer signed.
    package let signedBytes: [UInt8]
    /// `1.2.840.10045.4.3.2` (ecdsa-with-SHA256) or `…4.3.3` (ecdsa-with-SHA384).
    package let signatureAlgorithm: String
    /// The issuer's signature, DER-encoded ECDSA.
    package let signature: [UInt8]
    /// The issuer's distinguished name, as DER.
    package let issuer: [UInt8]
    /// The subject's distinguished name, as DER.
    package let subject: [UInt8]
    package let notBefore: Date
    package let notAfter: Date
    /// The subject's key.
    package let publicKey: ECDSAPublicKey
    /// Whether basic constraints say this is a CA.
    package let isCertificateAuthority: Bool
    /// Basic constraints' pathLenConstraint: how many certificate authorities may stand below this one on a
    /// path; `nil` for no limit.
    package let pathLengthConstraint: Int?
    /// Whether key usage allows signing certificates; `nil` without a key usage extension.
    package let mayCertifyKeys: Bool?
    /// The OIDs of every extension.
    package let extensionIds: Set<String>

    /// Reads `der` strictly: one certificate and nothing after it.
    package init(der: [UInt8]) throws(DERError) {
        var top = DERReader(der)
        let certificate = try top.read(DERTag.sequence, "a certificate SEQUENCE")
        try top.expectEnd("the certificate")
        var fields = top.children(of: certificate)
        let tbs = try fields.read(DERTag.sequence, "the tbsCertificate")
        let outerAlgorithm = try fields.read(DERTag.sequence, "the signature algorithm")
        let signatureBits = try fields.read(DERTag.bitString, "the signature")
        try fields.expectEnd("the certificate")
        signedBytes = Array(fields.encoding(of: tbs))
        signatureAlgorithm = try Self.signatureAlgorithm(fields, outerAlgorithm)
        signature = try Self.bits(fields, signatureBits)

        var body = fields.children(of: tbs)
        if let version = try body.readIfPresent(DERTag.explicit(0)) {
            var inner = body.children(of: version)
            let number = try inner.read(DERTag.integer, "the version")
            guard body.content(of: number).elementsEqual([2]) else {
                throw DERError("only version 3 certificates are read", at: number.whole.lowerBound)
            }
        } else {
            throw DERError("only version 3 certificates are read", at: tbs.content.lowerBound)
        }
        _ = try body.read(DERTag.integer, "the serial number")
        let innerAlgorithm = try body.read(DERTag.sequence, "the tbsCertificate's signature algorithm")
        guard body.encoding(of: innerAlgorithm).elementsEqual(fields.encoding(of: outerAlgorithm)) else {
            throw DERError("the two signature algorithms differ", at: innerAlgorithm.whole.lowerBound)
        }
        issuer = Array(body.encoding(of: try body.read(DERTag.sequence, "the issuer")))
        let validity = try body.read(DERTag.sequence, "the validity")
        var dates = body.children(of: validity)
        notBefore = try Self.time(&dates)
        notAfter = try Self.time(&dates)
        try dates.expectEnd("the validity")
        // A window that ends before it starts holds no instant; refused here, it never reaches a range.
        guard notBefore <= notAfter else {
            throw DERError(
                "the validity's notBefore \(RFC3339.string(from: notBefore)) is after its notAfter "
                    + RFC3339.string(from: notAfter), at: validity.whole.lowerBound)
        }
        subject = Array(body.encoding(of: try body.read(DERTag.sequence, "the subject")))
        publicKey = try Self.publicKey(body, try body.read(DERTag.sequence, "the subject public key info"))
        _ = try body.readIfPresent(0x81)  // issuerUniqueID
        _ = try body.readIfPresent(0x82)  // subjectUniqueID
        var isCertificateAuthority = false
        var pathLengthConstraint: Int?
        var mayCertifyKeys: Bool?
        var extensionIds: Set<String> = []
        if let wrapper = try body.readIfPresent(DERTag.explicit(3)) {
            var outer = body.children(of: wrapper)
            let list = try outer.read(DERTag.sequence, "the extensions")
            try outer.expectEnd("the extensions")
            var extensions = outer.children(of: list)
            while !extensions.isAtEnd {
                var parts = extensions.children(of: try extensions.read(DERTag.sequence, "an extension"))
                let idElement = try parts.read(DERTag.objectIdentifier, "an extension's OID")
                guard let id = ObjectIdentifierText.dotted(parts.content(of: idElement)) else {
                    throw DERError("an extension's OID is malformed", at: idElement.whole.lowerBound)
                }
                var isCritical = false
                if let flag = try parts.readIfPresent(DERTag.boolean) {
                    isCritical = try Self.nonDefaultBoolean(parts, flag, "critical")
                }
                let value = try parts.read(DERTag.octetString, "an extension's value")
                try parts.expectEnd("an extension")
                guard extensionIds.insert(id).inserted else {
                    throw DERError("extension \(id) appears twice", at: idElement.whole.lowerBound)
                }
                if isCritical && !VerificationOID.understoodCritical.contains(id) {
                    throw DERError("critical extension \(id) is not understood", at: idElement.whole.lowerBound)
                }
                var inner = parts.children(of: value)
                switch id {
                case VerificationOID.basicConstraints:
                    let constraints = try inner.read(DERTag.sequence, "basic constraints")
                    try inner.expectEnd("basic constraints")
                    var members = inner.children(of: constraints)
                    if let flag = try members.readIfPresent(DERTag.boolean) {
                        isCertificateAuthority = try Self.nonDefaultBoolean(members, flag, "cA")
                    }
                    if let limit = try members.readIfPresent(DERTag.integer) {
                        pathLengthConstraint = try Self.pathLength(members, limit)
                    }
                    try members.expectEnd("basic constraints")
                case VerificationOID.keyUsage:
                    let usage = try inner.read(DERTag.bitString, "key usage")
                    try inner.expectEnd("key usage")
                    let content = inner.content(of: usage)
                    guard let unused = content.first, unused < 8 else {
                        throw DERError("key usage is malformed", at: usage.whole.lowerBound)
                    }
                    // keyCertSign is bit 5, 0x04 of the first byte after the unused-bits count.
                    mayCertifyKeys = content.count > 1 && content[content.startIndex + 1] & 0x04 != 0
                default:
                    break
                }
            }
        }
        try body.expectEnd("the tbsCertificate")
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
        self.mayCertifyKeys = mayCertifyKeys
        self.extensionIds = extensionIds
    }

    /// Whether `instant` lies within the validity period (both ends included).
    package func isValid(at instant: Date) -> Bool {
        notBefore <= instant && instant <= notAfter
    }

    /// Whether `issuerKey` signed this certificate.
    package func isSigned(by issuerKey: ECDSAPublicKey) -> Bool {
        let digest: [UInt8]
        switch signatureAlgorithm {
        case VerificationOID.ecdsaWithSHA256: digest = SHA256.digest(of: signedBytes)
        case VerificationOID.ecdsaWithSHA384: digest = SHA384.hash(signedBytes)
        default: return false
        }
        return issuerKey.isValidSignature(derEncoded: signature, digest: digest)
    }

    private static func signatureAlgorithm(_ reader: DERReader, _ element: DERElement) throws(DERError) -> String {
        var members = reader.children(of: element)
        let oid = try members.read(DERTag.objectIdentifier, "the signature algorithm's OID")
        try members.expectEnd("the signature algorithm (ECDSA takes no parameters)")
        let id = ObjectIdentifierText.dotted(members.content(of: oid))
        guard let id, id == VerificationOID.ecdsaWithSHA256 || id == VerificationOID.ecdsaWithSHA384 else {
            throw DERError(
                "the signature algorithm \(id ?? "?") is not ecdsa-with-SHA256 or ecdsa-with-SHA384",
                at: oid.whole.lowerBound)
        }
        return id
    }

    private static func publicKey(_ reader: DERReader, _ element: DERElement) throws(DERError) -> ECDSAPublicKey {
        var members = reader.children(of: element)
        let algorithm = try members.read(DERTag.sequence, "the key's algorithm")
        let bits = try members.read(DERTag.bitString, "the key")
        try members.expectEnd("the subject public key info")
        var ids = members.children(of: algorithm)
        let kind = try ids.read(DERTag.objectIdentifier, "the key's algorithm OID")
        let curveElement = try ids.read(DERTag.objectIdentifier, "the key's curve")
        try ids.expectEnd("the key's algorithm")
        guard ObjectIdentifierText.dotted(ids.content(of: kind)) == VerificationOID.ecPublicKey else {
            throw DERError("the key is not an elliptic-curve key", at: kind.whole.lowerBound)
        }
        let curve: ECDSACurve
        switch ObjectIdentifierText.dotted(ids.content(of: curveElement)) {
        case VerificationOID.prime256v1: curve = .p256
        case VerificationOID.secp384r1: curve = .p384
        default: throw DERError("the key's curve is neither P-256 nor P-384", at: curveElement.whole.lowerBound)
        }
        do {
            return try ECDSAPublicKey(curve: curve, x963Representation: try Self.bits(members, bits))
        } catch {
            throw DERError("the key is not a point of its curve (\(error))", at: bits.whole.lowerBound)
        }
    }

    /// A BIT STRING's bytes; it must have no unused bits.
    private static func bits(_ reader: DERReader, _ element: DERElement) throws(DERError) -> [UInt8] {
        let content = reader.content(of: element)
        guard content.first == 0 else {
            throw DERError("a bit string with unused bits is not a key or signature", at: element.whole.lowerBound)
        }
        return Array(content.dropFirst())
    }

    private static func boolean(_ reader: DERReader, _ element: DERElement) throws(DERError) -> Bool {
        let content = reader.content(of: element)
        guard content.count == 1, content.first == 0 || content.first == 0xFF else {
            throw DERError("a BOOLEAN is 0x00 or 0xFF in DER", at: element.whole.lowerBound)
        }
        return content.first == 0xFF
    }

    /// A `BOOLEAN DEFAULT FALSE` that is present: DER (X.690 §11.5) omits a value equal to its default, so an
    /// encoded FALSE is not DER.
    private static func nonDefaultBoolean(
        _ reader: DERReader, _ element: DERElement, _ name: String
    ) throws(DERError) -> Bool {
        guard try boolean(reader, element) else {
            throw DERError("\(name) FALSE is the default, which DER leaves out", at: element.whole.lowerBound)
        }
        return true
    }

    /// pathLenConstraint, `INTEGER (0..MAX)` in its minimal encoding; a limit beyond `Int` is no limit.
    private static func pathLength(_ reader: DERReader, _ element: DERElement) throws(DERError) -> Int? {
        let content = reader.content(of: element)
        guard let first = content.first else { throw DERError("an INTEGER is empty", at: element.whole.lowerBound) }
        guard first & 0x80 == 0 else {
            throw DERError("a negative pathLenConstraint is not allowed", at: element.whole.lowerBound)
        }
        if first == 0, content.count > 1, content[content.startIndex + 1] & 0x80 == 0 {
            throw DERError("an INTEGER with a leading zero byte is not DER", at: element.whole.lowerBound)
        }
        let significant = content.drop { $0 == 0 }
        guard significant.count < MemoryLayout<Int>.size else { return nil }
        return significant.reduce(0) { $0 << 8 | Int($1) }
    }

    /// A UTCTime (`YYMMDDHHMMSSZ`, years 1950–2049) or GeneralizedTime (`YYYYMMDDHHMMSSZ`).
    private static func time(_ reader: inout DERReader) throws(DERError) -> Date {
        let offset = reader.position
        let element = try reader.read()
        let text = String(decoding: reader.content(of: element), as: UTF8.self)
        let digits = text.dropLast()
        guard text.hasSuffix("Z"), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            throw DERError("a time is not digits ending in Z", at: offset)
        }
        var full: String
        switch (element.tag, digits.count) {
        case (DERTag.utcTime, 12):
            let year = Int(digits.prefix(2)) ?? 0
            full = (year < 50 ? "20" : "19") + digits
        case (DERTag.generalizedTime, 14):
            full = String(digits)
        default:
            throw DERError("a time is neither a UTCTime nor a GeneralizedTime", at: offset)
        }
        let characters = Array(full)
        let rfc3339 =
            String(characters[0..<4]) + "-" + String(characters[4..<6]) + "-" + String(characters[6..<8]) + "T"
            + String(characters[8..<10]) + ":" + String(characters[10..<12]) + ":" + String(characters[12..<14]) + "Z"
        guard let date = RFC3339.date(from: rfc3339) else { throw DERError("a time is not a valid date", at: offset) }
        return date
    }
}
