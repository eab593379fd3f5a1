import EntitlementKit
import Foundation

extension RevenueCatAdapter: FastPathAdapter {
    /// The v1 subscriber body read in one pass from its bytes (see `RevenueCatFastReader.swift`).
    package func fastSnapshot(_ reader: inout JSONByteReader, at instant: Date) throws(JSONFastPathMiss)
        -> EntitlementSnapshot
    {
        try RevenueCatResponse(fastReading: &reader).snapshot(provider: provider, at: instant)
    }

    /// Exactly ``recognizes(_:)``: a top-level `subscriber`.
    package func recognizes(topLevelKey hasKey: (StaticString) -> Bool) -> Bool? {
        hasKey("subscriber")
    }
}
