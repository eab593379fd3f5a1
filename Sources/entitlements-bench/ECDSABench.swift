import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitCrypto
import Foundation

/// `entitlements-bench --ecdsa`: App Store signature checking, beside OpenSSL (Python's `cryptography`) in
/// the same run when it is installed — compare figures only within one run, as machines of one kind differ.
/// Every figure is the median of several rounds.
///
/// 1. P-256 and P-384 verifications per CPU-second (RFC 6979's example keys and signatures, A.2.5 and A.2.6),
///    `rounds` rounds of `seconds` each, curves alternating; then OpenSSL's the same way.
/// 2. One whole JWS (the signed fixtures' test chain): warm (the verified chain cached) and cold (a new
///    verifier each time: the chain's two certificate checks on every JWS).
/// 3. `entitlements convert --from appstore` on 2,000 distinct JWS of one chain against the Python script
///    that parses each header, verifies the chain once per distinct x5c, verifies each ES256 signature and
///    parses each payload (`python/appstore_jws.py`); runs alternate, in CPU seconds.
enum ECDSABench {
    static func report(executable: String, seconds: Double = 0.5, rounds: Int = 5) throws {
        guard let p256 = try? ECDSAPublicKey(curve: .p256, x963Representation: bytes(p256Key)),
            let p384 = try? ECDSAPublicKey(curve: .p384, x963Representation: bytes(p384Key))
        else { return print("- ECDSA: the sample keys did not load") }
        let sample = Array("sample".utf8)
        let p256Digest = SHA256.digest(of: sample)
        let p384Digest = SHA384.hash(sample)
        let (p256Signature, p384Signature) = (bytes(p256Signature), bytes(p384Signature))
        var p256Rates: [Double] = []
        var p384Rates: [Double] = []
        for _ in 0..<rounds {
            p256Rates.append(
                measure(seconds: seconds) {
                    p256.isValidSignature(rawRepresentation: p256Signature, digest: p256Digest)
                })
            p384Rates.append(
                measure(seconds: seconds) {
                    p384.isValidSignature(rawRepresentation: p384Signature, digest: p384Digest)
                })
        }
        let openSSL =
            python(["ecdsa", String(seconds), String(rounds)]).flatMap { try? JSONSerialization.jsonObject(with: $0) }
            as? [String: [Double]]
        print("\n\(rounds) rounds of \(format(seconds, 1)) CPU-s each; medians (min–max)\n")
        print("| verification | per CPU-second | OpenSSL (Python cryptography) | ratio |")
        print("|---|---|---|---|")
        for (name, rates, key) in [("P-256 (ES256)", p256Rates, "p256"), ("P-384 (certificates)", p384Rates, "p384")] {
            let ours = Statistics.median(rates)
            let theirs = openSSL?[key].map(Statistics.median)
            print(
                "| \(name) | \(spread(rates)) | \(openSSL?[key].map(spread) ?? "not installed") | "
                    + "\(theirs.map { format(ours / $0, 2) + "×" } ?? "") |")
        }
        try wholeJWS(seconds: seconds, rounds: rounds)
        try convert(executable: executable, runs: rounds)
    }

    /// "median (min–max)", whole numbers.
    private static func spread(_ values: [Double]) -> String {
        guard let low = values.min(), let high = values.max() else { return "" }
        return "\(format(Statistics.median(values), 0)) (\(format(low, 0))–\(format(high, 0)))"
    }

    /// One signed fixture verified again and again: with its chain cached, and with a new verifier each time.
    private static func wholeJWS(seconds: Double, rounds: Int) throws {
        let signed = repository.appendingPathComponent("Fixtures/appstore/signed")
        let root = try Data(contentsOf: signed.appendingPathComponent("test-root.der"))
        let listing = try Data(contentsOf: signed.appendingPathComponent("transactions.json"))
        guard let jws = (try JSONSerialization.jsonObject(with: listing) as? [String])?.first else {
            throw BenchFailure("no JWS in \(signed.path)/transactions.json")
        }
        let warm = AppStoreJWSVerifier(rootCertificates: [root])
        var warmRates: [Double] = []
        var coldRates: [Double] = []
        for _ in 0..<rounds {
            warmRates.append(measure(seconds: seconds) { (try? warm.verify(jws, path: .root)) != nil })
            coldRates.append(
                measure(seconds: seconds) {
                    (try? AppStoreJWSVerifier(rootCertificates: [root]).verify(jws, path: .root)) != nil
                })
        }
        print("| a whole JWS, chain cached (warm) | \(spread(warmRates)) | | |")
        print("| a whole JWS, chain checked (cold) | \(spread(coldRates)) | | |")
    }

