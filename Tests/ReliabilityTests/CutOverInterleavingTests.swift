import EntitlementKit
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Processes on a migration's configurations (swap.md "Cut-over and the cache"): serving the old backend with
/// the new one in the shadow, or cut over. However their logIns and logOuts interleave, and wherever a writer
/// is held or killed between the two parts of the cache, every later launch on either configuration (and on
/// either backend alone) has the customer of the last completed identity change, and never an id that was
/// logged out.
@Suite("Cut-over cache: two processes changing the customer", .timeLimit(.minutes(5)))
struct CutOverInterleavingTests {
    /// Serving RevenueCat, Qonversion in the shadow.
    static let servingOld = "revenuecat>qonversion"
    /// Cut over: serving Qonversion, RevenueCat in the shadow.
    static let servingNew = "qonversion>revenuecat"
    static let configurations = [servingOld, servingNew, "revenuecat", "qonversion"]

    /// What a helper said: "<app user id> <active ids>".
    struct Said: Sendable, CustomStringConvertible {
        let line: String
        var id: String { String(line.split(separator: " ", omittingEmptySubsequences: false).first ?? "") }
        var isAnonymous: Bool { id.hasPrefix("$RCAnonymousID:") || id.hasPrefix("QON_") }
        var description: String { line }
    }

    private static func client(_ configuration: String, _ directory: URL) throws -> HelperProcess {
        try HelperProcess("cache-writer-for-tests", ["client", configuration, directory.path])
    }

    private static func ask(_ helper: HelperProcess, _ line: String) -> Said {
        Said(line: helper.ask(line) ?? "ended")
    }

    /// A fresh launch on each configuration, in order, each twice (the second must find what the first did).
    /// The first launch repairs a pair a killed writer left half written, so which configuration launches
    /// first matters.
    private static func launches(on directory: URL, first: String = servingOld) throws -> [String: [Said]] {
        var said: [String: [Said]] = [:]
        for configuration in [first] + configurations.filter({ $0 != first }) {
            let helper = try client(configuration, directory)
            defer { helper.kill() }
            said[configuration] = [ask(helper, "launch"), ask(helper, "launch")]
        }
        return said
    }

    /// Every launch names the same customer: `loggedIn`, or (nil) one anonymous person whose ids in the two
    /// backends' forms are `anonymousIds`' (when given). Each configuration's two launches agree.
    private static func expectCustomer(
        _ launches: [String: [Said]], loggedIn: String?, anonymousIds: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (configuration, said) in launches {
            #expect(
                said.count == 2 && said[0].id == said[1].id, "\(configuration): \(said)", sourceLocation: sourceLocation
            )
            if let loggedIn {
                #expect(said[0].id == loggedIn, "\(configuration): \(said)", sourceLocation: sourceLocation)
            } else {
                #expect(said[0].isAnonymous, "\(configuration): \(said)", sourceLocation: sourceLocation)
            }
        }
        // Serving a backend or that backend alone: the same part, the same id.
        #expect(launches[servingOld]?.first?.id == launches["revenuecat"]?.first?.id, sourceLocation: sourceLocation)
        #expect(launches[servingNew]?.first?.id == launches["qonversion"]?.first?.id, sourceLocation: sourceLocation)
        #expect(launches[servingOld]?.first?.id.hasPrefix("QON_") != true, sourceLocation: sourceLocation)
        #expect(launches[servingNew]?.first?.id.hasPrefix("$RCAnonymousID:") != true, sourceLocation: sourceLocation)
        let ids = Set(launches.values.compactMap { $0.first?.id })
        for id in anonymousIds { #expect(ids.contains(id), "\(id) in \(ids)", sourceLocation: sourceLocation) }
    }

    @Test(
        "a logIn held after its first part while a process on the other configuration, or the same, logs out",
        arguments: [servingNew, servingOld])
    func logInHeldBetweenPartsWhileAnotherProcessLogsOut(loggingOut: String) async throws {
        let directory = try CacheCrashSafetyTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (said, later) = try await offThePool { () throws -> ([String: Said], [String: [Said]]) in
            var said: [String: Said] = [:]
            let x = try Self.client(Self.servingOld, directory)
            let y = try Self.client(loggingOut, directory)
            defer { [x, y].forEach { $0.kill() } }
            _ = Self.ask(x, "launch")
            said["x alice"] = Self.ask(x, "login alice")
            said["y launch"] = Self.ask(y, "launch")
            said["x hold"] = Self.ask(x, "hold firstPartWritten")
            x.send("login bob")
            said["x held"] = Said(line: x.nextLine() ?? "ended")
            // Y logs out while X is held between the two parts; its change waits for X's, then completes.
            y.send("logout")
            x.send("go")
            said["x bob"] = Said(line: x.nextLine() ?? "ended")
            said["y logout"] = Said(line: y.nextLine() ?? "ended")
            let later = try Self.launches(on: directory)
            said["x check"] = Self.ask(x, "check")
            said["y check"] = Self.ask(y, "check")
            return (said, later)
        }
        #expect(said["x alice"]?.line == "alice premium")
        // On the cut-over configuration alice's answer is not cached yet (answers stay with their backend).
        #expect(said["y launch"]?.id == "alice")
        #expect(said["x held"]?.line == "held firstPartWritten")
        let loggedOutTo = try #require(said["y logout"])
        #expect(loggedOutTo.isAnonymous && loggedOutTo.line.hasSuffix(" "))
        // The logOut completed last: everyone is its anonymous customer, no one bob or alice.
        Self.expectCustomer(later, loggedIn: nil, anonymousIds: [loggedOutTo.id])
        let oldId = later[Self.servingOld]?.first?.id
        #expect(said["x check"]?.id == oldId, "X follows the logOut")
        #expect(said["y check"]?.id == loggedOutTo.id)
    }

