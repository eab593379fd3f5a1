import EntitlementKit
import Foundation

/// Turns a document in any supported format into a snapshot: one of a list of adapters' vendor formats,
/// or EntitlementKit's own unified form.
///
/// The format is named by its provider id (`revenuecat`, `qonversion`, `unified`) or, when not named,
/// detected from the document's shape by ``FormatDetector`` over the adapters in order (a top-level
/// `schemaVersion` for the unified form). A document that matches no format, or more than one,
/// is refused with a ``DocumentError`` of kind `unrecognizedFormat`.
///
/// ```swift
/// let decoder = SnapshotDecoder(adapters: [RevenueCatAdapter(), QonversionAdapter()])
/// let snapshot = try decoder.snapshot(from: data, at: .now)   // format detected
/// ```
public struct SnapshotDecoder: Sendable {
    /// Every format this decoder reads: the adapters given, then ``UnifiedSnapshotAdapter`` unless one
    /// of them already reads `unified`.
    public let adapters: [any EntitlementAdapter]

    /// Creates a decoder for `adapters`' formats and the unified form.
    public init(adapters: [any EntitlementAdapter]) {
        let readsUnified = adapters.contains { $0.provider == .unified }
        self.adapters = readsUnified ? adapters : adapters + [UnifiedSnapshotAdapter()]
    }

    /// Every format this decoder accepts, in ``adapters`` order (`unified` last by default).
    public var formats: [ProviderID] {
        adapters.map(\.provider)
    }

    /// Whether `format` is one of ``formats``.
    public func isKnownFormat(_ format: ProviderID) -> Bool {
        formats.contains(format)
    }

    /// The name of the one format `document` has the shape of (see ``FormatDetector``).
    public func detectFormat(of document: JSONNode) throws(DocumentError) -> ProviderID {
        try detector.format(of: document)
    }

    /// The one detector, over ``adapters`` in their order.
    private var detector: FormatDetector { FormatDetector(adapters: adapters) }

    /// Maps `document` into a snapshot evaluated at `instant`.
    ///
    /// - Parameter format: the format's name; `nil` detects it. A unified snapshot is read strictly and
    ///   re-evaluated with ``EntitlementSnapshot/evaluated(at:)``.
    ///
    /// Two mistakes get a message that names them rather than the first missing member: a document of
    /// one format named as another (`looks like a Qonversion document, not revenuecat as requested`),
    /// and, when detecting, a backend's error body that no format claims (it gets the error its
    /// backend's adapter gives, such as `is a RevenueCat error response (code 7225: …)`).
    public func snapshot(from document: JSONNode, format: ProviderID? = nil, at instant: Date) throws(DocumentError)
        -> EntitlementSnapshot
    {
        let name: ProviderID
        if let format {
            name = format
        } else {
            do {
                name = try detectFormat(of: document)
            } catch {
                throw vendorError(in: document, at: instant) ?? error
            }
        }
        guard let adapter = adapters.first(where: { $0.provider == name }) else {
            throw DocumentError(
                kind: .unrecognizedFormat, path: document.path, value: JSONValue.string(name.rawValue).compactText,
                reason: "is not a known format (\(formatList))")
        }
        if format != nil, !adapter.recognizes(document),
            let other = detector.claimants(of: document).first(where: { $0.provider != name })
        {
            throw DocumentError(
                kind: .unrecognizedFormat, path: document.path,
                reason:
                    "looks like \(Self.documentName(other.provider)), not \(name.rawValue) as requested; name "
                    + "\(other.provider.rawValue), or let the format be detected")
        }
        return try adapter.snapshot(from: document, at: instant)
    }

    /// The error an adapter gives when `document` is its backend's answer to a failed request (an
    /// error body, `success: false`): a document no format claims may still be one of those.
    private func vendorError(in document: JSONNode, at instant: Date) -> DocumentError? {
        for adapter in adapters {
            do {
                _ = try adapter.snapshot(from: document, at: instant)
            } catch  where error.kind == .vendorError {
                return error
            } catch {
                continue
            }
        }
        return nil
    }

    /// `a RevenueCat document`, for messages.
    private static func documentName(_ provider: ProviderID) -> String {
        switch provider {
        case .revenueCat: "a RevenueCat document"
        case .qonversion: "a Qonversion document"
        case .adapty: "an Adapty document"
        case .unified: "a unified snapshot"
        default: "a \(provider.rawValue) document"
        }
    }

    /// Parses `data` as one document and maps it into a snapshot evaluated at `instant`.
    public func snapshot(from data: Data, format: ProviderID? = nil, at instant: Date) throws(DocumentError)
        -> EntitlementSnapshot
    {
        try snapshot(from: JSONNode(parsing: data), format: format, at: instant)
    }

    /// Maps one JSON Lines record — a bare document or a ``JSONLinesEnvelope`` — into a snapshot
    /// evaluated at `instant`.
    ///
    /// An envelope's `provider` names the format of its `response` (it must agree with `format` when
    /// both are given), and its `appUserId` becomes the snapshot's ``EntitlementSnapshot/appUserId``.
    /// Errors inside an envelope's response name paths under `response`.
    public func snapshot(fromRecord data: Data, format: ProviderID? = nil, at instant: Date) throws(DocumentError)
        -> EntitlementSnapshot
    {
        try snapshot(fromRecord: JSONNode(parsing: data), format: format, at: instant)
    }

    /// ``snapshot(fromRecord:format:at:)-(Data,_,_)`` of a record already parsed (the differential tests
    /// pass the tree parser's, their oracle).
    package func snapshot(fromRecord root: JSONNode, format: ProviderID? = nil, at instant: Date)
        throws(DocumentError) -> EntitlementSnapshot
    {
        guard let envelope = try JSONLinesEnvelope(root) else {
            return try snapshot(from: root, format: format, at: instant)
        }
        var name = format
        if let provider = envelope.provider.map(ProviderID.init(rawValue:)) {
            guard isKnownFormat(provider) else {
                throw DocumentError(
                    kind: .invalidValue, path: envelope.providerPath,
                    value: JSONValue.string(provider.rawValue).compactText,
                    reason: "is not a known provider (\(formatList))")
            }
            if let format, format != provider {
                throw DocumentError(
                    kind: .inconsistent, path: envelope.providerPath,
                    value: JSONValue.string(provider.rawValue).compactText,
                    reason: "contradicts the requested format \(JSONValue.string(format.rawValue).compactText)")
            }
            name = provider
        }
        var snapshot = try snapshot(from: envelope.response, format: name, at: instant)
        if let appUserId = envelope.appUserId { snapshot.appUserId = appUserId }
        return snapshot
    }

    /// The snapshot of one line of a JSON Lines input (see ``snapshot(fromRecord:format:at:)``), or
    /// the failure to report for it.
    public func snapshot(
        of line: JSONLine, format: ProviderID? = nil, at instant: Date,
        maximumLineLength: Int = JSONLinesReader.defaultMaximumLineLength
    ) -> Result<EntitlementSnapshot, LineFailure> {
        switch line.content {
        case .tooLong(let byteCount):
            return .failure(.tooLong(line: line.number, byteCount: byteCount, limit: maximumLineLength))
        case .text(let text):
            do {
                return .success(try snapshot(fromRecord: text, format: format, at: instant))
            } catch {
                return .failure(LineFailure(line: line.number, error: error))
            }
        }
    }

    private var formatList: String {
        formats.map(\.rawValue).joined(separator: ", ")
    }
}
