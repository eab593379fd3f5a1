import EntitlementKit
import Foundation
import Testing

@Suite("The DocC article's example", .timeLimit(.minutes(5)))
struct ArticleExampleTests {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("the article's example is ArticleExample.swift verbatim, so it compiles with the tests")
    func exampleIsCompiled() throws {
        let article = try String(
            contentsOf: Self.repositoryRoot.appendingPathComponent(
                "Sources/EntitlementKit/Documentation.docc/CheckingEntitlementsInAnApp.md"),
            encoding: .utf8)
        let example = try String(
            contentsOf: Self.repositoryRoot.appendingPathComponent(
                "Tests/EntitlementKitClientTests/ArticleExample.swift"),
            encoding: .utf8)
        #expect(article.contains("```swift\n" + example + "```\n"))
    }

    @Test("the article's example does what its comments say")
    func exampleWorks() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let backend = TestProvider(time: TestTime(start: Date()))  // the example uses the system clocks
        let app = try await Entitlements(provider: backend, directory: temporary.cache)
        #expect(await app.mayShowPremium() == false)

        let receipt = StoreReceipt(store: .appStore, token: "apple-1")
        #expect(try await app.purchased(productId: "monthly", receipt: receipt))
        #expect(await app.mayShowPremium())
        #expect(backend.calls(.snapshot) == 1)  // the purchase's answer was stored fresh

        backend.setReceipt("apple-1", grants: ["premium": nil])
        #expect(try await app.restore(receipt) == ["premium"])
        #expect(try await app.signedIn(as: "customer-42"))  // a new id aliased to the anonymous buyer
        try await app.signedOut()
        let error = await #expect(throws: EntitlementClientError.self) { try await app.signedOut() }
        #expect(error?.code == .alreadyAnonymous)
        #expect(await app.mayShowPremium() == false)
    }
}