    @Test(
        "an unsynchronised logIn and logOut on opposite configurations or the same, 20 times: one customer",
        arguments: [servingNew, servingOld])
    func unsynchronisedLogInAndLogOut(loggingOut: String) async throws {
        let directory = try CacheCrashSafetyTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rounds = try await offThePool { () throws -> [(x: Said, y: Said, later: [String: [Said]])] in
            let x = try Self.client(Self.servingOld, directory)
            let y = try Self.client(loggingOut, directory)
            defer { [x, y].forEach { $0.kill() } }
            _ = Self.ask(x, "launch")
            _ = Self.ask(y, "launch")
            var rounds: [(x: Said, y: Said, later: [String: [Said]])] = []
            for round in 0..<20 {
                _ = Self.ask(y, "login y\(round)")
                x.send("login x\(round)")
                y.send("logout")
                let xSaid = Said(line: x.nextLine() ?? "ended")
                let ySaid = Said(line: y.nextLine() ?? "ended")
                var later: [String: [Said]] = [:]
                for configuration in [Self.servingOld, Self.servingNew] {
                    let observer = try Self.client(configuration, directory)
                    defer { observer.kill() }
                    later[configuration] = [Self.ask(observer, "launch"), Self.ask(observer, "launch")]
                }
                rounds.append((xSaid, ySaid, later))
            }
            return rounds
        }
        for (round, outcome) in rounds.enumerated() {
            let old = outcome.later[Self.servingOld]?.first
            let new = outcome.later[Self.servingNew]?.first
            #expect(outcome.later.values.allSatisfy { $0.count == 2 && $0[0].id == $0[1].id }, "round \(round)")
            #expect(old?.id != "y\(round)" && new?.id != "y\(round)", "round \(round): y\(round) logged out")
            if old?.id == "x\(round)" {
                #expect(new?.id == "x\(round)", "round \(round): \(outcome)")  // the logIn completed last
            } else {
                // The logOut completed last: its anonymous customer, in each backend's own form.
                #expect(outcome.later[loggingOut]?.first?.id == outcome.y.id, "round \(round): \(outcome)")
                #expect(old?.id.hasPrefix("$RCAnonymousID:") == true, "round \(round): \(outcome)")
                #expect(new?.id.hasPrefix("QON_") == true, "round \(round): \(outcome)")
            }
        }
    }

    @Test(
        "a writer killed inside the pair write: the change is made when the first part is in place",
        arguments: IdentityPairWriteStage.allCases)
    func writerKilledInsideThePairWrite(stage: IdentityPairWriteStage) async throws {
        let directory = try CacheCrashSafetyTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (held, later) = try await offThePool { () throws -> (Said, [String: [Said]]) in
            let x = try Self.client(Self.servingOld, directory)
            _ = Self.ask(x, "launch")
            _ = Self.ask(x, "login alice")
            _ = Self.ask(x, "hold \(stage.rawValue)")
            x.send("login bob")
            let held = Said(line: x.nextLine() ?? "ended")
            x.kill()
            // First the configuration whose serving part the killed writer did not reach.
            return (held, try Self.launches(on: directory, first: Self.servingNew))
        }
        #expect(held.line == "held \(stage.rawValue)")
        Self.expectCustomer(later, loggedIn: stage == .firstPartWritten ? "bob" : "alice")
    }

    @Test("a logOut killed between the parts on the cut-over configuration: anonymous everywhere, alice nowhere")
    func logOutKilledBetweenTheParts() async throws {
        let directory = try CacheCrashSafetyTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (held, later) = try await offThePool { () throws -> (Said, [String: [Said]]) in
            let y = try Self.client(Self.servingNew, directory)
            _ = Self.ask(y, "launch")
            _ = Self.ask(y, "login alice")
            _ = Self.ask(y, "hold firstPartWritten")
            y.send("logout")
            let held = Said(line: y.nextLine() ?? "ended")
            y.kill()
            return (held, try Self.launches(on: directory))
        }
        #expect(held.line == "held firstPartWritten")
        Self.expectCustomer(later, loggedIn: nil)
    }

    @Test("while a pair write runs, both parts' locks on disk are held; once it is done they are free")
    func thePairWriteHoldsBothLocks() async throws {
        let directory = try CacheCrashSafetyTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let locks = ["revenuecat", "qonversion"].map { directory.path + "/" + $0 + "/.lock" }
        let (whileHeld, afterwards) = try await offThePool { () throws -> ([Bool], [Bool]) in
            let x = try Self.client(Self.servingOld, directory)
            defer { x.kill() }
            _ = Self.ask(x, "launch")
            _ = Self.ask(x, "hold bothPartsLocked")
            x.send("login bob")
            _ = x.nextLine()
            let whileHeld = locks.map(Self.canLock)
            x.send("go")
            _ = x.nextLine()
            return (whileHeld, locks.map(Self.canLock))
        }
        #expect(whileHeld == [false, false])
        #expect(afterwards == [true, true])
    }

    /// Whether this process can take the exclusive lock on `path` at once (it releases it).
    static func canLock(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        _ = flock(descriptor, LOCK_UN)
        return true
    }
}
