import EntitlementKit
import Foundation

extension QonversionAdapter: FastPathAdapter {
    /// All three shapes read in one pass from their bytes (see `QonversionFastReader.swift`).
    package func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot
    {
        let document = try QonversionWireDocument(fastReading: &reader)
        return EntitlementSnapshot(qonversionWithUniqueIds: document, provider: provider, at: instant)
    }

    /// Qonversion never claims a document with RevenueCat's `subscriber` or the unified `schemaVersion`
    /// (see `QonversionWireFormat.detect`); anything else needs the document's values to tell.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool? {
        hasKey("subscriber") || hasKey("schemaVersion") ? false : nil
    }
}
