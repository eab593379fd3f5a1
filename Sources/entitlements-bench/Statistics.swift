/// Medians and percentiles over repeated measurements.
enum Statistics {
    static func median(_ values: [Double]) -> Double {
        percentile(values, 50)
    }

    /// The nearest-rank percentile (`p` in 0…100) of `values`.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
