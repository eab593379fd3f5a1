import EntitlementKit
import EntitlementKitLedger
import Foundation

/// The backfill figure (part of `--import`): customers per second for `entitlements ledger backfill` — run as
/// a child process, as a team runs it — on the plan the import figure made of its 50,000-customer export,
/// into a fresh directory state.
///
/// Documents, as a team's tooling would have fetched them: each Play purchase (its order id turned into a
/// purchase token, as Google's Orders API would) has a `subscriptionsv2` response, each Stripe subscription
/// its subscription object. App Store purchases are assigned with the purchase-id link only: their documents
/// must be signed, and the bench holds no signing key (the ledger figure times App Store verification).
enum ImportBackfillBench {
    /// The row of the import table, or `nil` (with a note on standard error) when the release build's
    /// `entitlements` is not beside the bench.
    static func report(plan: [ImportPlanCustomer]) throws -> String? {
        let bench = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let tool = bench.deletingLastPathComponent().appendingPathComponent("entitlements")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            FileHandle.standardError.write(
                Data("backfill: no entitlements beside \(bench.path) (swift build -c release first)\n".utf8))
            return nil
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("backfill-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let documents = scratch.appendingPathComponent("documents")
        let (planFile, withDocuments, linkOnly) = try write(plan, into: scratch, documents: documents)

        let process = Process()
        process.executableURL = tool
        process.arguments = [
            "ledger", "backfill", "--plan", planFile.path, "--documents", documents.path, "--state",
            scratch.appendingPathComponent("state").path, "--bundle-id", "com.acme.trails", "--package-name",
            "com.acme.trails", "--outcomes", scratch.appendingPathComponent("outcomes.jsonl").path, "--at",
            "2025-06-01T00:00:00Z",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let cpuBefore = childrenCPUSeconds()
        let wall = DispatchTime.now().uptimeNanoseconds
        try process.run()
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9
        let cpu = childrenCPUSeconds() - cpuBefore
        precondition(process.terminationStatus == 0, "the backfill refused a purchase of the generated plan")
        return "| `ledger backfill` of that plan into a directory state: \(plan.count) customers, "
            + "\(withDocuments) purchases with a document (Play, Stripe), \(linkOnly) link only (App Store) | "
            + "\(String(format: "%.0f", Double(plan.count) / seconds)) customers/s wall, "
            + "\(String(format: "%.0f", Double(plan.count) / cpu)) per CPU-second | 1 |"
    }

    /// User and system seconds of the children waited for so far.
    private static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Writes the plan (Play order ids made tokens) and the documents; the plan's file and the purchases with
    /// and without a document.
    private static func write(_ plan: [ImportPlanCustomer], into scratch: URL, documents: URL) throws
        -> (URL, Int, Int)
    {
        for store in ["googlePlay", "stripe"] {
            try FileManager.default.createDirectory(
                at: documents.appendingPathComponent(store), withIntermediateDirectories: true)
        }
        let planFile = scratch.appendingPathComponent("plan.jsonl")
        _ = FileManager.default.createFile(atPath: planFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: planFile)
        defer { try? handle.close() }
        var text = ""
        var withDocuments = 0
        var linkOnly = 0
        for var customer in plan {
            for index in customer.purchases.indices {
                let purchase = customer.purchases[index]
                let product = purchase.productId ?? "pro_monthly"
                switch purchase.reference {
                case .googlePlayOrder(let orderId):
                    let token = "token." + orderId.dropFirst(4)
                    customer.purchases[index].reference = .googlePlay(purchaseToken: token)
                    try Data(playDocument(orderId: orderId, product: product).utf8).write(
                        to: documents.appendingPathComponent("googlePlay/\(token).json"))
                    withDocuments += 1
                case .stripeSubscription(let id):
                    try Data(stripeSubscription(id, product: product).utf8).write(
                        to: documents.appendingPathComponent("stripe/\(id).json"))
                    withDocuments += 1
                default:
                    linkOnly += 1
                }
            }
            text += customer.jsonLine + "\n"
            if text.utf8.count > 1 << 20 {
                handle.write(Data(text.utf8))
                text = ""
            }
        }
        handle.write(Data(text.utf8))
        return (planFile, withDocuments, linkOnly)
    }

    private static func playDocument(orderId: String, product: String) -> String {
        #"{"kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "DE", "startTime": "2025-05-01T08:30:00Z", "subscriptionState": "SUBSCRIPTION_STATE_ACTIVE", "latestOrderId": "\#(orderId)", "acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED", "lineItems": [{"productId": "\#(product)", "expiryTime": "2025-07-01T08:30:00Z", "autoRenewingPlan": {"autoRenewEnabled": true}, "offerDetails": {"basePlanId": "monthly"}}]}"#
    }

    private static func stripeSubscription(_ id: String, product: String) -> String {
        #"{"id": "\#(id)", "object": "subscription", "status": "active", "created": 1746000000, "start_date": 1746000000, "livemode": true, "customer": "cus_\#(id)", "metadata": {}, "latest_invoice": "in_\#(id)", "cancel_at": null, "cancel_at_period_end": false, "canceled_at": null, "ended_at": null, "trial_start": null, "trial_end": null, "pause_collection": null, "cancellation_details": {"comment": null, "feedback": null, "reason": null}, "collection_method": "charge_automatically", "currency": "usd", "items": {"object": "list", "data": [{"id": "si_\#(id)", "object": "subscription_item", "quantity": 1, "price": {"id": "price_\#(product)", "object": "price", "active": true, "currency": "usd", "lookup_key": null, "product": "\#(product)", "type": "recurring", "unit_amount": 999, "recurring": {"interval": "month", "interval_count": 1, "usage_type": "licensed"}}, "current_period_start": 1748736000, "current_period_end": 1751328000}], "has_more": false, "url": "/v1/subscription_items?subscription=\#(id)"}}"#
    }
}