    /// `convert --from appstore` on a fresh corpus against the chain-cached Python script.
    private static func convert(executable: String, runs: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "entitlements-bench-jws-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 2_000
        guard python(["corpus", directory.path, String(count)]) != nil else {
            return print("\n(convert comparison skipped: python3 with cryptography is not installed)")
        }
        let history = directory.appendingPathComponent("history.json").path
        let root = directory.appendingPathComponent("root.der").path
        let tool = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("entitlements")
        var ours: [Double] = []
        var oursWall: [Double] = []
        var theirs: [Double] = []
        var theirsWall: [Double] = []
        for _ in 0..<runs {
            let (cpu, wall) = try childTimes {
                _ = try Subprocess.run(
                    tool.path,
                    [
                        "convert", "--from", "appstore", "--root-certificate", root, "--at", "2030-01-01T00:00:00Z",
                        history,
                    ])
            }
            ours.append(cpu)
            oursWall.append(wall)
            guard let output = python(["verify", history, root]),
                let figures = try JSONSerialization.jsonObject(with: output) as? [String: Double],
                let seconds = figures["cpuSeconds"], let wallSeconds = figures["seconds"]
            else { throw BenchFailure("the Python verifier did not run") }
            theirs.append(seconds)
            theirsWall.append(wallSeconds)
        }
        let (ourRate, theirRate) = (Double(count) / Statistics.median(ours), Double(count) / Statistics.median(theirs))
        print("\n\(runs) runs each, alternating; medians\n")
        print("| \(count) distinct JWS of one chain | JWS per CPU-second | JWS per second (wall) |")
        print("|---|---|---|")
        print(
            "| entitlements convert --from appstore (whole process) | \(format(ourRate, 0)) | "
                + "\(format(Double(count) / Statistics.median(oursWall), 0)) |")
        print(
            "| Python cryptography, chains cached (verification loop) | \(format(theirRate, 0)) | "
                + "\(format(Double(count) / Statistics.median(theirsWall), 0)) |")
        print("| ratio | \(format(ourRate / theirRate, 2))× | |")
    }

    /// The CPU seconds (user + system) and wall seconds `body`'s child processes take.
    private static func childTimes(_ body: () throws -> Void) throws -> (Double, Double) {
        func children() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return seconds(usage.ru_utime) + seconds(usage.ru_stime)
        }
        let (cpu, wall) = (children(), Date())
        try body()
        return (children() - cpu, Date().timeIntervalSince(wall))
    }

    /// The output of `python/appstore_jws.py arguments`, or nil when Python or `cryptography` is missing.
    private static func python(_ arguments: [String]) -> Data? {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("python/appstore_jws.py").path
        return (try? Subprocess.run("/usr/bin/env", ["python3", script] + arguments)).map { Data($0.utf8) }
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Checks per CPU-second, counting only checks that succeeded (a failure would mean a broken build).
    private static func measure(seconds: Double, _ check: () -> Bool) -> Double {
        let start = Machine.cpuSeconds
        var count = 0
        while Machine.cpuSeconds - start < seconds {
            for _ in 0..<10 {
                guard check() else { return .nan }
                count += 1
            }
        }
        return Double(count) / (Machine.cpuSeconds - start)
    }

    private static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }

    private static let p256Key =
        "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
        + "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"
    private static let p256Signature =
        "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
        + "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
    private static let p384Key =
        "04ec3a4e415b4e19a4568618029f427fa5da9a8bc4ae92e02e06aae5286b300c64def8f0ea9055866064a254515480bc13"
        + "8015d9b72d7d57244ea8ef9ac0c621896708a59367f9dfb9f54ca84b3f1c9db1288b231c3ae0d4fe7344fd2533264720"
    private static let p384Signature =
        "94edbb92a5ecb8aad4736e56c691916b3f88140666ce9fa73d64c4ea95ad133c81a648152e44acf96e36dd1e80fabe46"
        + "99ef4aeb15f178cea1fe40db2603138f130e740a19624526203b6351d0a3a94fa329c145786e679e7b82c71a38628ac8"
}
