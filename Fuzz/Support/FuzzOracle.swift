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
    if text.contains("\n") || text.contains("\r") {
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
