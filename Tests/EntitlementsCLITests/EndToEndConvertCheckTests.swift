import Foundation
import Testing

/// `convert` and `check` against hand-written golden output.
@Suite("entitlements convert and check", .timeLimit(.minutes(5)))
struct EndToEndConvertCheckTests {
    typealias Tool = EntitlementsTool

    /// A unified snapshot written by hand: one renewing-but-cancelled subscription, one lifetime
    /// purchase, one lapsed beta grant with nothing known about it.
    static let unifiedZoe = """
        {
          "schemaVersion": 1, "provider": "revenuecat", "appUserId": "zoe", "originalAppUserId": "zoe",
          "requestDate": "2025-06-01T00:00:00Z", "evaluatedAt": "2025-06-01T00:00:00Z", "firstSeen": null,
          "managementUrl": null, "originalApplicationVersion": null, "originalPurchaseDate": null,
          "activeEntitlementIds": ["lifetime", "pro"], "nonSubscriptionTransactions": [],
          "entitlements": {
            "pro": {"id": "pro", "isActive": true, "productId": "pro_monthly", "productPlanId": "monthly-base",
              "renewState": "cancelled", "willRenew": false, "periodType": "normal", "store": "playStore",
              "storeRaw": "play_store", "isSandbox": false, "grantType": "purchase", "ownershipType": "purchased",
              "originalPurchaseDate": null, "firstPurchaseDate": null, "latestPurchaseDate": null, "trialStartDate": null,
              "expirationDate": "2025-07-01T00:00:00Z", "gracePeriodExpirationDate": null,
              "unsubscribeDetectedAt": "2025-05-20T10:00:00.250Z", "billingIssueDetectedAt": null, "refundedAt": null,
              "renewsCount": null, "lastActivatedOfferCode": null, "transactions": []},
            "lifetime": {"id": "lifetime", "isActive": true, "productId": "lifetime_unlock", "productPlanId": null,
              "renewState": "nonRenewable", "willRenew": false, "periodType": "normal", "store": "appStore",
              "storeRaw": "app_store", "isSandbox": false, "grantType": "purchase", "ownershipType": "purchased",
              "originalPurchaseDate": null, "firstPurchaseDate": null, "latestPurchaseDate": null, "trialStartDate": null,
              "expirationDate": null, "gracePeriodExpirationDate": null, "unsubscribeDetectedAt": null,
              "billingIssueDetectedAt": null, "refundedAt": null, "renewsCount": null, "lastActivatedOfferCode": null,
              "transactions": []},
            "beta": {"id": "beta", "isActive": false, "productId": null, "productPlanId": null,
              "renewState": "unknown", "willRenew": false, "periodType": "unknown", "store": "unknown",
              "storeRaw": null, "isSandbox": false, "grantType": "manual", "ownershipType": "unknown",
              "originalPurchaseDate": null, "firstPurchaseDate": null, "latestPurchaseDate": null, "trialStartDate": null,
              "expirationDate": "2025-05-01T00:00:00Z", "gracePeriodExpirationDate": null, "unsubscribeDetectedAt": null,
              "billingIssueDetectedAt": null, "refundedAt": null, "renewsCount": null, "lastActivatedOfferCode": null,
              "transactions": []}
          }
        }
        """

    // MARK: convert

