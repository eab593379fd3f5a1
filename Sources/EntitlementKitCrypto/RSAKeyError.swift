/// Why numbers are not a usable RSA public key.
public enum RSAKeyError: Error, Sendable, Hashable {
    /// The modulus is not between 2048 and 4096 bits long (leading zero bytes not counted).
    case modulusSizeUnsupported(bits: Int)
    /// The modulus is even, so it is no product of two odd primes.
    case modulusEven
    /// The public exponent is even, below 3, or not below the modulus.
    case exponentUnusable
}
