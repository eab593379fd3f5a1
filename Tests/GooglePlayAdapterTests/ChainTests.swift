import EntitlementKit
import EntitlementKitGooglePlay
import Foundation
import TestSupport
import Testing

/// Purchases chained by `linkedPurchaseToken` share the first token as their original transaction id, and
/// the latest by `startTime` decides.
@Suite("Google Play purchase chains", .timeLimit(.minutes(5)))
struct ChainTests {
    @Test("every purchase of a chain carries the first token as its original transaction id")
    func firstTokenIsOriginal() throws {
        let document = listing(subscriptions: [
            ("tok-c", subscription(start: "2025-08-01T00:00:00Z", extra: ["linkedPurchaseToken": "tok-b"])),
            ("tok-a", subscription("EXPIRED", start: "2025-02-01T00:00:00Z")),
            ("tok-b", subscription("EXPIRED", start: "2025-05-01T00:00:00Z", extra: ["linkedPurchaseToken": "tok-a"])),
        ])
        let entitlement = try #require(try playSnapshot(document)["acme_pro"])
        #expect(entitlement.transactions.map(\.originalTransactionId) == ["tok-a", "tok-a", "tok-a"])
        #expect(entitlement.originalPurchaseDate == instant("2025-02-01T00:00:00Z"))
        #expect(entitlement.latestPurchaseDate == instant("2025-08-01T00:00:00Z"))
    }

    @Test("a linked token whose purchase is not listed is the chain's first token")
    func missingOldestPurchase() throws {
        let bare = subscription(extra: ["linkedPurchaseToken": "tok-before"])
        #expect(try playSnapshot(bare)["acme_pro"]?.transactions.first?.originalTransactionId == "tok-before")
        let unlinked = try playSnapshot(subscription())
        #expect(unlinked["acme_pro"]?.transactions.first?.originalTransactionId == nil)
    }

    @Test("the latest by startTime decides, even against a later expiry; the listing's order does not matter")
    func latestStartWins() throws {
        let old = subscription(start: "2025-05-01T00:00:00Z", items: [lineItem(expiry: "2025-12-01T00:00:00Z")])
        let new = subscription(
            start: "2025-08-01T00:00:00Z", items: [lineItem(expiry: "2025-09-20T00:00:00Z", autoRenew: false)],
            extra: ["linkedPurchaseToken": "tok-old"])
        for order in [[("tok-old", old), ("tok-new", new)], [("tok-new", new), ("tok-old", old)]] {
            let entitlement = try #require(try playSnapshot(listing(subscriptions: order))["acme_pro"])
            #expect(entitlement.expirationDate == instant("2025-09-20T00:00:00Z"))
            #expect(entitlement.renewState == .cancelled)
            #expect(entitlement.isActive)
            #expect(entitlement.transactions.count == 2)
        }
    }

    @Test("a replaced purchase grants nothing, even for a product the newer one does not have")
    func replacedPurchaseGrantsNothing() throws {
        let document = listing(subscriptions: [
            ("tok-basic", subscription(start: "2025-03-01T00:00:00Z", items: [lineItem(product: "acme_basic")])),
            (
                "tok-pro",
                subscription(
                    start: "2025-08-01T00:00:00Z", items: [lineItem(product: "acme_pro")],
                    extra: ["linkedPurchaseToken": "tok-basic"])
            ),
        ])
        let snapshot = try playSnapshot(document)
        #expect(snapshot.activeEntitlementIds == ["acme_pro"])
        #expect(snapshot["acme_basic"]?.isActive == false)
        #expect(snapshot["acme_basic"]?.transactions.first?.originalTransactionId == "tok-basic")
    }

    @Test("a pending upgrade (no startTime yet) does not take access from the subscription it would replace")
    func pendingUpgradeDoesNotWin() throws {
        let document = listing(subscriptions: [
            ("tok-old", subscription(start: "2025-06-01T00:00:00Z")),
            (
                "tok-pending",
                subscription(
                    "PENDING", start: nil, items: [lineItem(expiry: nil, order: nil)],
                    extra: ["linkedPurchaseToken": "tok-old"])
            ),
        ])
        #expect(try playSnapshot(document).isActive("acme_pro"))
    }

    @Test("links that loop, or a purchase linked to itself, are refused")
    func loopsAreRefused() throws {
        let loop = listing(subscriptions: [
            ("tok-1", subscription(extra: ["linkedPurchaseToken": "tok-2"])),
            ("tok-2", subscription(extra: ["linkedPurchaseToken": "tok-1"])),
        ])
        let error = try #require(playFailure(loop))
        #expect(error.kind == .inconsistent)
        #expect(error.path.description == "subscriptions[0].purchase.linkedPurchaseToken")

        let selfLink = listing(subscriptions: [("tok-1", subscription(extra: ["linkedPurchaseToken": "tok-1"]))])
        #expect(playFailure(selfLink)?.path.description == "subscriptions[0].purchase.linkedPurchaseToken")
    }

    @Test("a token listed twice counts once when the purchase is the same, and is refused when it is not")
    func duplicateTokens() throws {
        let same = listing(subscriptions: [("tok-1", subscription()), ("tok-1", subscription())])
        #expect(try playSnapshot(same)["acme_pro"]?.transactions.count == 1)
        let different = listing(subscriptions: [
            ("tok-1", subscription()), ("tok-1", subscription("EXPIRED")),
        ])
        #expect(playFailure(different)?.kind == .inconsistent)
        #expect(playFailure(different)?.path.description == "subscriptions[1].purchaseToken")
    }
}
