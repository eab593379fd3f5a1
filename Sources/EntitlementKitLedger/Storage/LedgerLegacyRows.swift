import Foundation

/// The rows of the ledger's first layout: each a JSON text, a thread row holding every record of the
/// purchase. A `--state` folder (or a database) written then is read row by row as it is met, and each
/// row met is written again in ``LedgerRowFormat`` — a thread as its head and one row per statement — by
/// the transaction that met it. Only such rows take Foundation's JSON decoder.
enum LedgerLegacyRows {
    static func decode<Value: Decodable>(_ type: Value.Type, _ data: Data, _ table: LedgerTable)
        throws(LedgerRefusal) -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw LedgerRefusal(
                .storage,
                "a row of \(table.rawValue) is neither of this layout nor of the first one; rebuild the state by "
                    + "replaying its log into a new folder (`entitlements ledger replay --state NEW LOG`)")
        }
    }
}
