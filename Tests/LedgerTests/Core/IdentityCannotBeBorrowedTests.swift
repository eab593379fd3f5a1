import EntitlementKit
import EntitlementKitLedger
import Foundation
import Testing

/// Identity that cannot be borrowed (ledger.md, Identity): an anonymous id already logged in to an
/// identified customer gives nothing away, `transferIfNoActiveSubscriptions` looks at every purchase the
/// owner holds, a registered link binds its purchase against any posting, a placeholder customer is moved
/// by a later link only until its id is used, chained tokens join in any order, and the merge keeps the
/// later expiry when no source grants access.
@Suite("Identity that cannot be borrowed", .timeLimit(.minutes(3)))
struct IdentityCannotBeBorrowedTests {
    static let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"
    let at = Date(timeIntervalSince1970: 1_500)

    func ledger(_ behavior: RestoreBehavior = .transferToNewAppUserId, sources: [any LedgerSource] = [PlainSource()])
        -> EntitlementLedger
    {
        EntitlementLedger(sources: sources, configuration: LedgerConfiguration(restoreBehavior: behavior))
    }

    func holds(_ ledger: EntitlementLedger, _ appUserId: String) async throws -> Bool {
        try await ledger.snapshot(for: appUserId, at: at).isActive("pro")
    }

