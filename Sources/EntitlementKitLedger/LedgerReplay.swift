import EntitlementKit
import Foundation

/// A replay of a ledger log: every line applied in order, then every customer's snapshot.
public struct LedgerReplay: Sendable {
    /// What one line did.
    public struct Line: Sendable {
        /// The line's number in the log, from 1.
        public var number: Int
        /// The outcome, or `nil` when the line was refused.
        public var outcome: LedgerOutcome?
        /// Why the line was refused.
        public var error: LedgerRefusal?

        /// `{"line", "outcome", "customers"?, "purchaseToken"?, "owner"?, "error"?}`; a refusal's outcome
        /// is `refused`.
        public var json: JSONValue {
            var members: [String: JSONValue] = ["line": .integer(Int64(number))]
            switch outcome {
            case .applied(let customers)?:
                members["customers"] = .array(customers.map(JSONValue.string))
            case .refreshNeeded(let token, _)?:
                members["purchaseToken"] = .string(token)
            case .receiptInUseByOtherUser(let owner)?:
                members["owner"] = .string(owner)
            default:
                break
            }
            members["outcome"] = .string(outcome?.name ?? "refused")
            if let error { members["error"] = .string(error.description) }
            return .object(members)
        }
    }

    /// Every non-blank line's result, in order.
    public var lines: [Line]
    /// Every customer's snapshot, asked for by its name and carrying its aliases (``LedgerCustomerName``),
    /// sorted by name.
    public var snapshots: [EntitlementSnapshot]
    /// Why the snapshots could not be made (the store failed), if it did.
    public var failure: String?

    /// Applies every line of `log` to `ledger`, then answers every customer at `instant`.
    public static func run(log: Data, into ledger: EntitlementLedger, at instant: Date) async -> LedgerReplay {
        var lines: [Line] = []
        var number = 0
        for text in log.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard text.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            do {
                let input = try LedgerInput(logLine: Data(text))
                lines.append(Line(number: number, outcome: try await ledger.apply(input)))
            } catch {
                lines.append(Line(number: number, error: error))
            }
        }
        do {
            var snapshots: [EntitlementSnapshot] = []
            let roll = try await ledger.namedCustomers()
            if let unreadable = roll.unreadable.first {
                return LedgerReplay(lines: lines, snapshots: [], failure: unreadable.description)
            }
            for customer in roll.customers {
                snapshots.append(try await ledger.snapshot(of: customer, at: instant))
            }
            return LedgerReplay(lines: lines, snapshots: snapshots)
        } catch {
            return LedgerReplay(lines: lines, snapshots: [], failure: error.description)
        }
    }
}
