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

/// An accepted document yields a snapshot the library can store and read back unchanged.
func checkSnapshot(_ snapshot: EntitlementSnapshot) {
    let stored = snapshot.canonicalJSONData()
    let restored: EntitlementSnapshot
    do {
        restored = try EntitlementSnapshot(json: stored)
    } catch {
        fatalError("the library refuses its own output: \(error)\n\(String(decoding: stored, as: UTF8.self))")
    }
    if restored != snapshot {
        fatalError("the stored snapshot reads back different:\n\(String(decoding: stored, as: UTF8.self))")
    }
    if restored.activeEntitlementIds != snapshot.activeEntitlementIds {
        fatalError("access changed through storage")
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
