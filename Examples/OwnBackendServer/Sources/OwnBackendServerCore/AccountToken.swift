import Crypto
import Foundation

/// A customer's account token: a lower-case UUID the app sets as Apple's `appAccountToken` and Play's
/// `obfuscatedExternalAccountId` at every purchase.
enum AccountToken {
    /// `appUserId` itself when it is a UUID (lower-cased); else a UUID made of SHA-256 of the id (RFC 9562
    /// version 8, name-based), so every server process answers the same token for the same id.
    static func of(_ appUserId: String) -> String {
        if let uuid = UUID(uuidString: appUserId) { return uuid.uuidString.lowercased() }
        var bytes = Array(SHA256.hash(data: Data(("own-backend-account-token:" + appUserId).utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString.lowercased()
    }
}