    @Test func convertPrintsTheCanonicalSnapshotOfAQonversionResponse() async throws {
        let result = try await Tool.run([
            "convert", "--at", "2025-06-15T00:00:00Z", Tool.crossProvider("heidi.qonversion.json"),
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                {
                  "activeEntitlementIds": [
                    "premium"
                  ],
                  "appUserId": "QON_he1d1000000000000000000000000008",
                  "entitlements": {
                    "premium": {
                      "billingIssueDetectedAt": null,
                      "cancellationReason": null,
                      "cancellationReasonRaw": null,
                      "denial": null,
                      "expirationDate": "2025-07-11T11:00:00Z",
                      "firstPurchaseDate": "2025-05-11T11:00:00Z",
                      "gracePeriodExpirationDate": null,
                      "grantType": "purchase",
                      "id": "premium",
                      "isActive": true,
                      "isSandbox": false,
                      "lastActivatedOfferCode": null,
                      "latestPurchaseDate": "2025-06-11T11:00:00Z",
                      "originalPurchaseDate": "2025-05-11T11:00:00Z",
                      "ownershipType": "purchased",
                      "periodType": "unknown",
                      "productId": "premium_monthly",
                      "productPlanId": null,
                      "refundedAt": null,
                      "renewState": "willRenew",
                      "renewsCount": 0,
                      "store": "appStore",
                      "storeRaw": "appstore",
                      "transactions": [
                        {
                          "environment": "production",
                          "expirationDate": "2025-07-11T11:00:00Z",
                          "offerCode": null,
                          "originalTransactionId": "2000000800000001",
                          "ownershipType": "purchased",
                          "productId": null,
                          "revocationDate": null,
                          "store": "unknown",
                          "transactionDate": "2025-06-11T11:00:00Z",
                          "transactionId": "2000000800000002",
                          "type": "subscriptionRenewed"
                        }
                      ],
                      "trialStartDate": null,
                      "unsubscribeDetectedAt": null,
                      "willRenew": true
                    }
                  },
                  "evaluatedAt": "2025-06-15T00:00:00Z",
                  "firstSeen": null,
                  "managementUrl": null,
                  "nonSubscriptionTransactions": [],
                  "originalAppUserId": null,
                  "originalApplicationVersion": null,
                  "originalPurchaseDate": null,
                  "provider": "qonversion",
                  "requestDate": "2025-06-14T23:59:58Z",
                  "schemaVersion": 3,
                  "verification": "notRequested"
                }

                """)
    }

    @Test func convertPrintsTheCanonicalSnapshotOfARevenueCatResponse() async throws {
        let result = try await Tool.run([
            "convert", "--at", "2025-06-15T00:00:00Z", Tool.crossProvider("carol.revenuecat.json"),
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                {
                  "activeEntitlementIds": [
                    "premium"
                  ],
                  "appUserId": "carol",
                  "entitlements": {
                    "premium": {
                      "billingIssueDetectedAt": null,
                      "cancellationReason": null,
                      "cancellationReasonRaw": null,
                      "denial": null,
                      "expirationDate": "2025-07-05T08:00:00Z",
                      "firstPurchaseDate": null,
                      "gracePeriodExpirationDate": null,
                      "grantType": "purchase",
                      "id": "premium",
                      "isActive": true,
                      "isSandbox": false,
                      "lastActivatedOfferCode": null,
                      "latestPurchaseDate": "2025-06-05T08:00:00Z",
                      "originalPurchaseDate": "2025-05-05T08:00:00Z",
                      "ownershipType": "purchased",
                      "periodType": "normal",
                      "productId": "premium_monthly",
                      "productPlanId": null,
                      "refundedAt": null,
                      "renewState": "willRenew",
                      "renewsCount": null,
                      "store": "appStore",
                      "storeRaw": "app_store",
                      "transactions": [
                        {
                          "environment": "production",
                          "expirationDate": "2025-07-05T08:00:00Z",
                          "offerCode": null,
                          "originalTransactionId": null,
                          "ownershipType": "purchased",
                          "productId": "premium_monthly",
                          "revocationDate": null,
                          "store": "appStore",
                          "transactionDate": "2025-06-05T08:00:00Z",
                          "transactionId": "2000000300000002",
                          "type": "subscriptionRenewed"
                        }
                      ],
                      "trialStartDate": null,
                      "unsubscribeDetectedAt": null,
                      "willRenew": true
                    }
                  },
                  "evaluatedAt": "2025-06-15T00:00:00Z",
                  "firstSeen": "2025-01-05T10:00:00Z",
                  "managementUrl": null,
                  "nonSubscriptionTransactions": [],
                  "originalAppUserId": "carol",
                  "originalApplicationVersion": null,
                  "originalPurchaseDate": null,
                  "provider": "revenuecat",
                  "requestDate": "2025-06-14T23:59:58Z",
                  "schemaVersion": 3,
                  "verification": "notRequested"
                }

                """)
    }

    @Test func checkPrintsARevenueCatCustomersActiveAndLapsedEntitlements() async throws {
        let result = try await Tool.run([
            "check", "--at", "2025-06-15T00:00:00Z", Tool.crossProvider("heidi.revenuecat.json"), "premium",
        ])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                ID       ACTIVE  RENEW STATE  EXPIRES               STORE      PRODUCT          WHY
                premium  yes     willRenew    2025-07-11T11:00:00Z  playStore  premium_monthly  until 2025-07-11T11:00:00Z

                """)
        let all = try await Tool.run([
            "check", "--at", "2025-06-15T00:00:00Z", Tool.crossProvider("heidi.revenuecat.json"), "premium", "pro",
        ])
        #expect(all.status == 1)
        #expect(
            all.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                ID       ACTIVE  RENEW STATE  EXPIRES               STORE      PRODUCT          WHY
                premium  yes     willRenew    2025-07-11T11:00:00Z  playStore  premium_monthly  until 2025-07-11T11:00:00Z
                pro      no      cancelled    2024-12-01T00:00:00Z  playStore  pro_monthly      expired 2024-12-01T00:00:00Z

                """)
    }

