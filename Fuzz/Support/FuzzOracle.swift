import EntitlementKit
import Foundation

// What every fuzz target checks beyond "did not crash". A violated rule stops the run with
// `fatalError`, which libFuzzer records as a crash with the input that caused it.

/// The instant every target evaluates at, so a found input replays identically.
let fuzzInstant = Date(timeIntervalSince1970: 1_750_000_000)

/// The longest error description accepted: a refusal must stay a readable line, whatever the input's size.
let maximumErrorDescriptionBytes = 128 * 1024

/// A refusal is one bounded line.
func checkRefusal(_ error: DocumentError) {
    let text = error.description
    if text.utf8.count > maximumErrorDescriptionBytes {
        fatalError("error description of \(text.utf8.count) bytes: \(text.prefix(200))")
    }
    // Bytes, not `String.contains`: Foundation's substring search was a few percent of every target.
    if text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
        fatalError("error description spans lines: \(text.debugDescription)")
    }
}

/// An accepted document yields a snapshot the library can store and read back: the same canonical bytes,
/// and the same access now and at every later instant (a cache entry is only ever judged later). Earlier
/// instants are not compared: the unified form does not say that an already-expired entitlement was also
/// revoked by the vendor, which only matters before its expiry.
func checkSnapshot(_ snapshot: EntitlementSnapshot) {
    let stored = snapshot.canonicalJSONData()
    let restored: EntitlementSnapshot
    do {
        restored = try EntitlementSnapshot(json: stored)
    } catch {
        fatalError("the library refuses its own output: \(error)\n\(String(decoding: stored, as: UTF8.self))")
    }
    if restored.canonicalJSONData() != stored {
        fatalError("the stored snapshot reads back different:\n\(String(decoding: stored, as: UTF8.self))")
    }
    for days in [0.0, 1, 30, 365, 3650] {
        let later = snapshot.evaluatedAt.addingTimeInterval(days * 86_400)
        if restored.evaluated(at: later).activeEntitlementIds != snapshot.evaluated(at: later).activeEntitlementIds {
            fatalError("access \(days) days later changed through storage:\n\(String(decoding: stored, as: UTF8.self))")
        }
    }
}

/// Runs one decoding attempt and applies both checks.
func exercise(_ decode: () throws(DocumentError) -> EntitlementSnapshot) {
    do {
        checkSnapshot(try decode())
    } catch {
        checkRefusal(error)
    }
}

/// One answer of a decoding path: the snapshot with its canonical bytes (so a difference the model's `==`
/// might not show, such as a date's last bit, still counts), or the located error.
enum DecodingAnswer: Equatable {
    case snapshot(EntitlementSnapshot, Data)
    case failure(DocumentError)

    init(_ decode: () throws(DocumentError) -> EntitlementSnapshot) {
        do {
            let snapshot = try decode()
            self = .snapshot(snapshot, snapshot.canonicalJSONData())
        } catch {
            self = .failure(error)
        }
    }
}

/// The adapter's `snapshot(from: Data…)` (the tape) and the tree path (`oracle`'s `JSONValue` read through
/// a node made from it; by default the tape's own tree) give the same snapshot or the same located error;
/// then the usual checks on that answer. The vendor targets pass `OracleJSONParser.parse`, the tree parser
/// the tape replaced.
func exerciseBothPaths(
    _ adapter: some EntitlementAdapter, _ data: Data,
    oracle: (Data) throws(DocumentError) -> JSONValue = { data throws(DocumentError) in try JSONValue.parse(data) }
) {
    let viaBytes = DecodingAnswer { () throws(DocumentError) in try adapter.snapshot(from: data, at: fuzzInstant) }
    let viaTree = DecodingAnswer { () throws(DocumentError) in
        try adapter.snapshot(from: JSONNode(oracle(data)), at: fuzzInstant)
    }
    if viaBytes != viaTree {
        fatalError("\(adapter.provider) tape and tree disagree: \(viaBytes) vs \(viaTree)")
    }
    switch viaBytes {
    case .snapshot(let snapshot, _): checkSnapshot(snapshot)
    case .failure(let error): checkRefusal(error)
    }
}
