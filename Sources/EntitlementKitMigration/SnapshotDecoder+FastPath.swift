import EntitlementKit
import Foundation

// The fast path of `snapshot(fromRecord:format:at:)`: the record's envelope, the format and the vendor
// document are read straight from the bytes by the adapters' fast readers (`FastPathAdapter`). Anything
// it is not sure of — an unusual envelope, a format only the document's values can tell, a document the
// adapter's fast reader misses — returns `nil`, and the general path reads the record, giving the same
// snapshot or the located error. `FastPathDifferentialTests` holds the two paths to the same answers.

extension SnapshotDecoder {
    /// The fast path's snapshot of one JSON Lines record, or `nil` to leave it to the general path.
    package func fastSnapshot(fromRecord data: Data, format: ProviderID?, at instant: Date) -> EntitlementSnapshot? {
        guard usesFastPath else { return nil }
        return data.withUnsafeBytes { raw -> EntitlementSnapshot? in
            do {
                return try fastSnapshot(raw.bindMemory(to: UInt8.self), format: format, at: instant)
            } catch {
                return nil
            }
        }
    }

    private func fastSnapshot(_ bytes: UnsafeBufferPointer<UInt8>, format: ProviderID?, at instant: Date)
        throws(JSONFastPathMiss) -> EntitlementSnapshot
    {
        var reader = JSONByteReader(bytes)
        let start = reader.position
        guard try Self.startsLikeAnEnvelope(reader) else {
            // A bare document (an envelope whose first key is another is read by the general path).
            let range = start..<bytes.count
            return try read(bytes, range, named: format, at: instant)
        }
        var name = format
        var appUserId: String?
        var snapshot: EntitlementSnapshot?
        var deferredResponse: Range<Int>?
        var keys: [JSONKeySpan] = []
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            try reader.checkUnique(key, among: &keys)
            if reader.key(key, is: "response") {
                guard try reader.peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
                if let name {
                    // The format is known: read the response in place.
                    let adapter = try fastAdapter(named: name)
                    var response = reader
                    snapshot = try adapter.fastSnapshot(&response, at: instant)
                    reader = response
                } else {
                    deferredResponse = try reader.structuralSkip()
                }
            } else if reader.key(key, is: "appUserId") {
                if try !reader.consumeNull() {
                    let id = try reader.string()
                    guard !id.isEmpty else { throw JSONFastPathMiss() }
                    appUserId = id
                }
            } else if reader.key(key, is: "provider") {
                if try !reader.consumeNull() {
                    // A provider after the response would have to be checked against the format it was
                    // read as; the general path does that.
                    guard snapshot == nil, deferredResponse == nil else { throw JSONFastPathMiss() }
                    let provider = ProviderID(rawValue: try reader.string())
                    guard isKnownFormat(provider), format == nil || format == provider else {
                        throw JSONFastPathMiss()
                    }
                    name = provider
                }
            } else {
                try reader.skipValue()
            }
        }
        try reader.expectEnd()
        if let deferredResponse {
            snapshot = try read(bytes, deferredResponse, named: name, at: instant)
        }
        guard var snapshot else { throw JSONFastPathMiss() }
        if let appUserId { snapshot.appUserId = appUserId }
        return snapshot
    }

    /// Whether the record's first key is one of an envelope's.
    private static func startsLikeAnEnvelope(_ reader: JSONByteReader) throws(JSONFastPathMiss) -> Bool {
        var probe = reader
        try probe.beginObject()
        var isFirst = true
        guard let key = try probe.nextKey(&isFirst) else { return false }
        return probe.key(key, is: "appUserId") || probe.key(key, is: "provider") || probe.key(key, is: "response")
    }

    /// The document in `bytes[range]` read by the adapter `name` names or, without a name, by the one
    /// adapter whose fast reader takes it and which is the only one recognising its top-level keys (as
    /// `detectFormat` would find by asking every adapter).
    private func read(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, named name: ProviderID?, at instant: Date
    )
        throws(JSONFastPathMiss) -> EntitlementSnapshot
    {
        if let name {
            var reader = JSONByteReader(bytes, range: range)
            let snapshot = try fastAdapter(named: name).fastSnapshot(&reader, at: instant)
            try reader.expectEnd()
            return snapshot
        }
        let candidates = try adapters.map { (adapter) throws(JSONFastPathMiss) -> any FastPathAdapter in
            guard let adapter = adapter as? any FastPathAdapter else { throw JSONFastPathMiss() }
            return adapter
        }
        for candidate in candidates {
            var reader = JSONByteReader(bytes, range: range)
            reader.topLevelKeys = []
            guard let snapshot = try? candidate.fastSnapshot(&reader, at: instant), (try? reader.expectEnd()) != nil,
                let keys = reader.topLevelKeys
            else { continue }
            var recognizing: [ProviderID] = []
            for adapter in candidates {
                // The candidate's reader answers only for documents its adapter recognises (some, such as
                // Qonversion's, need the values to tell, which that reader has checked); the others must
                // be ruled out by the keys.
                guard adapter.provider != candidate.provider else {
                    recognizing.append(adapter.provider)
                    continue
                }
                let answer = adapter.recognizes(
                    topLevelKey: { name in keys.contains { reader.key($0, is: name) } },
                    answeredBy: candidate.provider)
                guard let answer else { throw JSONFastPathMiss() }
                if answer { recognizing.append(adapter.provider) }
            }
            guard recognizing == [candidate.provider] else { throw JSONFastPathMiss() }
            return snapshot
        }
        throw JSONFastPathMiss()
    }

    private func fastAdapter(named name: ProviderID) throws(JSONFastPathMiss) -> any FastPathAdapter {
        guard let adapter = adapters.first(where: { $0.provider == name }) as? any FastPathAdapter else {
            throw JSONFastPathMiss()
        }
        return adapter
    }
}