    @Test func convertCompactReadsStandardInputAndReEvaluatesAUnifiedSnapshot() async throws {
        let document = """
            {"schemaVersion": 1, "provider": "qonversion", "appUserId": "yan", "originalAppUserId": null,
             "requestDate": null, "evaluatedAt": "2025-06-01T00:00:00Z", "firstSeen": null, "managementUrl": null,
             "originalApplicationVersion": null, "originalPurchaseDate": null, "activeEntitlementIds": ["plus"],
             "nonSubscriptionTransactions": [], "entitlements": {"plus": {"id": "plus", "isActive": true,
             "productId": "plus_weekly", "productPlanId": null, "renewState": "willRenew", "willRenew": true,
             "periodType": "trial", "store": "stripe", "storeRaw": "stripe", "isSandbox": true, "grantType": "purchase",
             "ownershipType": "purchased", "originalPurchaseDate": null, "firstPurchaseDate": null,
             "latestPurchaseDate": null, "trialStartDate": "2025-05-30T00:00:00Z", "expirationDate": "2025-06-06T00:00:00Z",
             "gracePeriodExpirationDate": null, "unsubscribeDetectedAt": null, "billingIssueDetectedAt": null,
             "refundedAt": null, "renewsCount": null, "lastActivatedOfferCode": null, "transactions": []}}}
            """
        let result = try await Tool.run(
            ["convert", "--compact", "--at", "2025-06-06T00:00:00.001Z", "-"], stdin: Data(document.utf8))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        // One millisecond after the expiry instant, access has ended.
        #expect(
            result.stdout
                == #"{"activeEntitlementIds":[],"appUserId":"yan","entitlements":{"plus":{"billingIssueDetectedAt":null,"#
                + #""cancellationReason":null,"cancellationReasonRaw":null,"denial":null,"#
                + #""expirationDate":"2025-06-06T00:00:00Z","firstPurchaseDate":null,"gracePeriodExpirationDate":null,"grantType":"purchase","#
                + #""id":"plus","isActive":false,"isSandbox":true,"lastActivatedOfferCode":null,"latestPurchaseDate":null,"#
                + #""originalPurchaseDate":null,"ownershipType":"purchased","periodType":"trial","productId":"plus_weekly","#
                + #""productPlanId":null,"refundedAt":null,"renewState":"willRenew","renewsCount":null,"store":"stripe","#
                + #""storeRaw":"stripe","transactions":[],"trialStartDate":"2025-05-30T00:00:00Z","unsubscribeDetectedAt":null,"#
                + #""willRenew":true}},"evaluatedAt":"2025-06-06T00:00:00.001Z","firstSeen":null,"managementUrl":null,"#
                + #""nonSubscriptionTransactions":[],"originalAppUserId":null,"originalApplicationVersion":null,"#
                + #""originalPurchaseDate":null,"provider":"qonversion","requestDate":null,"schemaVersion":3,"#
                + #""verification":"notRequested"}"# + "\n")
    }

    // MARK: check

    @Test func checkPrintsOneRowPerEntitlementSortedById() async throws {
        let result = try await Tool.run(
            ["check", "--at", "2025-06-15T00:00:00Z", "-"], stdin: Data(Self.unifiedZoe.utf8))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                ID        ACTIVE  RENEW STATE   EXPIRES               STORE      PRODUCT          WHY
                beta      no      unknown       2025-05-01T00:00:00Z  unknown    -                expired 2025-05-01T00:00:00Z
                lifetime  yes     nonRenewable  never                 appStore   lifetime_unlock  lifetime
                pro       yes     cancelled     2025-07-01T00:00:00Z  playStore  pro_monthly      until 2025-07-01T00:00:00Z

                """)
    }

    @Test func checkWithIdsListsThemInOrderAndExitsByWhetherAllAreActive() async throws {
        let stdin = Data(Self.unifiedZoe.utf8)
        let bothActive = try await Tool.run(
            ["check", "--at", "2025-06-15T00:00:00Z", "-", "pro", "lifetime"], stdin: stdin)
        #expect(bothActive.status == 0)
        #expect(
            bothActive.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                ID        ACTIVE  RENEW STATE   EXPIRES               STORE      PRODUCT          WHY
                pro       yes     cancelled     2025-07-01T00:00:00Z  playStore  pro_monthly      until 2025-07-01T00:00:00Z
                lifetime  yes     nonRenewable  never                 appStore   lifetime_unlock  lifetime

                """)

