/// HMAC-SHA256 (RFC 2104, FIPS 198-1): a keyed message authentication code, as webhooks sign their bodies
/// with a shared secret. Check a received code with ``isValidAuthenticationCode(_:for:key:)``, which
/// compares in constant time: an early exit on the first differing byte would tell an attacker, byte by
/// byte, how much of a forged code is right.
///
/// ```
/// let code = HMACSHA256.authenticationCode(for: Array(body), key: Array(secret.utf8))
/// let valid = HMACSHA256.isValidAuthenticationCode(received, for: Array(body), key: Array(secret.utf8))
/// ```
public enum HMACSHA256 {
    /// The length of a code in bytes.
    public static let byteCount = SHA256.byteCount

    /// The 32-byte code of `message` under `key` (a key longer than 64 bytes is hashed first, as RFC 2104 says).
    public static func authenticationCode(for message: some Collection<UInt8>, key: some Collection<UInt8>) -> [UInt8] {
        var block = key.count > SHA256.blockByteCount ? SHA256.digest(of: key) : Array(key)
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Whether `code` is the code of `message` under `key`, compared in constant time.
    public static func isValidAuthenticationCode(
        _ code: some Collection<UInt8>, for message: some Collection<UInt8>, key: some Collection<UInt8>
    ) -> Bool {
        ConstantTimeComparison.isEqual(authenticationCode(for: message, key: key), code)
    }
}
