import EntitlementKitJSON

/// The top-level members a format's documents are known by, declared once by the format's adapter
/// (``EntitlementAdapter/formatMarkers``).
///
/// ``FormatDetector`` asks an adapter's ``EntitlementAdapter/recognizes(_:)-(JSONNode)`` only about a
/// document its markers admit, and names the markers it found when two formats claim one document. A
/// format's markers are its own member names only: whether a document is *another* format's is for that
/// format's adapter to say, never for this one to guess from the other's keys.
public struct FormatMarkers: Sendable, Hashable {
    /// Top-level members at least one of which every object document of the format carries
    /// (RevenueCat: `subscriber`; the unified form: `schemaVersion`). Empty: no object is ruled out.
    public var memberNames: Set<String>
    /// Whether a top-level JSON array can be one of the format's documents.
    public var readsArrays: Bool

    /// Markers naming `memberNames`, and whether arrays are read.
    public init(memberNames: Set<String>, readsArrays: Bool = false) {
        self.memberNames = memberNames
        self.readsArrays = readsArrays
    }

    /// No markers: every object and array is asked about. The default for an adapter that declares none.
    public static let unrestricted = FormatMarkers(memberNames: [], readsArrays: true)

    /// Whether `document` may be one of the format's, by its kind and top-level member names alone.
    public func admits(_ document: JSONNode) -> Bool {
        switch document.kind {
        case .object: memberNames.isEmpty || memberNames.contains(where: document.has)
        case .array: readsArrays
        default: false
        }
    }

    /// The markers `document` carries, sorted (for messages).
    public func members(in document: JSONNode) -> [String] {
        guard document.kind == .object else { return [] }
        return memberNames.filter(document.has).sorted()
    }
}
