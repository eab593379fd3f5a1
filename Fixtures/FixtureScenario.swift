import EntitlementKit
import Foundation

/// One recorded vendor response and what it must map to.
///
/// A scenario is a pair of files in `Fixtures/<provider>/`: `<name>.json`, the vendor's response, and
/// either `<name>.expected.json`, the unified snapshot it maps to at that snapshot's `evaluatedAt`, or
/// `<name>.expected-error.json`, `{"kind": …, "path": …}` naming the ``DocumentError`` it must fail with.
public struct FixtureScenario: Sendable, Hashable, CustomStringConvertible {
    /// What the scenario expects of the adapter.
    public enum Expectation: Sendable, Hashable {
        /// The unified snapshot (canonical JSON), read from `<name>.expected.json`.
        case snapshot(URL)
        /// A located failure, read from `<name>.expected-error.json`.
        case failure(URL)
    }

    /// The provider whose folder holds it: `revenuecat`, `qonversion`.
    public let provider: ProviderID
    /// The scenario name: `active-monthly`.
    public let name: String
    /// The vendor response.
    public let documentURL: URL
    /// What it must map to.
    public let expectation: Expectation
    /// The products → entitlements catalog a store adapter maps the document with: `<name>.catalog.json`,
    /// else the folder's `catalog.json`; `nil` when there is neither (every product is its own entitlement).
    public let catalogURL: URL?

    /// `revenuecat/active-monthly`.
    public var description: String { "\(provider)/\(name)" }

    /// The vendor response's bytes.
    public func document() throws -> Data {
        try Data(contentsOf: documentURL)
    }

    /// The scenario's catalog (``catalogURL``), or ``EntitlementCatalog/identity`` when it has none.
    public func catalog() throws -> EntitlementCatalog {
        guard let catalogURL else { return .identity }
        return try EntitlementCatalog(json: Data(contentsOf: catalogURL))
    }

    /// The expected unified snapshot as JSON, or `nil` for a failure scenario.
    public func expectedSnapshotJSON() throws -> JSONValue? {
        guard case .snapshot(let url) = expectation else { return nil }
        return try JSONValue.parse(Data(contentsOf: url))
    }

    /// The expected error's kind and path, or `nil` for a snapshot scenario.
    public func expectedFailure() throws -> (kind: DocumentError.Kind, path: String)? {
        guard case .failure(let url) = expectation else { return nil }
        let root = JSONNode(try JSONValue.parse(Data(contentsOf: url)))
        let kindNode = try root.required("kind")
        guard let kind = DocumentError.Kind(rawValue: try kindNode.string()) else {
            throw kindNode.invalid("is not a DocumentError.Kind")
        }
        return (kind, try root.required("path").string())
    }
}
