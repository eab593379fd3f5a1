import EntitlementKit
import EntitlementKitLedger
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A helper process for the ledger's crash tests:
//
//   ledger-writer-for-tests DIRECTORY
//     Applies logIn after logIn to a DirectoryLedgerStore in DIRECTORY — input N logs the anonymous id
//     number N in to `user-N` (a new customer and its alias: four rows in one transaction) — and says
//     "applied N" after each, until it is killed.
//   ledger-writer-for-tests DIRECTORY die-at STAGE N
//     The same, but the process kills itself (SIGKILL) at STAGE of input N's commit: a stage of its
//     append to the log (partlyAppended, appended, synced), or of a compaction's new file (partlyWritten,
//     renamed).
//   ledger-writer-for-tests DIRECTORY batched [die-at STAGE N]
//     Either, with a store that syncs in batches (`DirectoryLedgerStore.Syncing.batched`).
//   ledger-writer-for-tests DIRECTORY compacting [die-at STAGE N]
//     Either, with a store that compacts its log past 4 KiB, and after each input a 1 KiB row
//     (`counters`/`padding`) written again, so that compactions come every few inputs.
// STAGE N: the first time the store reaches STAGE at input N or later (a compaction's stages come only
// at some inputs; input 0 is the store's opening, where an earlier layout is converted).

var arguments = Array(CommandLine.arguments.dropFirst())
let batched = arguments.count > 1 && arguments[1] == "batched"
if batched { arguments.remove(at: 1) }
let compacting = arguments.count > 1 && arguments[1] == "compacting"
if compacting { arguments.remove(at: 1) }
guard arguments.count == 1 || (arguments.count == 4 && arguments[1] == "die-at"), let directory = arguments.first
else {
    FileHandle.standardError.write(
        Data("usage: ledger-writer-for-tests DIRECTORY [batched] [compacting] [die-at STAGE N]\n".utf8))
    exit(64)
}

/// The anonymous id of input `number`.
func anonymousId(_ number: Int) -> String {
    let digits = String(number, radix: 16)
    return "$RCAnonymousID:" + String(repeating: "0", count: 32 - digits.count) + digits
}

final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    var input: Int {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }
}

let progress = Progress()
let dieAt = arguments.count == 4 ? (stage: arguments[2], input: Int(arguments[3]) ?? 0) : nil

@Sendable func reached(_ stage: String) {
    if let dieAt, dieAt.stage == stage, progress.input >= dieAt.input { kill(getpid(), SIGKILL) }
}

let store = try DirectoryLedgerStore(
    directory: URL(fileURLWithPath: directory), syncing: batched ? .batched : .everyCommit,
    commitStageObserver: { reached($0.rawValue) },
    writeStageObserver: { reached($0.rawValue) }, compactionMinimumSize: compacting ? 4_096 : 8 << 20)
let ledger = EntitlementLedger(sources: [], store: store)
let done = DispatchSemaphore(value: 0)
Task.detached {
    var number = 1
    do {
        while true {
            progress.input = number
            _ = try await ledger.logIn(from: anonymousId(number), to: "user-\(number)")
            FileHandle.standardOutput.write(Data("applied \(number)\n".utf8))
            if compacting {
                let padding = Data(repeating: UInt8(truncatingIfNeeded: number), count: 1_024)
                try await store.transaction { transaction throws(LedgerRefusal) in
                    try await transaction.setValue(padding, in: .counters, key: "padding")
                }
            }
            number += 1
        }
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(70)
    }
}
done.wait()
