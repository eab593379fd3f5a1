import EntitlementKit
import EntitlementKitMigration
import Foundation

// A closed pipe must end the run through EPIPE and a clean exit, never through a signal.
signal(SIGPIPE, SIG_IGN)

let context = CommandContext(
    decoder: SnapshotDecoder(adapters: builtInAdapters),
    clock: SystemClock(),
    output: OutputStream(descriptor: STDOUT_FILENO)
)
let status = Tool.run(Array(CommandLine.arguments.dropFirst()), context: context)
StandardError.clearProgress()
exit(status.rawValue)
