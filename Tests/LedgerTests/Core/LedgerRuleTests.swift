import EntitlementKit
import EntitlementKitLedger
import Foundation
import Testing

/// The rules of ledger.md that the first core suite left untested: identity under every restore
/// behaviour and every logIn case, ids as bytes, tokens that never move an owned purchase, the seen-id
/// retention, and the snapshot's merge across sources, verification and `requestDate`.
@Suite("Ledger rules: identity, retention, the merged snapshot", .timeLimit(.minutes(5)))
struct LedgerRuleTests {
    static let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"
    static let otherAnonymous = "$RCAnonymousID:fedcba9876543210fedcba9876543210"
    let at = Date(timeIntervalSince1970: 1_500)

    func ledger(_ configuration: LedgerConfiguration = LedgerConfiguration(), sources: [any LedgerSource]? = nil)
        -> EntitlementLedger
    {
        EntitlementLedger(sources: sources ?? [PlainSource()], configuration: configuration)
    }

    /// Who has `pro` at 1 500 (the purchase expires at 2 000): the owner of thread `t`.
    func holders(_ ledger: EntitlementLedger, _ ids: [String]) async throws -> [String] {
        var holders: [String] = []
        for id in ids where try await ledger.snapshot(for: id, at: at).isActive("pro") { holders.append(id) }
        return holders
    }

    @Test(
        "a purchase alice owns, posted by bob, under every restore behaviour, with the subscription active or lapsed at the post's receivedAt",
        arguments: RestoreBehavior.allCases, [false, true])
    func transfersUnderEveryRestoreBehaviour(behavior: RestoreBehavior, lapsedWhenPosted: Bool) async throws {
        let ledger = ledger(LedgerConfiguration(restoreBehavior: behavior))
        let purchase = [Plain.record("t", order: 1, expires: 2_000)]
        #expect(try await ledger.apply(Plain.document(purchase, appUserId: "alice")) == .applied(customers: ["alice"]))
        // The "now" of transferIfNoActiveSubscriptions is the instant the post was received.
        let receivedAt: Int64 = lapsedWhenPosted ? 3_000 : 1_200
        let outcome = try await ledger.apply(Plain.document(purchase, appUserId: "bob", receivedAt: receivedAt))
        let holders = try await holders(ledger, ["alice", "bob"])
        switch (behavior, lapsedWhenPosted) {
        case (.transferToNewAppUserId, _), (.transferIfNoActiveSubscriptions, true):
            #expect(outcome == .applied(customers: ["alice", "bob"]), "a transfer names both customers")
            #expect(holders == ["bob"])
            #expect(try await ledger.customers() == [["alice"], ["bob"]])
        case (.transferIfNoActiveSubscriptions, false), (.keepWithOriginalAppUserId, _):
            #expect(outcome == .receiptInUseByOtherUser(owner: "alice"))
            #expect(holders == ["alice"])
        case (.shareBetweenAppUserIds, _):
            #expect(outcome == .applied(customers: ["alice"]))
            #expect(holders == ["alice", "bob"])
            #expect(try await ledger.customers() == [["alice", "bob"]], "the two customers are merged into the older")
        }
    }

