import EntitlementKit
import EntitlementKitMigration
import Foundation

/// Cold load of a cached snapshot: read one canonical snapshot file from disk and decode it, as an app
/// does at launch before it has anything in memory.
struct ColdLoad {
    let directory: URL
    let corpusPath: String
    let repetitions: Int

    /// Measures and prints; returns the snapshot, for the warm check.
    func report() throws -> EntitlementSnapshot {
        let snapshot = try ChildRun.firstSnapshot(path: corpusPath)
        let file = directory.appendingPathComponent("cached-snapshot.json")
        let data = snapshot.canonicalJSONData()
        try data.write(to: file)
        var samples: [Double] = []
        samples.reserveCapacity(repetitions)
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            let loaded = try EntitlementSnapshot(json: Data(contentsOf: file))
            samples.append((ContinuousClock.now - start).seconds * 1e6)
            guard loaded.entitlements.count == snapshot.entitlements.count else { throw BenchFailure("cold load") }
        }
        print(
            "- cold load of a cached snapshot file (\(data.count) B: read + decode): median "
                + "\(format(Statistics.median(samples), 1)) µs, p99 \(format(Statistics.percentile(samples, 99), 1)) µs"
        )
        return snapshot
    }
}
