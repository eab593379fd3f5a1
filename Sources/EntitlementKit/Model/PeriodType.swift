/// The kind of period the customer is in.
public struct PeriodType: OpenEnumeration {
    /// The camelCase value written in snapshots.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A regular paid period.
    public static let normal = PeriodType(rawValue: "normal")

    /// A free trial.
    public static let trial = PeriodType(rawValue: "trial")

    /// An introductory-price period.
    public static let intro = PeriodType(rawValue: "intro")

    /// A promotional period.
    public static let promotional = PeriodType(rawValue: "promotional")

    /// A prepaid period that does not renew by itself (Google Play).
    public static let prepaid = PeriodType(rawValue: "prepaid")

    /// The backend did not say, or said something unrecognised.
    public static let unknown = PeriodType(rawValue: "unknown")

    /// Every value this version defines.
    public static let knownValues: [PeriodType] = [.normal, .trial, .intro, .promotional, .prepaid, .unknown]
}