    @Test(
        "an anonymous owner's purchase posted by another id merges the customers", arguments: RestoreBehavior.allCases)
    func anAnonymousOwnerIsMergedWhateverTheBehaviour(behavior: RestoreBehavior) async throws {
        let ledger = ledger(LedgerConfiguration(restoreBehavior: behavior))
        let purchase = [Plain.record("t", order: 1, expires: 2_000)]
        _ = try await ledger.apply(Plain.document(purchase, appUserId: Self.anonymous))
        #expect(
            try await ledger.apply(Plain.document(purchase, appUserId: "bob")) == .applied(customers: [Self.anonymous]))
        #expect(try await ledger.customers() == [[Self.anonymous, "bob"]])
        #expect(try await holders(ledger, [Self.anonymous, "bob"]) == [Self.anonymous, "bob"])
    }

    @Test func aPurchaseNoOneOwnedFollowsTheReceiptToTheOwnerItStaysWith() async throws {
        let ledger = ledger(LedgerConfiguration(restoreBehavior: .keepWithOriginalAppUserId))
        _ = try await ledger.apply(Plain.document([Plain.record("t", order: 1, expires: 2_000)], appUserId: "alice"))
        // Bob's receipt holds alice's purchase and a new one: the receipt stays with alice, the new one too.
        let receipt = [Plain.record("t", order: 1, expires: 2_000), Plain.record("u", order: 2, product: "max")]
        #expect(
            try await ledger.apply(Plain.document(receipt, appUserId: "bob"))
                == .receiptInUseByOtherUser(owner: "alice"))
        #expect(Set(try await ledger.snapshot(for: "alice", at: at).activeEntitlementIds) == ["max", "pro"])
        #expect(try await ledger.snapshot(for: "bob", at: at).entitlements.isEmpty)
    }

    @Test func anIdTheServerRegisteredIsKnownToALaterLogIn() async throws {
        let ledger = ledger()
        #expect(try await ledger.register(appUserId: "bob"))
        #expect(try await ledger.register(appUserId: "bob") == false)
        _ = try await ledger.apply(Plain.document([Plain.record("t", order: 1)], appUserId: Self.anonymous))
        let logIn = try await ledger.logIn(from: Self.anonymous, to: "bob")
        #expect(!logIn.created, "bob was known: the anonymous customer merges into bob's")
        #expect(try await ledger.customers() == [["bob", Self.anonymous]])
    }

    @Test func logInFollowsSeed002InEveryCase() async throws {
        let ledger = ledger()
        let purchase = [Plain.record("t", order: 1, expires: 2_000)]
        _ = try await ledger.apply(Plain.document(purchase, appUserId: Self.anonymous))

        // To the current id: nothing.
        let same = try await ledger.logIn(from: Self.anonymous, to: Self.anonymous)
        #expect(!same.created && same.outcome.name == "noChange")
        // Anonymous to an unknown id: the new id becomes an alias.
        let alias = try await ledger.logIn(from: Self.anonymous, to: "alice")
        #expect(alias.created && alias.outcome == .applied(customers: [Self.anonymous]))
        #expect(try await ledger.customers() == [[Self.anonymous, "alice"]])

        // Anonymous to a known id whose customer has no anonymous id: merged into it.
        _ = try await ledger.apply(Plain.document([Plain.record("u", order: 1)], appUserId: Self.otherAnonymous))
        _ = try await ledger.logIn(from: "bob", to: "bob")
        let merged = try await ledger.logIn(from: Self.otherAnonymous, to: "bob")
        #expect(!merged.created && merged.outcome.name == "applied")
        #expect(try await ledger.customers().contains([Self.otherAnonymous, "bob"]), "merged into the older customer")

        // Anonymous to a known id whose customer already has an anonymous id: no alias, purchases stay.
        let third = "$RCAnonymousID:00000000000000000000000000000003"
        _ = try await ledger.apply(Plain.document([Plain.record("v", order: 1)], appUserId: third))
        let stays = try await ledger.logIn(from: third, to: "alice")
        #expect(!stays.created && stays.outcome.name == "noChange")
        #expect(try await ledger.customers().contains([third]))

        // Identified to an unknown id: no alias; the new id's customer is created.
        let switched = try await ledger.logIn(from: "alice", to: "carol")
        #expect(switched.created && switched.outcome.name == "noChange")
        #expect(try await ledger.customers().contains(["carol"]))
        #expect(try await ledger.snapshot(for: "carol", at: at).entitlements.isEmpty)
        // Identified to a known id: no alias.
        let known = try await ledger.logIn(from: "carol", to: "bob")
        #expect(!known.created && known.outcome.name == "noChange")
    }

    @Test func idsAreComparedByTheirBytes() async throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed, "Swift's String equality would make these one customer")
        let ledger = ledger()
        _ = try await ledger.apply(Plain.document([Plain.record("t", order: 1, expires: 2_000)], appUserId: composed))
        #expect(try await ledger.snapshot(for: decomposed, at: at).isActive("pro") == false)
        let logIn = try await ledger.logIn(from: decomposed, to: composed)
        #expect(!logIn.created, "the composed id is known; the decomposed one is another id")
        #expect(try await ledger.customers() == [[composed], [decomposed]])
    }

    @Test func aRecordsTokenNeverMovesAPurchaseSomeoneOwns() async throws {
        let ledger = ledger()
        _ = try await ledger.apply(Plain.document([Plain.record("t", order: 1, expires: 2_000)], appUserId: "alice"))
        let renewal = Plain.notification(id: "n", [Plain.record("t", order: 2, expires: 2_500, account: "mallory")])
        #expect(try await ledger.apply(renewal) == .applied(customers: ["alice"]))
        _ = try await ledger.link(obfuscatedAccountId: "mallory", to: "mallory")
        #expect(try await holders(ledger, ["alice", "mallory"]) == ["alice"])
        #expect(try await ledger.thread(LedgerThreadID(source: Plain.source, key: "t"))?.records.count == 1)
    }

    @Test func aTokenNamingAnIdNoCustomerHasCreatesThatCustomer() async throws {
        let ledger = ledger()
        let outcome = try await ledger.apply(Plain.notification(id: "n", [Plain.record("t", order: 1, account: "dan")]))
        #expect(outcome == .applied(customers: ["dan"]))
        #expect(try await ledger.customers() == [["dan"]])
    }

    @Test func seenIdsAreKeptThirtyDaysAndPurgedAfterTheRetention() async throws {
        let day: TimeInterval = 86_400
        let short = LedgerConfiguration(seenNotificationRetention: day)
        #expect(short.seenNotificationRetention == 30 * day, "never less than 30 days")
        let ledger = ledger(LedgerConfiguration(seenNotificationRetention: 40 * day))
        let notification = Plain.notification(id: "n", [Plain.record("t", order: 1, account: "al")])
        _ = try await ledger.apply(notification)
        let received = Date(timeIntervalSince1970: 1_000)
        #expect(try await ledger.purgeSeenNotifications(at: received.addingTimeInterval(39 * day)) == 0)
        #expect(try await ledger.apply(notification) == .duplicate)
        #expect(try await ledger.purgeSeenNotifications(at: received.addingTimeInterval(41 * day)) == 1)
        #expect(try await ledger.apply(notification).name == "noChange", "read again, its statement is the one kept")
    }

    @Test func eachEntitlementTakesTheLatestAccessAcrossSources() async throws {
        let web = LedgerSourceID(rawValue: "web")
        let ledger = ledger(sources: [PlainSource(), PlainSource(id: web)])
        func post(_ source: LedgerSourceID, _ record: JSONValue) async throws {
            let body = JSONValue.object(["records": .array([record]), "environment": .string("production")])
            _ = try await ledger.apply(
                LedgerDocument(
                    source: source, body: Data(body.compactText.utf8), appUserId: "alice",
                    receivedAt: Date(timeIntervalSince1970: 1_000)))
        }
        try await post(Plain.source, Plain.record("a", order: 10, product: "pro", expires: 1_200))
        try await post(web, Plain.record("b", order: 30, product: "pro", expires: 2_000))
        try await post(Plain.source, Plain.record("c", order: 20, product: "max", expires: 2_000))
        try await post(web, Plain.record("d", order: 15, product: "max"))
        let snapshot = try await ledger.snapshot(for: "alice", at: at)
        #expect(snapshot["pro"]?.isActive == true, "active (web) beats inactive (plain)")
        #expect(snapshot["pro"]?.expirationDate == Date(timeIntervalSince1970: 2_000))
        #expect(snapshot["max"]?.isActive == true)
        #expect(snapshot["max"]?.expirationDate == nil, "no expiry beats any")
        #expect(snapshot.requestDate == Date(timeIntervalSince1970: 30), "the newest record instant")
        #expect(snapshot.verification == .notRequested, "no record behind it was verified")
        #expect(snapshot.appUserId == "alice" && snapshot.provider == .ledger)
        #expect(
            snapshot["pro"]?.transactions.map(\.transactionId) == ["a", "b"],
            "every source's transactions of the entitlement, oldest first, not only the winner's")
        #expect(snapshot["max"]?.transactions.map(\.transactionId) == ["d", "c"])
    }

    @Test func verifiedOnlyWhenEveryRecordBehindItIs() async throws {
        let ledger = ledger()
        _ = try await ledger.apply(
            Plain.document([Plain.record("a", order: 1, expires: 2_000, verified: true)], appUserId: "alice"))
        #expect(try await ledger.snapshot(for: "alice", at: at).verification == .verified)
        _ = try await ledger.apply(Plain.document([Plain.record("b", order: 2, product: "max")], appUserId: "alice"))
        #expect(try await ledger.snapshot(for: "alice", at: at).verification == .notRequested)
    }

    @Test func anUnknownIdHasAnEmptySnapshot() async throws {
        let ledger = ledger()
        _ = try await ledger.apply(Plain.document([Plain.record("a", order: 1, expires: 2_000)], appUserId: "alice"))
        let snapshot = try await ledger.snapshot(for: "nobody", at: at)
        #expect(snapshot.entitlements.isEmpty && snapshot.requestDate == nil && snapshot.appUserId == "nobody")
        #expect(try await ledger.customers() == [["alice"]], "asking creates no customer")
    }

    @Test func aRefusedInputStoresNothingNotEvenItsId() async throws {
        let ledger = ledger()
        let malformed = LedgerNotification(
            source: Plain.source, body: Data(#"{"id":"n","records":[{"thread":1}]}"#.utf8),
            receivedAt: Date(timeIntervalSince1970: 1_000))
        await #expect(throws: LedgerRefusal.self) { try await ledger.apply(malformed) }
        #expect(try await ledger.customers().isEmpty)
        let good = Plain.notification(id: "n", [Plain.record("t", order: 1, account: "al")])
        #expect(try await ledger.apply(good) == .applied(customers: ["al"]))
    }
}

/// Every input is one store transaction: a body that throws keeps none of its writes, in both stores.
@Suite("Ledger stores: a failed transaction keeps nothing", .timeLimit(.minutes(1)))
struct LedgerStoreTransactionTests {
    static func failedWriteKeepsNothing(_ store: any LedgerStore) async throws {
        do {
            try await store.transaction { transaction throws(LedgerRefusal) in
                try await transaction.setValue(Data("1".utf8), in: .counters, key: "next")
                throw LedgerRefusal(.malformedBody, "refused half-way")
            }
            Issue.record("the transaction did not throw")
        } catch {
            #expect(error.kind == .malformedBody)
        }
        let kept = try await store.transaction { transaction throws(LedgerRefusal) in
            try await transaction.value(in: .counters, key: "next")
        }
        #expect(kept == nil)
    }

    @Test func inMemory() async throws {
        try await Self.failedWriteKeepsNothing(InMemoryLedgerStore())
    }

    @Test func inADirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("LedgerTx-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.failedWriteKeepsNothing(try DirectoryLedgerStore(directory: directory))
    }
}
