import EntitlementKit
import Foundation

extension QonversionAdapter: FastPathAdapter {
    /// No fast reader yet: every Qonversion document goes through the general path.
    package func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot
    {
        throw JSONFastPathMiss()
    }

    /// Qonversion never claims a document with RevenueCat's `subscriber` or the unified `schemaVersion`
    /// (see `QonversionWireFormat.detect`); anything else needs the document's values to tell.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool? {
        hasKey("subscriber") || hasKey("schemaVersion") ? false : nil
    }
}
