/// Exit statuses, from `sysexits.h` where one fits.
enum ExitStatus: Int32 {
    /// Success; for `check`, `diff`, `parity` also "no (access) difference".
    case success = 0
    /// The answer is "no": an entitlement is not active, access differs or parity is not proven, an id is
    /// not usable.
    case negative = 1
    /// EX_USAGE: wrong arguments.
    case usage = 64
    /// EX_DATAERR: a document or a record could not be read.
    case dataError = 65
    /// EX_NOINPUT: an input file cannot be opened.
    case noInput = 66
    /// EX_UNAVAILABLE: the backend could not be reached or did not answer (`fetch`).
    case unavailable = 69
    /// EX_CANTCREAT: the output file cannot be created.
    case cannotCreate = 73
    /// EX_IOERR: writing the output failed.
    case ioError = 74
    /// EX_NOPERM: the backend refused the API key (`fetch`).
    case noPermission = 77
}

/// A failure that ends the command: one message on standard error, then the status.
struct CommandFailure: Error {
    var status: ExitStatus
    /// The text after `error: `.
    var message: String
    /// For usage errors: the command whose `--help` the hint names.
    var usageOf: String?

    static func usage(_ message: String, command: String) -> CommandFailure {
        CommandFailure(status: .usage, message: message, usageOf: command)
    }
}
