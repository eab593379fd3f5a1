import Foundation

/// The client's idea of "now" that the device clock cannot turn back:
/// `max(device now, server now, floor)`.
///
/// *Server now* is the newest server time received in this run plus the monotonic time since it arrived.
/// Server times come from answers' `requestDate`s, from cached entries' `newestRequestDate`s, and from
/// the persisted floor itself (each was true at some past instant, so adding the monotonic time since is
/// still never ahead of true time). The *floor* is the largest server now ever used; the device clock
/// never raises it, so a clock once set forward does not stick.
struct TrustedClock: Sendable {
    /// The latest server time known and the monotonic reading when it became known.
    private var anchor: (serverTime: Date, elapsed: Duration)?
    /// The largest server now used so far (persisted by the client).
    private(set) var floor: Date?

    /// Starts from the persisted floor, which advances with the monotonic clock from `elapsed` on.
    init(floor: Date?, elapsed: Duration) {
        self.floor = floor
        if let floor { anchor = (floor, elapsed) }
    }

    /// Takes a server time into account: it becomes the anchor when it is ahead of the current server now.
    mutating func observe(serverTime: Date, elapsed: Duration) {
        if let current = serverNow(elapsed: elapsed), current >= serverTime { return }
        anchor = (serverTime, elapsed)
    }

    /// The newest server time plus the monotonic time since it arrived.
    func serverNow(elapsed: Duration) -> Date? {
        guard let anchor else { return nil }
        return anchor.serverTime.addingTimeInterval((elapsed - anchor.elapsed).timeInterval)
    }

    /// The trusted instant, raising the floor to server now. Returns whether the floor rose.
    mutating func trustedInstant(deviceNow: Date, elapsed: Duration) -> (instant: Date, floorRose: Bool) {
        let server = serverNow(elapsed: elapsed)
        var floorRose = false
        if let server, floor.map({ server > $0 }) ?? true {
            floor = server
            floorRose = true
        }
        // Plain comparisons: this runs on every check, and an array of three would be allocated each time.
        var instant = deviceNow
        if let server, server > instant { instant = server }
        if let floor, floor > instant { instant = floor }
        return (instant, floorRose)
    }
}

extension Duration {
    /// The duration in seconds, as `Date` arithmetic wants it.
    var timeInterval: TimeInterval {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

extension Date {
    /// The date truncated to whole milliseconds (what cache files keep), never later than `self`.
    var truncatedToMilliseconds: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
