import Foundation

/// `--webhook-secret-file FILE` (repeatable): Stripe webhook endpoint secrets, one per file.
///
/// A file's trailing spaces, tabs, CR and LF are removed (an editor's final newline); what remains must start
/// with `whsec_` and hold no whitespace, else it is a usage error (64): a secret with a stray space would
/// never match and every webhook would be refused. An unreadable file is 66.
enum WebhookSecretFiles {
    static let option = "--webhook-secret-file"

    /// The secrets of every `--webhook-secret-file`, in the order given.
    static func secrets(_ arguments: ParsedArguments, command: String) throws(CommandFailure) -> [String] {
        var secrets: [String] = []
        for path in arguments.allValues(option) {
            let input = InputFile(argument: path)
            let data: Data
            do {
                data = try input.readAll()
            } catch {
                throw CommandFailure(status: error.status, message: "\(option): " + error.message)
            }
            var bytes = Array(data)
            while let last = bytes.last, [0x20, 0x09, 0x0D, 0x0A].contains(last) { bytes.removeLast() }
            guard let secret = String(validating: bytes, as: UTF8.self), secret.hasPrefix("whsec_"),
                !secret.unicodeScalars.contains(where: \.properties.isWhitespace)
            else {
                throw .usage(
                    "\(option): \(input.displayName): is not a webhook secret (whsec_… without whitespace)",
                    command: command)
            }
            secrets.append(secret)
        }
        return secrets
    }
}
