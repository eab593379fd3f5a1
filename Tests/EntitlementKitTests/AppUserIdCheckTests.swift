import EntitlementKit
import Testing

@Suite("AppUserIdCheck: usable app user ids", .timeLimit(.minutes(5)))
struct AppUserIdCheckTests {
    @Test(arguments: [
        "alice", "user_123", "5f1c6a0e-2b7d-4c1e-9a53-3e2c1d0b9f77", "QON_test_uid_42",
        String(repeating: "a", count: 100), "Ålesund-7", "0x",
    ])
    func ordinaryIdsAreUsable(id: String) {
        let check = AppUserIdCheck(id)
        #expect(check.isUsable)
        #expect(check.anonymousForm == nil)
    }

    @Test(arguments: AppUserIdCheck.blockList)
    func everyBlockListedPlaceholderIsRefused(id: String) {
        let check = AppUserIdCheck(id)
        #expect(!check.isUsable)
        #expect(check.findings.first?.message == "is a placeholder value on RevenueCat's block-list of app user ids")
    }

    @Test func theBlockListIsRevenueCatsDocumentedList() {
        #expect(
            AppUserIdCheck.blockList == [
                "no_user", "null", "none", "nil", "(null)", "NaN", #"\x00"#, "''", "unidentified", "undefined",
                "unknown",
                "anonymous", "guest", "-1", "0", "[]", "{}", "[object Object]",
            ])
    }

    @Test(arguments: ["NULL", "Undefined", "nan", "GUEST", "[Object object]"])
    func placeholdersDifferingOnlyInCaseAreRefused(id: String) {
        let check = AppUserIdCheck(id)
        #expect(!check.isUsable)
        #expect(check.findings.first?.message.hasPrefix("matches the block-listed placeholder") == true)
    }

    @Test(arguments: [
        ("", "is empty"),
        ("   ", "is only whitespace"),
        ("\t\n", "is only whitespace"),
        ("team/alice", "contains \"/\", which RevenueCat refuses in app user ids"),
        ("a\u{0}b", "contains a NUL character, which RevenueCat's block-list refuses"),
        (String(repeating: "é", count: 101), "is 101 characters long; RevenueCat accepts at most 100"),
    ])
    func structurallyBadIdsAreRefusedWithTheReason(id: String, reason: String) {
        let check = AppUserIdCheck(id)
        #expect(!check.isUsable)
        #expect(check.findings.map(\.message) == [reason])
    }

    @Test func anonymousFormsAreRecognisedAndRefused() {
        let revenueCat = AppUserIdCheck("$RCAnonymousID:0123456789abcdef0123456789abcdef")
        #expect(revenueCat.anonymousForm == .revenueCat)
        #expect(!revenueCat.isUsable)
        let qonversion = AppUserIdCheck("QON_0123456789abcdef0123456789abcdef")
        #expect(qonversion.anonymousForm == .qonversion)
        #expect(!qonversion.isUsable)
        // Uppercase hex is not what the SDKs generate.
        #expect(AppUserIdCheck("QON_0123456789ABCDEF0123456789ABCDEF").anonymousForm == nil)
    }

    @Test func revenueCatsUnanchoredAnonymousCheckIsCoveredToo() {
        // iOS matches `\$RCAnonymousID:([a-z0-9]{32})$` anywhere, with letters beyond hex.
        let suffixed = AppUserIdCheck("legacy-$RCAnonymousID:zzzz456789abcdef0123456789abcdef")
        #expect(suffixed.anonymousForm == nil)
        #expect(!suffixed.isUsable)
        #expect(!AppUserIdCheck("$RCAnonymousID:short").isUsable)
    }

    @Test func surroundingWhitespaceIsOnlyAWarning() {
        let check = AppUserIdCheck(" alice ")
        #expect(check.isUsable)
        #expect(check.findings.map(\.isBlocking) == [false])
        #expect(check.findings.first?.description.hasPrefix("warning: has leading or trailing whitespace") == true)
    }

    @Test func everyProblemIsListed() {
        let check = AppUserIdCheck(" a/" + String(repeating: "b", count: 100))
        #expect(check.findings.map(\.isBlocking) == [true, true, false])
    }

    @Test func aSlashIsFoundByItsByteEvenUnderACombiningMark() {
        // "/" followed by U+0301 is one Character that is not "/": only the bytes show the slash.
        for id in ["a/b", "a/\u{301}b", "/\u{301}"] {
            let check = AppUserIdCheck(id)
            #expect(check.findings.contains { $0.description.contains("contains \"/\"") }, "\(id.debugDescription)")
            #expect(!check.isUsable, "\(id.debugDescription)")
        }
    }
}
