// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "EntitlementKit",
    // The oldest systems with `Duration`, `ContinuousClock` and `Task.sleep(for:)`, which the client and the
    // HTTP retries use; docs/Platforms.md lists every API the targets use and the release each needs.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "EntitlementKit", targets: ["EntitlementKit"]),
        .library(name: "EntitlementKitJSON", targets: ["EntitlementKitJSON"]),
        .library(name: "EntitlementKitCrypto", targets: ["EntitlementKitCrypto"]),
        .library(name: "EntitlementKitHTTP", targets: ["EntitlementKitHTTP"]),
        .library(name: "EntitlementKitRevenueCat", targets: ["EntitlementKitRevenueCat"]),
        .library(name: "EntitlementKitQonversion", targets: ["EntitlementKitQonversion"]),
        .library(name: "EntitlementKitAdapty", targets: ["EntitlementKitAdapty"]),
        .library(name: "EntitlementKitLedger", targets: ["EntitlementKitLedger"]),
        .library(name: "EntitlementKitAppStore", targets: ["EntitlementKitAppStore"]),
        .library(name: "EntitlementKitGooglePlay", targets: ["EntitlementKitGooglePlay"]),
        .library(name: "EntitlementKitOwnBackend", targets: ["EntitlementKitOwnBackend"]),
        .library(name: "EntitlementKitStripe", targets: ["EntitlementKitStripe"]),
        .library(name: "EntitlementKitMigration", targets: ["EntitlementKitMigration"]),
        .library(name: "EntitlementKitFixtures", targets: ["EntitlementKitFixtures"]),
        .library(name: "EntitlementKitTesting", targets: ["EntitlementKitTesting"]),
        .executable(name: "entitlements", targets: ["entitlements"]),
    ],
    // The user asked for no third-party packages: everything here is the toolchain's.
    dependencies: [],
    targets: [
        // The strict JSON layer: one validating pass building a tape, the `JSONNode` view over it with the
        // located `DocumentError`, the value tree, RFC 3339 dates, the canonical writer. It
        // knows nothing of entitlements, so the fuzz targets and other tools can take it alone.
        .target(name: "EntitlementKitJSON"),

        // The cryptographic primitives, vendor-free and written here (no CryptoKit on Linux, no packages):
        // SHA-256/384/512, HMAC-SHA256 and a constant-time comparison, strict DER and X.509, ECDSA
        // verification on P-256 and P-384, RSASSA-PKCS1-v1_5/SHA-256 verification. The core's cache seal, the
        // App Store, Google Play and Stripe adapters share it.
        .target(name: "EntitlementKitCrypto", dependencies: ["EntitlementKitJSON"], exclude: ["Generator"]),

        // The vendor-free core: model, evaluation rules, canonical codec, protocols, errors. It re-exports
        // EntitlementKitJSON (its errors and dates are part of the core's API).
        .target(name: "EntitlementKit", dependencies: ["EntitlementKitJSON", "EntitlementKitCrypto"]),

        // The vendor-free HTTP plumbing both live providers share (the core does no networking):
        // configuration checks, retries with backoff, a response size cap, typed errors.
        .target(name: "EntitlementKitHTTP", dependencies: ["EntitlementKit", "EntitlementKitCrypto"]),

        // One adapter module per backend; each depends on the core (and the shared HTTP plumbing for its
        // live provider), never on another adapter.
        .target(
            name: "EntitlementKitRevenueCat",
            dependencies: ["EntitlementKit", "EntitlementKitHTTP"],
            path: "Adapters/RevenueCat"
        ),
        .target(
            name: "EntitlementKitQonversion",
            dependencies: ["EntitlementKit", "EntitlementKitHTTP"],
            path: "Adapters/Qonversion"
        ),
        .target(
            name: "EntitlementKitAdapty",
            dependencies: ["EntitlementKit", "EntitlementKitHTTP"],
            path: "Adapters/Adapty"
        ),
        // An app's own backend: the vendor-free ledger kept from the stores' notifications and documents
        // (threads, newest statements, identity, storage); each store's reader lives in its adapter.
        .target(name: "EntitlementKitLedger", dependencies: ["EntitlementKit", "EntitlementKitCrypto"]),

        // The stores read directly: StoreKit 2 JWS verified in pure Swift (Apple Root CA - G3 bundled).
        .target(
            name: "EntitlementKitAppStore",
            dependencies: ["EntitlementKit", "EntitlementKitCrypto", "EntitlementKitLedger"],
            path: "Adapters/AppStore",
            resources: [.copy("Resources")]
        ),
        .target(
            name: "EntitlementKitGooglePlay",
            dependencies: ["EntitlementKit", "EntitlementKitLedger", "EntitlementKitCrypto"],
            path: "Adapters/GooglePlay"
        ),
        // Web billing: Stripe subscriptions, Checkout Sessions and signed webhook events.
        .target(
            name: "EntitlementKitStripe",
            dependencies: ["EntitlementKit", "EntitlementKitCrypto", "EntitlementKitLedger"],
            path: "Adapters/Stripe"
        ),

        // The app's own server (a ledger behind it, or anything answering unified snapshots) as a provider.
        .target(
            name: "EntitlementKitOwnBackend",
            dependencies: ["EntitlementKit", "EntitlementKitHTTP"],
            path: "Adapters/OwnBackend"
        ),

        // Bulk conversion, format detection and parity reports over any set of adapters.
        .target(name: "EntitlementKitMigration", dependencies: ["EntitlementKit"]),

        // Recorded vendor responses and the unified snapshots they must map to, as a resource
        // module so tests (and apps' own contract tests) read them through `Bundle.module`.
        .target(
            name: "EntitlementKitFixtures",
            dependencies: ["EntitlementKit"],
            path: "Fixtures",
            exclude: ["README.md", "malformed", "ledger", "shadow-reports"],
            resources: [
                .copy("revenuecat"), .copy("qonversion"), .copy("adapty"), .copy("appstore"), .copy("googleplay"),
                .copy("stripe"), .copy("cross-provider"), .copy("scenarios"),
            ]
        ),

        // The test kit: scenario files, the simulated backend and runner, the fixture harness, builders.
        .target(
            name: "EntitlementKitTesting",
            dependencies: [
                "EntitlementKit", "EntitlementKitRevenueCat", "EntitlementKitQonversion", "EntitlementKitAdapty",
                "EntitlementKitFixtures", "EntitlementKitAppStore", "EntitlementKitGooglePlay", "EntitlementKitCrypto",
            ],
            // The simulated App Store's throwaway test chain (certificates and the leaf's test key) and the
            // simulated Google's throwaway RSA key for push tokens.
            resources: [.copy("AppStore/TestChain"), .copy("GooglePlay/TestKey")]
        ),

        .executableTarget(
            name: "entitlements",
            dependencies: [
                "EntitlementKit",
                "EntitlementKitRevenueCat",
                "EntitlementKitQonversion",
                "EntitlementKitAdapty",
                "EntitlementKitAppStore",
                "EntitlementKitGooglePlay",
                "EntitlementKitStripe",
                "EntitlementKitLedger",
                "EntitlementKitMigration",
                "EntitlementKitHTTP",
                "EntitlementKitTesting",
            ]
        ),

        // The performance figures of the README (`swift run -c release entitlements-bench`); not a product.
        // The Python yardstick script lives beside it, outside every library.
        .executableTarget(
            name: "entitlements-bench",
            dependencies: [
                "EntitlementKit",
                "EntitlementKitRevenueCat",
                "EntitlementKitQonversion",
                "EntitlementKitMigration",
                "EntitlementKitAppStore",
                "EntitlementKitGooglePlay",
                "EntitlementKitStripe",
                "EntitlementKitLedger",
                "EntitlementKitCrypto",
                "EntitlementKitTesting",
            ],
            exclude: ["python"]
        ),

        // A small HTTP/1.1 server on 127.0.0.1 for the live-provider tests (test support, not a product).
        .target(name: "LoopbackHTTPServer", path: "Tests/LoopbackHTTPServer"),
        // The JSON reader before the tape, kept only as the oracle of the differential tests and fuzz targets.
        .target(name: "JSONOracle", dependencies: ["EntitlementKitJSON"], path: "Tests/JSONOracle"),
        // What the test suites share instead of copying (test support, not a product): fixture dates, a seeded
        // generator, a movable wall clock, the built executables run as real processes, off-the-pool waits.
        .target(name: "TestSupport", dependencies: ["EntitlementKit"], path: "Tests/TestSupport"),
        // Slow, plain ECDSA and RSA verifiers the tests and fuzz targets hold the crypto module to (not shipped).
        .target(name: "CryptoOracles", dependencies: ["EntitlementKitCrypto"], path: "Tests/CryptoOracles"),

        .testTarget(
            name: "EntitlementKitTests", dependencies: ["EntitlementKit", "EntitlementKitFixtures", "TestSupport"],
            exclude: ["Golden"]
        ),
        // Shadow mode and cut-over: MigratingProvider over two in-test backends and a clock moved by hand.
        .testTarget(name: "SwapTests", dependencies: ["EntitlementKit", "EntitlementKitTesting"]),
        // Shadow evidence across devices: a report's JSON form, tallies that merge and persist.
        .testTarget(name: "ShadowEvidenceTests", dependencies: ["EntitlementKit"]),
        // The runtime client against an in-test provider, injected clocks and real cache files.
        .testTarget(
            name: "EntitlementKitClientTests", dependencies: ["EntitlementKit", "EntitlementKitCrypto", "TestSupport"]),
        // Uses only the test kit's public API, as an app's test target would.
        .testTarget(
            name: "EntitlementKitTestingTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitTesting", "EntitlementKitFixtures", "EntitlementKitAdapty",
                "TestSupport",
            ],
            resources: [.copy("Stories")]
        ),
        // StoreKit 2 on the device: AppStoreOnDeviceProvider over the test kit's simulated App Store, whose
        // JWS are signed with a throwaway test chain.
        .testTarget(
            name: "AppStoreOnDeviceTests",
            dependencies: ["EntitlementKit", "EntitlementKitAppStore", "EntitlementKitTesting", "TestSupport"]
        ),
        .testTarget(
            name: "RevenueCatAdapterTests",
            dependencies: ["EntitlementKit", "EntitlementKitRevenueCat", "EntitlementKitFixtures", "TestSupport"]
        ),
        .testTarget(
            name: "QonversionAdapterTests",
            dependencies: ["EntitlementKit", "EntitlementKitQonversion", "EntitlementKitFixtures", "TestSupport"]
        ),
        .testTarget(
            name: "AdaptyAdapterTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitAdapty", "EntitlementKitFixtures", "EntitlementKitMigration",
                "EntitlementKitRevenueCat", "EntitlementKitQonversion", "EntitlementKitTesting", "JSONOracle",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "AppStoreAdapterTests",
            dependencies: ["EntitlementKit", "EntitlementKitAppStore", "EntitlementKitFixtures"]
        ),
        // The pure-Swift primitives (SHA-2, HMAC, P-256/P-384 ECDSA, RSA, DER/X.509) and the JWS verifier against
        // public test vectors.
        .testTarget(
            name: "AppStoreVerificationTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitCrypto", "EntitlementKitAppStore", "CryptoOracles", "TestSupport",
            ],
            exclude: ["PKI"],
            resources: [.copy("Wycheproof")]
        ),
        // The ledger: its rules over an in-test source, the App Store and Play readers over notifications
        // signed by a test chain, the directory store under real processes.
        .testTarget(
            name: "LedgerTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitLedger", "EntitlementKitAppStore", "EntitlementKitGooglePlay",
                "EntitlementKitTesting", "TestSupport",
            ],
            resources: [.copy("Notifications"), .copy("Directory/LegacyState")]
        ),
        // Applies logIns to a DirectoryLedgerStore until killed; LedgerTests runs it as a separate process.
        .executableTarget(
            name: "ledger-writer-for-tests", dependencies: ["EntitlementKit", "EntitlementKitLedger"],
            path: "Tests/LedgerWriter"),
        .testTarget(
            name: "GooglePlayAdapterTests",
            dependencies: ["EntitlementKit", "EntitlementKitGooglePlay", "EntitlementKitFixtures", "TestSupport"]
        ),
        .testTarget(
            name: "StripeAdapterTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitStripe", "EntitlementKitFixtures", "EntitlementKitMigration",
                "EntitlementKitGooglePlay", "EntitlementKitLedger", "EntitlementKitCrypto", "EntitlementKitAppStore",
                "EntitlementKitTesting", "TestSupport",
            ]
        ),
        // Every Swift example of the README, docs/ and the DocC catalogs, kept compiled and compared with its text.
        .testTarget(
            name: "DocumentedExamplesTests",
            dependencies: ["EntitlementKit", "EntitlementKitRevenueCat", "EntitlementKitQonversion"],
            exclude: ["ReaderSample.md"]
        ),
        .testTarget(
            name: "EntitlementKitMigrationTests",
            dependencies: ["EntitlementKit", "EntitlementKitMigration", "TestSupport"]),
        // The one format detector over every adapter: each claims its own documents only, ambiguity is refused.
        .testTarget(
            name: "FormatDetectionTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitFixtures", "EntitlementKitMigration", "EntitlementKitRevenueCat",
                "EntitlementKitQonversion", "EntitlementKitAdapty", "EntitlementKitAppStore",
                "EntitlementKitGooglePlay", "EntitlementKitStripe",
            ]
        ),
        // The tape against the tree parser it replaced (the oracle), its size; the canonical encoder.
        .testTarget(
            name: "FastPathTests",
            dependencies: [
                "EntitlementKit",
                "JSONOracle",
                "TestSupport",
                "EntitlementKitMigration",
                "EntitlementKitRevenueCat",
                "EntitlementKitQonversion",
                "EntitlementKitAdapty",
                "EntitlementKitAppStore",
                "EntitlementKitGooglePlay",
                "EntitlementKitFixtures",
            ]
        ),
        // End-to-end tests run the built tool as a user would; the dependency makes `swift test` build it.
        .testTarget(
            name: "EntitlementsCLITests",
            dependencies: [
                "entitlements",
                "EntitlementKit",
                "EntitlementKitLedger",
                "EntitlementKitMigration",
                "EntitlementKitRevenueCat",
                "EntitlementKitQonversion",
                "EntitlementKitFixtures",
                "LoopbackHTTPServer", "TestSupport",
            ]
        ),
        .testTarget(
            name: "LiveProviderTests",
            dependencies: [
                "EntitlementKit",
                "EntitlementKitHTTP",
                "EntitlementKitRevenueCat",
                "EntitlementKitQonversion",
                "EntitlementKitAdapty",
                "EntitlementKitFixtures",
                "LoopbackHTTPServer", "TestSupport",
            ]
        ),
        // OwnBackendProvider against the loopback server: every route, headers, retries, refused bodies; then
        // a loopback server running a real EntitlementLedger behind the article's handler code.
        .testTarget(
            name: "OwnBackendTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitHTTP", "EntitlementKitOwnBackend", "EntitlementKitLedger",
                "EntitlementKitAppStore", "EntitlementKitGooglePlay", "EntitlementKitTesting", "LoopbackHTTPServer",
                "TestSupport",
            ]
        ),
        // Reliability: the client under concurrent load (run under ThreadSanitizer in CI), cache writes
        // interrupted at every step and by SIGKILL (through the helper process below), hostile app user ids
        // on the wire, endless responses from both live providers.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitHTTP", "EntitlementKitRevenueCat", "EntitlementKitQonversion",
                "LoopbackHTTPServer", "TestSupport",
            ]
        ),
        // Stores cache entries in a loop until killed; ReliabilityTests runs it as a separate process.
        .executableTarget(name: "cache-writer-for-tests", dependencies: ["EntitlementKit"], path: "Tests/CacheWriter"),
        // The malformed-input corpus (Fixtures/malformed) through the adapters and the built tool.
        .testTarget(
            name: "MalformedInputTests",
            dependencies: [
                "EntitlementKit", "EntitlementKitRevenueCat", "EntitlementKitQonversion", "EntitlementKitAdapty",
                "EntitlementKitMigration", "EntitlementKitAppStore", "EntitlementKitGooglePlay",
                "EntitlementKitStripe", "TestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
