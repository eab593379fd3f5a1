import EntitlementKitJSON

/// Picks the format of an unlabelled document: the one detector every command and decoder uses.
///
/// It walks its adapters in the order given (the registration list), asks each whose
/// ``EntitlementAdapter/formatMarkers`` admit the document whether it ``EntitlementAdapter/recognizes(_:)-(JSONNode)``
/// it, and accepts exactly one claim. No claim is an `unrecognizedFormat` error; two or more are an
/// `unrecognizedFormat` error too, naming every claimant and the markers each found, and never a guess:
/// an ambiguous document could grant access by the wrong vendor's rules, so the caller must name the
/// format. Formats claim by their own marks and ignore members they do not know (vendors add fields), so
/// a document two formats could mean is settled here, by this refusal, not by each format's guesses.
///
/// ```swift
/// let detector = FormatDetector(adapters: [UnifiedSnapshotAdapter()])
/// let format = try detector.format(of: JSONNode(parsing: data))   // .unified
/// ```
public struct FormatDetector: Sendable {
    /// The adapters asked, in order.
    public let adapters: [any EntitlementAdapter]

    /// A detector asking `adapters` in the order given.
    public init(adapters: [any EntitlementAdapter]) {
        self.adapters = adapters
    }

    /// The adapters that claim `document`, in ``adapters`` order.
    public func claimants(of document: JSONNode) -> [any EntitlementAdapter] {
        adapters.filter { $0.formatMarkers.admits(document) && $0.recognizes(document) }
    }

    /// The one adapter that claims `document`.
    public func adapter(for document: JSONNode) throws(DocumentError) -> any EntitlementAdapter {
        // The one claimant found without making a list: the bulk decoder asks this of every record.
        var claimant: (any EntitlementAdapter)?
        var ambiguous = false
        for adapter in adapters where adapter.formatMarkers.admits(document) && adapter.recognizes(document) {
            ambiguous = claimant != nil
            if ambiguous { break }
            claimant = adapter
        }
        if let claimant, !ambiguous { return claimant }
        // No claim, or two: the list is made for the message only.
        let claimants = claimants(of: document)
        switch claimants.count {
        case 0:
            var value: String?
            if document.kind != .object { value = document.value.compactText }
            throw DocumentError(
                kind: .unrecognizedFormat, path: document.path, value: value,
                reason: "is not a document of any known format (\(formatList))")
        default:
            let names = claimants.map(\.provider.rawValue).joined(separator: ", ")
            let markers = claimants.compactMap { adapter -> String? in
                let found = adapter.formatMarkers.members(in: document).map { "`\($0)`" }
                return found.isEmpty ? nil : "\(adapter.provider.rawValue)'s \(found.joined(separator: ", "))"
            }
            let evidence = markers.isEmpty ? "" : ", by \(markers.joined(separator: " and "))"
            throw DocumentError(
                kind: .unrecognizedFormat, path: document.path,
                reason: "matches more than one format (\(names))\(evidence); name the format")
        }
    }

    /// The provider id of the one adapter that claims `document`.
    public func format(of document: JSONNode) throws(DocumentError) -> ProviderID {
        try adapter(for: document).provider
    }

    private var formatList: String {
        adapters.map(\.provider.rawValue).joined(separator: ", ")
    }
}
