import Foundation

/// An adapter that also reads documents straight from their UTF-8 bytes: much faster than parsing a
/// ``JSONValue`` tree first, and exactly as strict, because the fast path answers only for documents on
/// which it gives what ``EntitlementAdapter/snapshot(from:at:)-(JSONNode,_)`` gives, and misses on
/// everything else (which the general path then reads, answering or failing with the located error).
///
/// `package`: an implementation detail the package's modules share (the migration tool, the adapters'
/// `snapshot(from: Data, at:)`), not a promise to other adapters.
package protocol FastPathAdapter: EntitlementAdapter {
    /// The snapshot of the document at `reader`'s position, leaving the reader just after it; a miss
    /// for anything the general path must decide, and for every document ``EntitlementAdapter/recognizes(_:)``
    /// does not claim. Every key of the document's outermost object must be
    /// passed to ``JSONByteReader/recordTopLevelKey(_:)``: format detection relies on them.
    func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot

    /// Whether ``EntitlementAdapter/recognizes(_:)`` holds for an object whose top-level keys are
    /// tested by `hasKey`; `nil` when the keys alone cannot tell. Format detection asks it of the adapters
    /// other than the one whose fast reader answered.
    func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool?

    /// Whether ``EntitlementAdapter/recognizes(_:)`` holds for an object that the fast reader of
    /// `answeringProvider` read and answered for, whose top-level keys are tested by `hasKey`; `nil` when
    /// that cannot tell. An adapter may know more than the keys say from what that reader checks before it
    /// answers (the values of the keys two formats share). By default, ``recognizes(topLevelKey:)``.
    func recognizes(topLevelKey hasKey: (StaticString) -> Bool, answeredBy answeringProvider: ProviderID) -> Bool?
}

extension FastPathAdapter {
    /// The keys alone: ``recognizes(topLevelKey:)``.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool, answeredBy answeringProvider: ProviderID)
        -> Bool?
    {
        recognizes(topLevelKey: hasKey)
    }

    /// The fast path's snapshot of the whole document `data`, or `nil`.
    package func fastSnapshot(data: Data, at instant: Date) -> EntitlementSnapshot? {
        data.withUnsafeBytes { raw -> EntitlementSnapshot? in
            var reader = JSONByteReader(raw.bindMemory(to: UInt8.self))
            do {
                let snapshot = try fastSnapshot(&reader, at: instant)
                try reader.expectEnd()
                return snapshot
            } catch {
                return nil
            }
        }
    }
}

extension UnifiedSnapshotAdapter: FastPathAdapter {
    /// Unified snapshots are always read by the general path (they are not bulk input).
    package func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot
    {
        throw JSONFastPathMiss()
    }

    /// Exactly ``recognizes(_:)``: a top-level `schemaVersion`.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool? {
        hasKey("schemaVersion")
    }
}
