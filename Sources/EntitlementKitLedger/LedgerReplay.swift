import EntitlementKit
import Foundation

/// A replay of a ledger log: every line applied in order, then every customer's snapshot.
///
/// A log of any size is replayed a line at a time: a caller reading the log with a ``JSONLinesReader`` hands each line to
/// ``apply(_:to:)`` as it comes and writes its result before reading on, then asks
/// ``snapshots(of:at:from:)`` for the customers a batch at a time, so neither the log nor its
/// results are ever held whole (`entitlements ledger replay` does this). ``run(log:into:at:)`` does the
/// same for a log already in memory and keeps every result.
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

    /// One customer's answer at the end of a replay: its snapshot, or the refusal of a customer the store
    /// cannot read (a damaged row), named when its name is known.
    public enum CustomerAnswer: Sendable {
        /// The customer's snapshot, asked for by its name and carrying its aliases.
        case snapshot(EntitlementSnapshot)
        /// The customer named `customer` (`nil` when the damaged row is the one holding its ids) cannot be
        /// read; every other customer still answers.
        case unreadable(customer: String?, LedgerRefusal)
    }

    /// The longest log line read, in bytes (16 MiB, far above any real notification or document); a longer
    /// one is refused and the rest of the log applied.
    public static let maximumLineLength = 16 << 20

    /// Every non-blank line's result, in order.
    public var lines: [Line]
    /// Every customer's snapshot, asked for by its name and carrying its aliases (``LedgerCustomerName``),
    /// sorted by name.
    public var snapshots: [EntitlementSnapshot]
    /// Why some customer's snapshot could not be made (a damaged row, a failing store), if one could not;
    /// every other customer is still in ``snapshots``.
    public var failure: String?

    /// Applies every line of `log` to `ledger`, then answers every customer at `instant`.
    public static func run(log: Data, into ledger: EntitlementLedger, at instant: Date) async -> LedgerReplay {
        var lines: [Line] = []
        var number = 0
        for text in log.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard text.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
            let content: JSONLine.Content =
                text.count > maximumLineLength ? .tooLong(byteCount: text.count) : .text(Data(text))
            lines.append(await apply(JSONLine(number: number, content: content), to: ledger))
        }
        var replay = LedgerReplay(lines: lines, snapshots: [])
        let roll: LedgerCustomerRoll
        do {
            roll = try await ledger.namedCustomers()
        } catch {
            replay.failure = error.description
            return replay
        }
        replay.failure = roll.unreadable.first?.description
        for answer in await snapshots(of: ledger, at: instant, from: roll.customers[...]) {
            switch answer {
            case .snapshot(let snapshot): replay.snapshots.append(snapshot)
            case .unreadable(_, let refusal): replay.failure = replay.failure ?? refusal.description
            }
        }
        return replay
    }

    /// Applies one line of a log to `ledger`: a line that is not one ledger input, or longer than
    /// ``maximumLineLength``, is refused (`malformedBody`, naming its length) and nothing of it is stored.
    public static func apply(_ line: JSONLine, to ledger: EntitlementLedger) async -> Line {
        switch line.content {
        case .tooLong(let byteCount):
            let refusal = LedgerRefusal(
                .malformedBody,
                "the line is \(byteCount) bytes, over the \(maximumLineLength >> 20) MiB limit of one log line")
            return Line(number: line.number, error: refusal)
        case .text(let text):
            do {
                let input = try LedgerInput(logLine: text)
                return Line(number: line.number, outcome: try await ledger.apply(input))
            } catch {
                return Line(number: line.number, error: error)
            }
        }
    }

    /// The answers of `customers` (a slice of ``EntitlementLedger/namedCustomers()``'s roll, in its order):
    /// a customer whose row is damaged answers ``CustomerAnswer/unreadable(customer:_:)`` and the others
    /// their snapshots. Asked for a slice at a time, the snapshots of a large ledger are never held together.
    public static func snapshots(
        of ledger: EntitlementLedger, at instant: Date, from customers: ArraySlice<LedgerCustomerName>
    ) async -> [CustomerAnswer] {
        var answers: [CustomerAnswer] = []
        answers.reserveCapacity(customers.count)
        for customer in customers {
            do {
                answers.append(.snapshot(try await ledger.snapshot(of: customer, at: instant)))
            } catch {
                answers.append(.unreadable(customer: customer.name, error))
            }
        }
        return answers
    }
}
