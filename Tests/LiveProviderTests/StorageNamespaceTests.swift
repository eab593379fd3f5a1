import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Testing

/// Each live provider's cache namespace is its backend and a digest of its key (client.md: the stored id,
/// the entries and the floor belong to one provider and one project key). The expected digests are the
/// first 16 hex digits of SHA-256 of each key, computed outside this code (`hashlib.sha256`).
@Suite(.timeLimit(.minutes(5))) struct StorageNamespaceTests {
    @Test func eachLiveProviderNamesItsBackendAndADigestOfItsKey() throws {
        let revenueCat = RevenueCatProvider(configuration: try .init(apiKey: "appl_NamespaceKey"))
        let qonversion = QonversionProvider(configuration: try .init(projectKey: "PV77NamespaceKey"))
        let adapty = AdaptyProvider(configuration: try .init(publicSDKKey: "public_live_NamespaceKey"))
        #expect(revenueCat.storageNamespace == "revenuecat-ed9336a7fa210bc2")
        #expect(qonversion.storageNamespace == "qonversion-ae041f3991085ee5")
        #expect(adapty.storageNamespace == "adapty-eff4ced2e534b683")
    }

    @Test func twoProjectsOfOneBackendAreTwoNamespacesAndTheKeyIsNeverInOne() throws {
        let first = AdaptyProvider(configuration: try .init(publicSDKKey: "public_live_ProjectOne"))
        let again = AdaptyProvider(configuration: try .init(publicSDKKey: "public_live_ProjectOne"))
        let second = AdaptyProvider(configuration: try .init(publicSDKKey: "public_live_ProjectTwo"))
        #expect(first.storageNamespace == again.storageNamespace)
        #expect(first.storageNamespace != second.storageNamespace)
        #expect(!first.storageNamespace.contains("ProjectOne"))
        let sandbox = QonversionProvider(configuration: try .init(projectKey: "PV77NamespaceKey", sandbox: true))
        #expect(sandbox.storageNamespace == "qonversion-ae041f3991085ee5")
    }
}
