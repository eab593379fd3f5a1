import EntitlementKit
import Foundation

/// The server's 2xx bodies: a unified snapshot of the customer asked for, or a logIn's
/// `{"created", "snapshot"}`.
enum OwnBackendAnswer {
    /// The snapshot `node` holds, read by the core's unified decoder (any schema version it reads) and
    /// judged at `instant`. A snapshot of another customer (its `appUserId` differs from `appUserId` by
    /// a byte, or is `null`) is refused: an answer for someone else must never grant access here.
    static func snapshot(in node: JSONNode, for appUserId: String, at instant: Date) throws(DocumentError)
        -> EntitlementSnapshot
    {
        let snapshot = try UnifiedSnapshotAdapter().snapshot(from: node, at: instant)
        guard let answered = snapshot.appUserId, answered.utf8.elementsEqual(appUserId.utf8) else {
            // The decoder has read `appUserId` (a string or null), so the member is there.
            let idNode = node.member("appUserId") ?? JSONNode(.null, path: node.path.appending("appUserId"))
            throw DocumentError(
                kind: .inconsistent, path: idNode.path, offending: idNode.value,
                reason: "is not the customer asked for (\(DocumentError.quoted(appUserId)))")
        }
        return snapshot
    }

    /// A logIn's answer: `created` (a JSON boolean) and the snapshot of `appUserId`, the customer logged in to.
    static func logIn(in node: JSONNode, for appUserId: String, at instant: Date) throws(DocumentError)
        -> LogInResult
    {
        let created = try node.required("created").bool()
        let snapshot = try snapshot(in: node.required("snapshot"), for: appUserId, at: instant)
        return LogInResult(snapshot: snapshot, created: created)
    }
}
