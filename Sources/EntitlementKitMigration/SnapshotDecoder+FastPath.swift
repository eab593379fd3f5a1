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
        let record = try TopLevelMembers(&reader)
        try reader.expectEnd()
        var document = record
        var name = format
        var appUserId: String?
        if let response = record.value(of: "response") {
            // An envelope: its own members are checked here as strictly as the parser would, the
            // response by the adapter's fast reader.
            for member in record.members where !record.reader.key(member.key, is: "response") {
                var value = JSONByteReader(bytes, range: member.value)
                if record.reader.key(member.key, is: "appUserId") {
                    if try !value.consumeNull() {
                        let id = try value.string()
                        guard !id.isEmpty else { throw JSONFastPathMiss() }
                        appUserId = id
                    }
                } else if record.reader.key(member.key, is: "provider") {
                    if try !value.consumeNull() {
                        let provider = ProviderID(rawValue: try value.string())
                        guard isKnownFormat(provider), format == nil || format == provider else {
                            throw JSONFastPathMiss()
                        }
                        name = provider
                    }
                } else {
                    try value.skipValue()
                }
                try value.expectEnd()
            }
            var responseReader = JSONByteReader(bytes, range: response)
            document = try TopLevelMembers(&responseReader)
        }
        let adapter = try fastAdapter(named: name, for: document)
        var documentReader = JSONByteReader(bytes, range: document.range)
        var snapshot = try adapter.fastSnapshot(&documentReader, at: instant)
        try documentReader.expectEnd()
        if let appUserId { snapshot.appUserId = appUserId }
        return snapshot
    }

    /// The adapter `name` names, or the one adapter that recognises `document` by its top-level keys
    /// (every adapter must be able to tell from the keys, as `detectFormat` would ask all of them).
    private func fastAdapter(named name: ProviderID?, for document: TopLevelMembers) throws(JSONFastPathMiss)
        -> any FastPathAdapter
    {
        if let name {
            guard let adapter = adapters.first(where: { $0.provider == name }) as? any FastPathAdapter else {
                throw JSONFastPathMiss()
            }
            return adapter
        }
        var match: (any FastPathAdapter)?
        for adapter in adapters {
            guard let adapter = adapter as? any FastPathAdapter,
                let recognizes = adapter.recognizes(topLevelKey: { document.value(of: $0) != nil })
            else { throw JSONFastPathMiss() }
            if recognizes {
                guard match == nil else { throw JSONFastPathMiss() }
                match = adapter
            }
        }
        guard let match else { throw JSONFastPathMiss() }
        return match
    }
}

/// The keys of an object and where each value lies, found without checking the values (whoever reads
/// a value checks it then); the keys themselves are plain ASCII, unique, and the object well formed.
private struct TopLevelMembers {
    let reader: JSONByteReader
    let range: Range<Int>
    var members: [(key: JSONKeySpan, value: Range<Int>)] = []

    init(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        reader.skipWhitespace()
        let start = reader.position
        try reader.beginObject()
        var isFirst = true
        var keys: [JSONKeySpan] = []
        while let key = try reader.nextKey(&isFirst) {
            try reader.checkUnique(key, among: &keys)
            members.append((key, try reader.structuralSkip()))
        }
        range = start..<reader.position
        self.reader = reader
    }

    func value(of key: StaticString) -> Range<Int>? {
        members.first { reader.key($0.key, is: key) }?.value
    }
}
