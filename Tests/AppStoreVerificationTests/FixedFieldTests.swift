import TestSupport
import Testing

@testable import CryptoOracles
@testable import EntitlementKitCrypto

/// The generated fixed-width fields (`FixedFields.swift`) against the oracle's generic Montgomery field, on
/// the values where carries and reductions turn: 0, 1, 2, m − 1, m − 2, words of all ones and zeros, and a
/// few hundred pseudo-random values. Both hold a·2^(64·limbs) mod m, so their limbs must agree exactly.
@Suite(.timeLimit(.minutes(1)))
struct FixedFieldTests {
    /// Plain values below `modulus` (of `limbCount` limbs) that stress the edges, then random ones.
    static func values(modulus: WideInteger, limbCount: Int) -> [WideInteger] {
        var result = [WideInteger(), WideInteger(1), WideInteger(2)]
        for offset: UInt64 in [1, 2, 3] {
            var value = modulus
            value.subtract(WideInteger(offset))
            result.append(value)
        }
        // Alternating all-ones and zero words, every word all ones but a random top one, random words.
        // SplitMix64: a fixed sequence, so a failure names the same values on every run.
        var words = SplitMix64(seed: modulus.limbs.0)
        for index in 0..<300 {
            var value = WideInteger()
            for limb in 0..<limbCount {
                let word: UInt64 =
                    switch index % 4 {
                    case 0: limb % 2 == 0 ? .max : 0
                    case 1: limb == limbCount - 1 ? words.next() >> 1 : .max
                    default: words.next()
                    }
                value[limb] = word
            }
            // Every modulus here is above 2^(64·limbs − 1): one subtraction brings any word pattern below it.
            if !(value < modulus) { value.subtract(modulus) }
            result.append(value)
        }
        return result
    }

    static func check<Element: FixedWidthModular>(_: Element.Type, oracle: MontgomeryField) {
        let values = values(modulus: oracle.modulus, limbCount: oracle.limbCount)
        var mismatches = 0
        for (index, left) in values.enumerated() {
            // Each value against its neighbour and against the edge values at the front.
            for right in [values[(index + 1) % values.count], values[index % 6]] {
                let a = Element.entering(Element(plain: left))
                let b = Element.entering(Element(plain: right))
                let (oracleA, oracleB) = (oracle.enter(left), oracle.enter(right))
                #expect(a.wide == oracleA)
                if (a * b).wide != oracle.multiply(oracleA, oracleB) { mismatches += 1 }
                if a.squared.wide != oracle.multiply(oracleA, oracleA) { mismatches += 1 }
                if (a + b).wide != oracle.add(oracleA, oracleB) { mismatches += 1 }
                if (a - b).wide != oracle.subtract(oracleA, oracleB) { mismatches += 1 }
                if a.leaving.wide != left { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func p256FieldAgreesWithTheOracle() {
        Self.check(P256FieldElement.self, oracle: EllipticCurve.p256.field)
    }

    @Test func p256ScalarsAgreeWithTheOracle() {
        Self.check(P256ScalarElement.self, oracle: EllipticCurve.p256.order)
    }

    @Test func p384FieldAgreesWithTheOracle() {
        Self.check(P384FieldElement.self, oracle: EllipticCurve.p384.field)
    }

    @Test func p384ScalarsAgreeWithTheOracle() {
        Self.check(P384ScalarElement.self, oracle: EllipticCurve.p384.order)
    }
}
