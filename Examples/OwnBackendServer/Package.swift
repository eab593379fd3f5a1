// swift-tools-version: 6.0
import PackageDescription

// The ledger's reference server, a package of its own: the library's users get none of these packages.
let package = Package(
    name: "OwnBackendServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        // The identity of a path dependency is its folder's name, which differs between clones; the name
        // keeps `package: "EntitlementKit"` below true in any clone.
        .package(name: "EntitlementKit", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // Hummingbird's and PostgresNIO's own: the server runs both in one service group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // The routes, the PostgreSQL store, the fetchers and the configuration.
        .target(
            name: "OwnBackendServerCore",
            dependencies: [
                .product(name: "EntitlementKit", package: "EntitlementKit"),
                .product(name: "EntitlementKitLedger", package: "EntitlementKit"),
                .product(name: "EntitlementKitAppStore", package: "EntitlementKit"),
                .product(name: "EntitlementKitGooglePlay", package: "EntitlementKit"),
                .product(name: "EntitlementKitStripe", package: "EntitlementKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "own-backend-server", dependencies: ["OwnBackendServerCore"]),
        // Runs the server as real processes and signs App Store notifications with the test kit's chain:
        // shared by the tests and the bench.
        .target(
            name: "ServerHarness",
            dependencies: [
                .product(name: "EntitlementKit", package: "EntitlementKit"),
                .product(name: "EntitlementKitTesting", package: "EntitlementKit"),
            ]
        ),
        // Notifications per second and p50/p99 latency (README); run it from a release build.
        .executableTarget(name: "own-backend-bench", dependencies: ["ServerHarness"]),
        // The server as real processes on a real PostgreSQL (scripts/with-postgres.sh), with loopback
        // stand-ins of Google's and Stripe's APIs; the dependency on the executable makes `swift test` build it.
        .testTarget(
            name: "OwnBackendServerTests",
            dependencies: [
                "own-backend-server", "ServerHarness", "OwnBackendServerCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "EntitlementKit", package: "EntitlementKit"),
                .product(name: "EntitlementKitAppStore", package: "EntitlementKit"),
                .product(name: "EntitlementKitLedger", package: "EntitlementKit"),
                .product(name: "EntitlementKitOwnBackend", package: "EntitlementKit"),
                .product(name: "EntitlementKitTesting", package: "EntitlementKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
