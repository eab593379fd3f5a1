import EntitlementKit
import EntitlementKitMigration
import Foundation
import Synchronization
import Testing

@Suite("BulkMigration and OrderedLineProcessor: streaming, ordered, parallel", .timeLimit(.minutes(5)))
struct BulkMigrationTests {
    let decoder = SnapshotDecoder(adapters: [ToyAdapter()])

    /// `count` toy records for users u1…uN; line numbers in `bad` hold a broken record instead.
    func export(count: Int, bad: [Int: String] = [:]) -> String {
        (1...count).map { number in
            bad[number]
                ?? #"{"appUserId": "u\#(number)", "response": {"toy": {"entitlements": [{"id": "premium", "expires": null}]}}}"#
        }.joined(separator: "\n") + "\n"
    }

    func run(_ text: String, jobs: Int, window: Int? = nil) throws -> (
        output: [String], failures: [LineFailure], summary: MigrationSummary
    ) {
        var reader = JSONLinesReader(data: Data(text.utf8), maximumLineLength: 400)
        var output: [String] = []
        var failures: [LineFailure] = []
        let migration = BulkMigration(decoder: decoder, at: TestValues.now)
        let summary = try migration.run(
            &reader, processor: OrderedLineProcessor(jobs: jobs, windowLineCount: window),
            write: { output.append(String(decoding: $0, as: UTF8.self)) },
            failed: { failures.append($0) })
        return (output, failures, summary)
    }

    func appUserIds(_ lines: [String]) throws -> [String] {
        try lines.map { line in
            guard case .string(let id) = try JSONValue.parse(line)["appUserId"] else { return "?" }
            return id
        }
    }

    @Test(arguments: [(1, nil), (2, nil), (4, 3), (7, 5), (3, 1)] as [(Int, Int?)])
    func outputKeepsInputOrderWhateverTheJobsAndWindow(jobs: Int, window: Int?) throws {
        let result = try run(export(count: 200), jobs: jobs, window: window)
        #expect(try appUserIds(result.output) == (1...200).map { "u\($0)" })
        #expect(result.output.allSatisfy { $0.hasSuffix("}\n") && !$0.dropLast().contains("\n") })
        #expect(
            result.summary
                == {
                    var s = MigrationSummary()
                    s.records = 200
                    s.converted = 200
                    return s
                }())
    }

    @Test(arguments: [1, 2, 4])
    func badLinesInTheMiddleAreReportedWithTheirNumbersAndSkipped(jobs: Int) throws {
        let bad = [
            3: #"{"appUserId": "u3", "response": {"toy": {"entitlements": [{"id": "premium", "expires": "soon"}]}}}"#,
            4: #"{"appUserId": "u4", "response": {"toy": "#,
            50: #"{"subscriber": {}}"#,
            51: #"{"appUserId": "u51", "response": {"toy": {"entitlements": [{"id": "premium", "expires": null}]}}, "#
                + #""padding": ""# + String(repeating: "p", count: 400) + #""}"#,
        ]
        let result = try run(export(count: 60, bad: bad), jobs: jobs, window: 7)
        #expect(result.failures.map(\.line) == [3, 4, 50, 51])
        #expect(
            result.failures[0].description
                == #"line 3: response.toy.entitlements[0].expires: "soon" is not an ISO 8601 date"#)
        #expect(result.failures[1].error.kind == .syntax)
        #expect(result.failures[1].error.line == nil)
        #expect(result.failures[2].description == "line 50: $: is not a document of any known format (toy, unified)")
        let longLength = bad[51].map { $0.utf8.count } ?? 0
        #expect(
            result.failures[3].description
                == "line 51: $: is \(longLength) bytes long, over the limit of 400 bytes for one record; skipped unread"
        )
        let expected = (1...60).filter { ![3, 4, 50, 51].contains($0) }.map { "u\($0)" }
        #expect(try appUserIds(result.output) == expected)
        #expect(result.summary.records == 60)
        #expect(result.summary.converted == 56)
        #expect(result.summary.failed == 4)
        #expect(result.summary.description == "60 records: 56 converted, 4 failed")
    }

    @Test func theProcessorDeliversEveryLineOnceInOrderEvenWhenWorkVaries() throws {
        let text = (1...1000).map(String.init).joined(separator: "\n")
        var reader = JSONLinesReader(data: Data(text.utf8))
        var delivered: [Int] = []
        try OrderedLineProcessor(jobs: 4, windowLineCount: 37).run(
            &reader,
            transform: { line -> Int in
                // Uneven work, so workers finish out of order.
                var spin = 0
                for step in 0..<((line.number % 7) * 2000) { spin &+= step }
                return line.number + (spin == -1 ? 1 : 0)
            },
            deliver: { line, output in
                #expect(line.number == output)
                delivered.append(output)
            })
        #expect(delivered == Array(1...1000))
    }

    @Test func aWindowIsAlsoBoundedByBytes() throws {
        let text = (1...10).map { _ in String(repeating: "z", count: 100) }.joined(separator: "\n")
        // How many lines had been transformed when each line was delivered. A window is transformed whole
        // before any of it is delivered, and at most one more window is read ahead meanwhile (reading,
        // transforming and delivering overlap), so this shows where each window ended.
        func transformedAtEachDelivery(windowByteCount: Int) throws -> [Int] {
            var reader = JSONLinesReader(data: Data(text.utf8))
            let transformed = Mutex(0)
            var seen: [Int] = []
            let processor = OrderedLineProcessor(jobs: 1, windowLineCount: 100, windowByteCount: windowByteCount)
            try processor.run(
                &reader,
                transform: { line -> Int in
                    transformed.withLock { $0 += 1 }
                    return line.number
                },
                deliver: { _, _ in
                    seen.append(transformed.withLock { $0 })
                })
            return seen
        }
        // 250 bytes hold three 100-byte lines: windows end at lines 3, 6, 9 and 10.
        let windowEnds = [3, 3, 3, 6, 6, 6, 9, 9, 9, 10]
        let seen = try transformedAtEachDelivery(windowByteCount: 250)
        for (index, count) in seen.enumerated() {
            let end = windowEnds[index]
            #expect(count >= end, "line \(index + 1) delivered before its window was transformed")
            #expect(count <= min(10, end + 3), "line \(index + 1): more than one window read ahead")
        }
        #expect(seen.count == 10)
        #expect(try transformedAtEachDelivery(windowByteCount: 1 << 20) == Array(repeating: 10, count: 10))
    }

    @Test func aWorkerThatIsHeldUpDelaysOnlyTheChunkItIsOn() throws {
        // One window of 64 lines on 2 workers. Transforming line 1 waits until every line after the first
        // chunk of 16 has been transformed. Workers that take the next untaken chunk let the other worker
        // do all of them; chunks dealt out in fixed turns would leave lines 33–48 behind the held worker,
        // and line 1 would wait for them until its (bounded) wait gives up.
        let text = (1...64).map(String.init).joined(separator: "\n")
        var reader = JSONLinesReader(data: Data(text.utf8))
        let laterLines = DispatchSemaphore(value: 0)
        var delivered: [Bool] = []
        try OrderedLineProcessor(jobs: 2, windowLineCount: 64).run(
            &reader,
            transform: { line -> Bool in
                if line.number > 16 { laterLines.signal() }
                guard line.number == 1 else { return true }
                for _ in 17...64 {
                    if laterLines.wait(timeout: .now() + 10) == .timedOut { return false }
                }
                return true
            },
            deliver: { _, finished in delivered.append(finished) })
        #expect(delivered == Array(repeating: true, count: 64))
    }
}
