import EntitlementKit
import EntitlementKitCrypto
import Foundation

/// Applies an import plan to a ledger: each customer's purchases assigned
/// (``EntitlementLedger/assign(_:to:document:receivedAt:)``) with the documents the team's tooling fetched
/// from the stores, read from a folder — `appStore/<originalTransactionId>.json`,
/// `googlePlay/<purchaseToken>.json`, `stripe/<id>.json` — or with the purchase-id link alone where there
/// is none. The package fetches nothing and holds no store credentials.
///
/// Streaming and resumable: the plan is read one line at a time (memory stays flat whatever its size),
/// each customer's assignments are one transaction of the ledger's store, and that transaction records
/// the plan line done (by its bytes' SHA-256), so a rerun skips the customers done. A customer with a
/// refused purchase is not recorded done: a rerun tries it again (assigning again changes nothing).
///
/// ```swift
/// let backfill = ImportBackfill(ledger: ledger, documents: documentsFolder, receivedAt: .now)
/// let summary = try await backfill.run(plan: ImportByteSource(handle: planFile)) { result in
///     print(result.jsonValue.compactText)
/// }
/// ```
public struct ImportBackfill: Sendable {
    /// What became of one purchase.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Assigned with its document: its statements are the customer's.
        case assigned
        /// Assigned without a document (none was found): the purchase-id link waits for its first
        /// notification or document.
        case linkedOnly
        /// Another customer owns it: nothing changed.
        case ownedByOther
        /// A Play purchase known only by its order id: Google's Orders API gives its purchase token.
        case needsPurchaseToken
        /// Refused (its document, the customer's ids, or a malformed plan line): nothing of it stored.
        case refused
    }

    /// One purchase's result (or a malformed plan line's, without a purchase).
    public struct Result: Sendable, Hashable {
        /// The plan line, from 1.
        public var line: Int
        /// The purchase, as the plan names it; `nil` for a malformed line.
        public var purchase: ImportPlanPurchase?
        /// What became of it.
        public var outcome: Outcome
        /// The customer owning it (``Outcome/ownedByOther``), by its original id.
        public var owner: String?
        /// Why it was refused.
        public var error: String?

        /// `{"line", "purchase"?, "outcome", "owner"?, "error"?}`, the purchase as the plan wrote it.
        public var jsonValue: JSONValue {
            var members: [String: JSONValue] = ["line": .integer(Int64(line)), "outcome": .string(outcome.rawValue)]
            if let purchase { members["purchase"] = purchase.jsonValue }
            if let owner { members["owner"] = .string(owner) }
            if let error { members["error"] = .string(error) }
            return .object(members)
        }
    }

    /// What a run did.
    public struct Summary: Sendable, Hashable {
        /// Plan lines read (customers), malformed ones included.
        public var customers = 0
        /// Customers skipped because a run before finished them.
        public var skipped = 0
        /// Plan lines that do not read.
        public var malformedLines = 0
        /// Purchases by outcome.
        public var purchases: [Outcome: Int] = [:]
    }

    /// The ledger assigned to.
    public let ledger: EntitlementLedger
    /// The folder of documents.
    public let documents: URL
    /// When the assignments (and the documents) are received.
    public let receivedAt: Date

    /// A backfill into `ledger` reading documents under `documents`, received at `receivedAt`.
    public init(ledger: EntitlementLedger, documents: URL, receivedAt: Date) {
        self.ledger = ledger
        self.documents = documents
        self.receivedAt = receivedAt
    }

    /// A document over this size is refused (as a replay's line).
    static let maximumDocumentSize = ImportLineReader.maximumLineLength

    /// Reads `plan` line by line and assigns every customer's purchases, calling `report` once per purchase
    /// (and once per malformed line) in plan order.
    ///
    /// - Throws: ``ImportReadError`` when the plan cannot be read (what was done before stays done).
    public func run(plan: ImportByteSource, report: (Result) -> Void) async throws(ImportReadError) -> Summary {
        var lines = ImportLineReader(plan)
        var summary = Summary()
        while let line = try lines.next() {
            guard let bytes = line.bytes else {
                summary.customers += 1
                summary.malformedLines += 1
                report(
                    Result(
                        line: line.number, outcome: .refused,
                        error: "the line is longer than \(ImportLineReader.maximumLineLength) bytes"))
                continue
            }
            guard bytes.contains(where: { ![0x20, 0x09].contains($0) }) else { continue }
            summary.customers += 1
            let customer: ImportPlanCustomer
            do throws(DocumentError) {
                customer = try ImportPlanCustomer(jsonLine: Data(bytes), line: line.number)
            } catch {
                summary.malformedLines += 1
                // The result names the line already.
                var located = error
                located.line = nil
                report(Result(line: line.number, outcome: .refused, error: located.description))
                continue
            }
            let results = await backfill(customer, line: line.number, digest: SHA256.hexDigest(of: bytes))
            if results == nil { summary.skipped += 1 }
            for result in results ?? [] {
                summary.purchases[result.outcome, default: 0] += 1
                report(result)
            }
        }
        return summary
    }

    /// One customer's results; `nil` when a run before finished it.
    private func backfill(_ customer: ImportPlanCustomer, line: Int, digest: String) async -> [Result]? {
        do throws(LedgerRefusal) {
            if try await ledger.isBackfilled(digest) { return nil }
        } catch {
            return customer.purchases.map {
                Result(line: line, purchase: $0, outcome: .refused, error: error.description)
            }
        }
        var results: [Result?] = []
        var assignments: [(index: Int, purchase: LedgerThreadID, records: [LedgerRecord]?)] = []
        for purchase in customer.purchases {
            let index = results.count
            results.append(nil)
            guard let (thread, file) = Self.thread(of: purchase.reference) else {
                results[index] = Result(line: line, purchase: purchase, outcome: .needsPurchaseToken)
                continue
            }
            do throws(LedgerRefusal) {
                let document = try document(at: file, for: thread)
                let records = try document.map { document throws(LedgerRefusal) in
                    try ledger.statements(about: thread, in: document)
                }
                assignments.append((index, thread, records))
            } catch {
                results[index] = Result(line: line, purchase: purchase, outcome: .refused, error: error.description)
            }
        }
        let isComplete = results.allSatisfy { $0?.outcome != .refused }
        do throws(LedgerRefusal) {
            let outcomes = try await ledger.assign(
                assignments.map { ($0.purchase, $0.records) }, to: customer.appUserIds, receivedAt: receivedAt,
                markingDone: isComplete ? digest : nil)
            for (assignment, outcome) in zip(assignments, outcomes) {
                let purchase = customer.purchases[assignment.index]
                results[assignment.index] =
                    if case .ownedByOther(let owner) = outcome {
                        Result(line: line, purchase: purchase, outcome: .ownedByOther, owner: owner)
                    } else {
                        Result(
                            line: line, purchase: purchase, outcome: assignment.records == nil ? .linkedOnly : .assigned
                        )
                    }
            }
        } catch {
            for assignment in assignments {
                results[assignment.index] = Result(
                    line: line, purchase: customer.purchases[assignment.index], outcome: .refused,
                    error: error.description)
            }
        }
        return results.compactMap { $0 }
    }

    /// The ledger's thread of a planned purchase and its document's path under the folder; `nil` for a Play
    /// order id (no purchase token to name it by).
    private static func thread(of reference: ImportPlanPurchase.Reference) -> (LedgerThreadID, String)? {
        let thread: LedgerThreadID
        switch reference {
        case .appStore(let id): thread = LedgerThreadID(source: .appStore, key: id)
        case .googlePlay(let token): thread = LedgerThreadID(source: .googlePlay, key: token)
        case .googlePlayOrder: return nil
        case .stripeSubscription(let id), .stripeCheckoutSession(let id):
            thread = LedgerThreadID(source: .stripe, key: id)
        }
        // Every id's form (ImportPlanPurchase) keeps to letters, digits, `.`, `-` and `_`: no path separator.
        return (thread, "\(thread.source.rawValue)/\(thread.key).json")
    }

    /// The document at `path` under the folder, or `nil` when there is none.
    private func document(at path: String, for thread: LedgerThreadID) throws(LedgerRefusal) -> LedgerDocument? {
        let url = documents.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data?
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: Self.maximumDocumentSize + 1)
        } catch {
            throw LedgerRefusal(.malformedBody, "the document \(path) cannot be read: \(error.localizedDescription)")
        }
        let body = data ?? Data()
        guard body.count <= Self.maximumDocumentSize else {
            throw LedgerRefusal(.malformedBody, "the document \(path) is larger than \(Self.maximumDocumentSize) bytes")
        }
        return LedgerDocument(
            source: thread.source, body: body, purchaseToken: thread.source == .googlePlay ? thread.key : nil,
            receivedAt: receivedAt)
    }
}
