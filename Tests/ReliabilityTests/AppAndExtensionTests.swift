import Foundation
import TestSupport
import Testing

/// An app, its extension and a client of a second backend: three processes over one cache directory,
/// logging in, out and checking in turn. No customer's id or answer ever surfaces for another.
@Suite("An app and its extension, two processes on one directory", .timeLimit(.minutes(5)))
struct AppAndExtensionTests {
    @Test("log in, out and check in any order across processes and relaunches")
    func appExtensionAndSecondBackend() async throws {
        let directory = try CacheCrashSafetyTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let said = try await offThePool { () throws -> [String: String] in
            var said: [String: String] = [:]
            func client(_ provider: String) throws -> HelperProcess {
                try HelperProcess("cache-writer-for-tests", ["client", provider, directory.path])
            }
            let app = try client("revenuecat")
            let appExtension = try client("revenuecat")
            let other = try client("qonversion")
            defer { [app, appExtension, other].forEach { $0.kill() } }

            said["app launch"] = app.ask("launch")
            said["app login"] = app.ask("login alice")
            said["extension launch"] = appExtension.ask("launch")
            said["extension check"] = appExtension.ask("check")
            said["other launch"] = other.ask("launch")
            said["app logout"] = app.ask("logout")
            // The extension, still running as alice with her fresh entry in memory, follows the app's
            // logout at its next check; and persisting its floor must not bring alice back.
            said["extension check after logout"] = appExtension.ask("check")
            said["extension refresh after logout"] = appExtension.ask("refresh")
            said["other login"] = other.ask("login bob")

            let relaunchedExtension = try client("revenuecat")
            let relaunchedApp = try client("revenuecat")
            let relaunchedOther = try client("qonversion")
            defer { [relaunchedExtension, relaunchedApp, relaunchedOther].forEach { $0.kill() } }
            said["extension relaunch"] = relaunchedExtension.ask("launch")
            said["app relaunch"] = relaunchedApp.ask("launch")
            said["other relaunch"] = relaunchedOther.ask("launch")
            said["app relaunch check"] = relaunchedApp.ask("check")
            return said
        }

        func id(_ step: String) -> String { String(said[step]?.split(separator: " ").first ?? "missing") }
        func access(_ step: String) -> String {
            guard let line = said[step], let space = line.firstIndex(of: " ") else { return "missing" }
            return String(line[line.index(after: space)...])
        }

        #expect(id("app launch").hasPrefix("$RCAnonymousID:"))
        #expect(said["app login"] == "alice premium")
        #expect(said["extension launch"] == "alice premium")
        #expect(said["extension check"] == "alice premium")
        #expect(id("other launch").hasPrefix("QON_"))
        #expect(id("app logout").hasPrefix("$RCAnonymousID:") && access("app logout") == "")
        #expect(id("extension check after logout") == id("app logout"))
        #expect(access("extension check after logout") == "")
        #expect(id("extension refresh after logout") == id("app logout"))
        #expect(access("extension refresh after logout") == "")
        #expect(said["other login"] == "bob ")

        // After the relaunch, the app's logout holds for both of its processes, and each backend keeps
        // its own customer.
        #expect(id("extension relaunch") == id("app logout"))
        #expect(id("app relaunch") == id("app logout"))
        #expect(access("extension relaunch") == "" && access("app relaunch check") == "")
        #expect(id("other relaunch") == "bob")
    }
}
