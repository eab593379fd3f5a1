import Foundation

/// A ``ShadowTally`` kept in the client's cache directory, so shadow evidence adds up across launches
/// (and across the processes sharing the directory, an app and its extensions) until it is enough to cut
/// over.
///
/// ```swift
/// let tallies = ShadowTallyStore(cache: cache)          // the DirectoryEntitlementCache the client uses
/// Task {
///     for await report in provider.reports { try? await tallies.record(report) }
/// }
/// let tally = await tallies.tally(serving: provider.serving.provider, shadow: provider.shadow.provider)
/// if tally.comparisons >= 10_000 && tally.accessDifferenceRate <= 0.001 { /* ready to cut over */ }
/// ```
///
/// One tally per pair of backends (serving, shadow): the evidence of the shadow stage is not mixed with
/// the roll-back window's, where the two are swapped. The tallies live in one file,
/// ``fileName``, at the top of the cache directory, sealed with a SHA-256 as the cache's files are and
/// replaced atomically (a temporary file written whole, synced, renamed): a crash leaves the old file or
/// the new one. Each ``record(_:)`` reads, adds and writes under the directory's lock on disk, so two
/// processes recording at once lose neither's count. A damaged file reads as an empty tally: evidence is
/// lost, never invented.
public actor ShadowTallyStore {
    /// The file's name in the cache directory.
    public static let fileName = "shadow-tally.cache"

    private let files: CacheDirectoryFiles

    /// The tallies kept in `cache`'s directory.
    public init(cache: DirectoryEntitlementCache) {
        files = CacheDirectoryFiles(path: cache.directory.path)
    }

    /// The tally of reports made while `serving` served and `shadow` was compared; empty when none were
    /// recorded (or the file is damaged).
    public func tally(serving: ProviderID, shadow: ProviderID) -> ShadowTally {
        read()[Pair(serving: serving, shadow: shadow)] ?? ShadowTally()
    }

    /// Every pair's tally.
    public func tallies() -> [(serving: ProviderID, shadow: ProviderID, tally: ShadowTally)] {
        read().sorted { ($0.key.serving, $0.key.shadow) < ($1.key.serving, $1.key.shadow) }
            .map { ($0.key.serving, $0.key.shadow, $0.value) }
    }

    /// Counts `report` in its pair's tally, on disk.
    public func record(_ report: ShadowReport) throws(EntitlementCacheError) {
        var tally = ShadowTally()
        tally.count(report.outcome)
        try add(tally, serving: report.servingProvider, shadow: report.shadowProvider)
    }

    /// Adds `tally` (say, counted in memory and saved in batches) to the pair's tally on disk.
    public func add(_ tally: ShadowTally, serving: ProviderID, shadow: ProviderID) throws(EntitlementCacheError) {
        try files.withLock { () throws(EntitlementCacheError) in
            var tallies = read()
            tallies[Pair(serving: serving, shadow: shadow), default: ShadowTally()] += tally
            try files.writeFile(Self.file(tallies), to: Self.fileName)
        }
    }

    /// Forgets every tally (a new migration starts from zero).
    public func removeAll() throws(EntitlementCacheError) {
        _ = try files.withLock { () throws(EntitlementCacheError) in
            files.removeFile(Self.fileName)
        }
    }

    private struct Pair: Hashable {
        var serving: ProviderID
        var shadow: ProviderID
    }

    private func read() -> [Pair: ShadowTally] {
        guard let data = files.readFile(Self.fileName),
            let payload = CacheFileFormat.unseal(data, as: .shadowTally),
            let tallies = try? Self.tallies(payload)
        else { return [:] }
        return tallies
    }

    private static func file(_ tallies: [Pair: ShadowTally]) -> Data {
        let entries = tallies.map { pair, tally -> JSONValue in
            .object([
                "serving": .string(pair.serving.rawValue), "shadow": .string(pair.shadow.rawValue),
                "agreed": .integer(Int64(tally.agreed)), "accessDifferences": .integer(Int64(tally.accessDifferences)),
                "fieldDifferences": .integer(Int64(tally.fieldDifferences)),
                "failures": .integer(Int64(tally.failures)),
                "skipped": .integer(Int64(tally.skipped)),
            ])
        }
        let payload = JSONValue.object([
            "schemaVersion": .integer(Int64(CacheFileFormat.schemaVersion)), "tallies": .array(entries),
        ])
        return CacheFileFormat.seal(payload, as: .shadowTally)
    }

    private static func tallies(_ payload: JSONNode) throws(DocumentError) -> [Pair: ShadowTally] {
        var tallies: [Pair: ShadowTally] = [:]
        for entry in try payload.required("tallies").elements() {
            func count(_ key: String) throws(DocumentError) -> Int {
                let node = try entry.required(key)
                guard let count = Int(exactly: try node.integer()), count >= 0 else {
                    throw node.invalid("is not a count")
                }
                return count
            }
            var tally = ShadowTally()
            tally.agreed = try count("agreed")
            tally.accessDifferences = try count("accessDifferences")
            tally.fieldDifferences = try count("fieldDifferences")
            tally.failures = try count("failures")
            tally.skipped = try count("skipped")
            let pair = Pair(
                serving: ProviderID(rawValue: try entry.required("serving").string()),
                shadow: ProviderID(rawValue: try entry.required("shadow").string()))
            tallies[pair] = tally
        }
        return tallies
    }
}