        // At the expiry instant access still holds; one second later it does not.
        #expect(try await Tool.run(["check", "--at", "2025-07-01T00:00:00Z", "-", "pro"], stdin: stdin).status == 0)
        let lapsed = try await Tool.run(
            ["check", "--at", "2025-07-01T00:00:01Z", "-", "pro", "lifetime"], stdin: stdin)
        #expect(lapsed.status == 1)
        #expect(lapsed.stderr.isEmpty)

        let absent = try await Tool.run(
            ["check", "--at", "2025-06-15T00:00:00Z", "-", "gold", "lifetime", "gold"], stdin: stdin)
        #expect(absent.status == 1)
        #expect(
            absent.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                ID        ACTIVE  RENEW STATE   EXPIRES  STORE     PRODUCT          WHY
                gold      no      -             -        -         -                not listed
                lifetime  yes     nonRenewable  never    appStore  lifetime_unlock  lifetime

                """)
    }

    @Test func checkOfACustomerWithoutEntitlementsSaysSo() async throws {
        let empty = #"{"success": true, "data": {"uid": "QON_x", "timestamp": 1749945600, "permissions": []}}"#
        let result = try await Tool.run(["check", "--from", "qonversion", "-"], stdin: Data(empty.utf8))
        #expect(result.status == 0)
        // Without --at the tool judges at its clock's now and says so on the first line.
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("evaluated at ") == true)
        #expect(lines.first?.hasSuffix(" (now)") == true)
        #expect(
            lines.dropFirst().joined(separator: "\n")
                == "ID  ACTIVE  RENEW STATE  EXPIRES  STORE  PRODUCT  WHY\n(no entitlements)\n")
    }

    // MARK: bad documents

    @Test func aBadDocumentIsOneStderrLineNamingFilePathValueAndReasonWithNothingOnStdout() async throws {
        let broken = Self.unifiedZoe.replacingOccurrences(of: #""2025-07-01T00:00:00Z""#, with: #""next tuesday""#)
        let (file, directory) = try Tool.temporaryFile(named: "zoe.json", contents: broken)
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in [["convert"], ["check"], ["convert", "--compact", "--from", "unified"]] {
            let result = try await Tool.run(command + [file.path])
            #expect(result.status == 65)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderrLines == [
                    #"error: \#(file.path): entitlements.pro.expirationDate: "next tuesday" is not an ISO 8601 date"#
                ])
        }
    }

    @Test func aVendorDocumentThatFailsNamesTheVendorPath() async throws {
        let result = try await Tool.run(["convert", "Fixtures/qonversion/active-wrong-type.json"])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines == [
                #"error: Fixtures/qonversion/active-wrong-type.json: data.permissions[0].active: "1" must be 0 or 1 or a boolean, not a string"#
            ])
    }

    @Test func aDocumentOfNoKnownFormatSaysSo() async throws {
        let result = try await Tool.run(["check", "-"], stdin: Data(#"{"customer": {"id": 7}}"#.utf8))
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines == [
                "error: <stdin>: $: is not a document of any known format (revenuecat, qonversion, adapty, appstore, googleplay, stripe, unified)"
            ])
    }

    @Test func aTruncatedDocumentNamesTheLine() async throws {
        let result = try await Tool.run(
            ["convert", "-"], stdin: Data("{\n  \"schemaVersion\": 1,\n  \"provider\": \"revenue".utf8))
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        // The document's own line goes after the reason: `line N:` is reserved for JSON Lines records.
        #expect(result.stderrLines.first == "error: <stdin>: provider: the document ends inside a string (line 3)")
    }

    @Test func theNamedFormatWinsOverDetection() async throws {
        let result = try await Tool.run(["convert", "--from", "qonversion", "-"], stdin: Data(Self.unifiedZoe.utf8))
        #expect(result.status == 65)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.hasPrefix("error: <stdin>: ") == true)
    }
}