    @Test func aLogInFromAnAnonymousIdOfAnIdentifiedCustomerGivesNothingAway() async throws {
        let ledger = ledger()
        _ = try await ledger.apply(
            Plain.document([Plain.record("t", order: 1, expires: 2_000)], appUserId: Self.anonymous))
        #expect(
            try await ledger.logIn(from: Self.anonymous, to: "alice").outcome == .applied(customers: [Self.anonymous]))
        // Someone who learnt alice's old anonymous id logs in from it.
        let borrowed = try await ledger.logIn(from: Self.anonymous, to: "mallory")
        #expect(borrowed.created && borrowed.outcome == .noChange(reason: "logIn aliased no id"))
        _ = try await ledger.register(appUserId: "eve")
        #expect(
            try await ledger.logIn(from: Self.anonymous, to: "eve").outcome == .noChange(reason: "logIn aliased no id"))
        #expect(try await holds(ledger, "alice"))
        #expect(try await holds(ledger, "mallory") == false)
        #expect(try await holds(ledger, "eve") == false)
        #expect(try await ledger.customers() == [[Self.anonymous, "alice"], ["mallory"], ["eve"]])
        // What a server's login route checks before it lets a session log in from an id.
        #expect(try await ledger.appUserIds(ofCustomerHolding: Self.anonymous) == [Self.anonymous, "alice"])
        #expect(try await ledger.appUserIds(ofCustomerHolding: "mallory") == ["mallory"])
        #expect(try await ledger.appUserIds(ofCustomerHolding: "nobody").isEmpty)
    }

    @Test(
        "transferIfNoActiveSubscriptions looks at every purchase the owner holds at receivedAt",
        arguments: [false, true])
    func theActiveCheckIsOwnerWide(otherPurchaseLapsed: Bool) async throws {
        let ledger = ledger(.transferIfNoActiveSubscriptions)
        // alice holds `kept` (active until 2 000, or lapsed at 1 100) and `posted`, lapsed at 1 100.
        let keptExpiry: Int64 = otherPurchaseLapsed ? 1_100 : 2_000
        _ = try await ledger.apply(
            Plain.document([Plain.record("kept", order: 1, expires: keptExpiry)], appUserId: "alice"))
        let posted = [Plain.record("posted", order: 1, product: "old", expires: 1_100)]
        _ = try await ledger.apply(Plain.document(posted, appUserId: "alice"))
        let outcome = try await ledger.apply(Plain.document(posted, appUserId: "bob", receivedAt: 1_200))
        if otherPurchaseLapsed {
            #expect(outcome == .applied(customers: ["alice", "bob"]))
        } else {
            #expect(outcome == .receiptInUseByOtherUser(owner: "alice"), "alice holds an active subscription")
            #expect(try await ledger.thread(LedgerThreadID(source: Plain.source, key: "posted"))?.owner != nil)
            #expect(try await ledger.customers() == [["alice"], ["bob"]])
            let bob = try await ledger.snapshot(for: "bob", at: at)
            #expect(bob.all.isEmpty, "bob got nothing")
        }
    }

    @Test("a registered link binds its purchase against any posting", arguments: RestoreBehavior.allCases)
    func aRegisteredLinkBinds(behavior: RestoreBehavior) async throws {
        let ledger = ledger(behavior)
        _ = try await ledger.link(obfuscatedAccountId: "acct-alice", to: "alice")
        let purchase = [Plain.record("t", order: 1, expires: 2_000, account: "acct-alice")]
        // Posted first by someone else: it goes to alice, not to the poster.
        #expect(
            try await ledger.apply(Plain.document(purchase, appUserId: "mallory"))
                == .receiptInUseByOtherUser(owner: "alice"))
        // Posted again once alice owns it, and by an anonymous id.
        #expect(
            try await ledger.apply(Plain.document(purchase, appUserId: "mallory", receivedAt: 3_000))
                == .receiptInUseByOtherUser(owner: "alice"))
        #expect(
            try await ledger.apply(Plain.document(purchase, appUserId: Self.anonymous))
                == .receiptInUseByOtherUser(owner: "alice"))
        #expect(try await holds(ledger, "alice"))
        #expect(try await holds(ledger, "mallory") == false)
        #expect(try await holds(ledger, Self.anonymous) == false)
        // alice posting her own purchase is hers.
        #expect(
            try await ledger.apply(Plain.document(purchase, appUserId: "alice"))
                != .receiptInUseByOtherUser(owner: "alice"))
    }

    enum Use: String, CaseIterable, Sendable {
        case none, read, posting, logIn
    }

    @Test(
        "a placeholder made from an unregistered token is moved by a later link until its id is used",
        arguments: Use.allCases)
    func aPlaceholderIsMovedByALaterLink(use: Use) async throws {
        let ledger = ledger()
        let purchase = [Plain.record("t", order: 1, expires: 2_000, account: "acct-p")]
        #expect(try await ledger.apply(Plain.notification(id: "n1", purchase)) == .applied(customers: ["acct-p"]))
        switch use {
        case .none: break
        case .read: _ = try await ledger.snapshot(for: "acct-p", at: at)
        case .posting: _ = try await ledger.apply(Plain.document([], appUserId: "acct-p"))
        case .logIn: _ = try await ledger.logIn(from: "acct-p", to: "acct-p")
        }
        let linked = try await ledger.link(obfuscatedAccountId: "acct-p", to: "alice")
        if use == .none {
            #expect(linked == .applied(customers: ["alice"]), "the notification beat the link")
            #expect(try await holds(ledger, "alice"))
            #expect(try await ledger.customers() == [["alice"]], "the placeholder is removed")
            #expect(try await ledger.snapshot(for: "acct-p", at: at).all.isEmpty)
        } else {
            #expect(
                linked == .noChange(reason: "the link linked no purchase"), "a used id is a customer like any other")
            #expect(try await holds(ledger, "acct-p"))
            #expect(try await holds(ledger, "alice") == false)
        }
    }

    @Test func chainedTokensJoinOneThreadInAnyArrivalOrder() async throws {
        // Tokens A ← B ← C (each names the one before as its linkedPurchaseToken); C names its account.
        let documents: [String: JSONValue] = [
            "A": Plain.record("A", order: 1, expires: 1_100, statement: "document A"),
            "B": Plain.record("B", order: 2, statement: "document B").merging(["alias": .string("A")]),
            "C": Plain.record("C", order: 3, expires: 2_000, account: "acct-c").merging(["alias": .string("B")]),
        ]
        for order in [
            ["A", "B", "C"], ["A", "C", "B"], ["B", "A", "C"], ["B", "C", "A"], ["C", "A", "B"], ["C", "B", "A"],
        ] {
            let ledger = ledger()
            for (index, token) in order.enumerated() {
                _ = try await ledger.apply(
                    Plain.notification(id: "n\(index)", [documents[token] ?? .null], receivedAt: Int64(1_000 + index)))
            }
            let thread = try await ledger.thread(LedgerThreadID(source: Plain.source, key: "A"))
            #expect(thread?.records.map(\.statement) == ["document A", "document B", "state"], "\(order)")
            for token in ["B", "C"] {
                #expect(try await ledger.thread(LedgerThreadID(source: Plain.source, key: token)) == nil, "\(order)")
            }
            #expect(try await ledger.customers() == [["acct-c"]], "\(order): one customer, owning the one thread")
            #expect(try await holds(ledger, "acct-c"), "\(order)")
        }
    }

    @Test("when no source grants access, the later expiry wins", arguments: [false, true])
    func theLaterExpiryWinsAmongInactiveGrants(laterInFirstSource: Bool) async throws {
        let other = LedgerSourceID(rawValue: "plain2")
        let ledger = ledger(sources: [PlainSource(), PlainSource(id: other)])
        let (first, second): (Int64, Int64) = laterInFirstSource ? (1_300, 1_100) : (1_100, 1_300)
        _ = try await ledger.apply(Plain.document([Plain.record("p1", order: 1, expires: first)], appUserId: "alice"))
        var document = Plain.document([Plain.record("p2", order: 1, expires: second)], appUserId: "alice")
        document.source = other
        _ = try await ledger.apply(document)
        let grant = try await ledger.snapshot(for: "alice", at: at)["pro"]
        #expect(grant?.isActive == false)
        #expect(grant?.expirationDate == Date(timeIntervalSince1970: 1_300))
    }
}

extension JSONValue {
    fileprivate func merging(_ members: [String: JSONValue]) -> JSONValue {
        guard case .object(var own) = self else { return self }
        own.merge(members) { _, new in new }
        return .object(own)
    }
}
