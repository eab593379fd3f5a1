import Foundation

/// What an input reads of a thread besides the statements it brings: the owner, the statements held (by
/// name only) and, per account link the thread's records carry, the newest record carrying it. Each
/// statement's record is a row of its own (``LedgerTable/statements``), so applying an input reads and
/// writes the head and the statements it touches, never the thread's whole history (ledger.md "Cost").
struct LedgerThreadHead: Sendable, Hashable {
    /// Where an account link stands among the thread's links: the newest record carrying it.
    struct LinkLead: Sendable, Hashable {
        var link: LedgerAccountLink
        /// The statement of the newest record carrying it (of equal orders, the first statement).
        var statement: String
        /// Its place among that record's links (the first, when a record lists it twice).
        var index: Int
        /// That record's order.
        var order: LedgerOrderKey
    }

    let id: LedgerThreadID
    /// The customer that owns it, or `nil` while unlinked.
    var owner: LedgerCustomerID?
    /// One lead per distinct link.
    private(set) var leads: [LinkLead] = []
    /// The statements held, each as its row writer writes a string, in the order first kept: appended to
    /// without reading the list, read only when the whole thread is assembled.
    private(set) var statementBytes: [UInt8] = []

    init(id: LedgerThreadID, owner: LedgerCustomerID? = nil) {
        self.id = id
        self.owner = owner
    }

    init(id: LedgerThreadID, owner: LedgerCustomerID?, leads: [LinkLead], statementBytes: [UInt8]) {
        self.id = id
        self.owner = owner
        self.leads = leads
        self.statementBytes = statementBytes
    }

    /// Every account link the thread's records carry, newest record first (so a later statement's token
    /// leads), each once: what the records' links flattened newest first give, duplicates dropped.
    var accountLinks: [LedgerAccountLink] {
        leads.sorted(by: Self.precedes).map(\.link)
    }

    private static func precedes(_ a: LinkLead, _ b: LinkLead) -> Bool {
        if a.order != b.order { return a.order > b.order }
        if a.statement != b.statement { return a.statement.utf8.lexicographicallyPrecedes(b.statement.utf8) }
        return a.index < b.index
    }

    /// The statements held, in the order first kept.
    func statements() throws(LedgerRefusal) -> [String] {
        var reader = LedgerRowReader(Data([LedgerRowFormat.version] + statementBytes), table: .threads)
        var statements: [String] = []
        while !reader.isAtEnd { statements.append(try reader.string()) }
        return statements
    }

    /// Notes a statement the thread did not hold.
    mutating func addStatement(_ statement: String) {
        var writer = LedgerRowWriter()
        writer.string(statement)
        statementBytes += writer.bytes.dropFirst()
    }

    /// Notes that `record` replaced `replaced` (or is its statement's first record); `false` when a link
    /// whose newest record was `replaced` is gone from `record`, so the leads must be made again from
    /// every record (``rebuildLeads(from:)``).
    mutating func noteLinks(of record: LedgerRecord, replacing replaced: LedgerRecord?) -> Bool {
        var isCurrent = true
        if let replaced {
            for link in replaced.accountLinks where !record.accountLinks.contains(link) {
                if leads.contains(where: { $0.link == link && $0.statement == record.statement }) { isCurrent = false }
            }
        }
        var seen: Set<LedgerAccountLink> = []
        for (index, link) in record.accountLinks.enumerated() where seen.insert(link).inserted {
            let candidate = LinkLead(link: link, statement: record.statement, index: index, order: record.order)
            if let at = leads.firstIndex(where: { $0.link == link }) {
                // The record replaced its statement's older one: it still leads where that one did.
                if leads[at].statement == record.statement || Self.precedes(candidate, leads[at]) {
                    leads[at] = candidate
                }
            } else {
                leads.append(candidate)
            }
        }
        return isCurrent
    }

    /// Makes the leads again from every record of the thread.
    mutating func rebuildLeads(from records: [LedgerRecord]) {
        leads = []
        for record in records { _ = noteLinks(of: record, replacing: nil) }
    }
}
