import EntitlementKit
import EntitlementKitLedger
import Foundation

/// One reading by a ledger source: a refusal is one bounded line; the records of a reading, kept as the
/// ledger keeps them (newest per statement, per thread), map through the source to a snapshot that
/// survives storage.
func exerciseLedgerSource<Source: LedgerSource>(
    _ source: Source, _ read: (Source) throws(LedgerRefusal) -> LedgerReading
) {
    let reading: LedgerReading
    do {
        reading = try read(source)
    } catch {
        let text = error.description
        if text.utf8.count > maximumErrorDescriptionBytes || text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            fatalError("refusal is not one bounded line: \(text.prefix(200).debugDescription)")
        }
        return
    }
    guard case .records(let records) = reading.effect else { return }
    var threads: [String: LedgerThread] = [:]
    for record in records {
        var thread = threads[record.thread] ?? LedgerThread(id: LedgerThreadID(source: source.id, key: record.thread))
        _ = thread.keep(record)
        threads[record.thread] = thread
    }
    do {
        checkSnapshot(try source.snapshot(of: Array(threads.values), at: fuzzInstant))
    } catch {
        fatalError("records the source read do not map: \(error)")
    }
}
