import EntitlementKit
import EntitlementKitStripe
import Foundation

/// `--stripe-signature HEADER --webhook-secret-file FILE… [--webhook-tolerance SECONDS]` on `convert` and
/// `check`: the document is a Stripe webhook body, verified before it is read (stripe-mapping.md, Webhooks).
///
/// The two go together (one without the other is usage, 64); the payload is the file's exact bytes; the
/// instant received is `--at` (default now); a failed check is a document error (65, nothing on stdout). The
/// tolerance is a whole number of seconds ≥ 1, 300 by default, and cannot turn the check off.
enum StripeWebhookOptions {
    static let signature = "--stripe-signature"
    static let tolerance = "--webhook-tolerance"

    static let definitions: [CommandDefinition.Option] = [
        .init(
            name: signature, valueName: "HEADER",
            help:
                "Stripe: FILE is a webhook body; verify it with this Stripe-Signature header (needs --webhook-secret-file)."
        ),
        .init(
            name: WebhookSecretFiles.option, valueName: "FILE",
            help: "Stripe: a file holding a webhook endpoint secret whsec_… (repeatable: any of them verifies).",
            repeatable: true),
        .init(
            name: tolerance, valueName: "SECONDS",
            help: "Stripe: how far the signature's timestamp may be from --at, either way. Default: 300."),
    ]

    /// The snapshot of `input`: the verified webhook when these options are given, else the document as
    /// `context` reads it.
    static func snapshot(
        _ arguments: ParsedArguments, of input: InputFile, format: ProviderID?, at instant: Date,
        context: CommandContext, command: String
    ) throws(CommandFailure) -> EntitlementSnapshot {
        if let verified = try webhookSnapshot(arguments, of: input, format: format, at: instant, command: command) {
            return verified
        }
        return try context.snapshot(of: input, format: format, at: instant)
    }

    /// The snapshot of the verified webhook in `input` when the options are given, else `nil`.
    static func webhookSnapshot(
        _ arguments: ParsedArguments, of input: InputFile, format: ProviderID?, at instant: Date, command: String
    ) throws(CommandFailure) -> EntitlementSnapshot? {
        let header = arguments.value(signature)
        let secretsGiven = !arguments.allValues(WebhookSecretFiles.option).isEmpty
        let toleranceText = arguments.value(tolerance)
        guard header != nil || secretsGiven || toleranceText != nil else { return nil }
        guard let header, secretsGiven else {
            throw .usage(
                "\(signature) and \(WebhookSecretFiles.option) go together: a webhook is verified with both",
                command: command)
        }
        if let format, format != .stripe {
            throw .usage("\(signature) verifies a Stripe webhook: use --from stripe", command: command)
        }
        var seconds = StripeWebhookVerifier.defaultTolerance
        if let toleranceText {
            guard toleranceText.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(toleranceText), value >= 1
            else {
                throw .usage(
                    "\(tolerance): \(ArgumentQuoting.json(toleranceText)) is not a whole number of seconds of at least 1",
                    command: command)
            }
            seconds = value
        }
        let secrets = try WebhookSecretFiles.secrets(arguments, command: command)
        let store = try StoreOptions(arguments, command: command)
        let payload = try input.readAll()
        do {
            let event = try StripeWebhookVerifier(secrets: secrets, tolerance: seconds).verify(
                payload: Array(payload), signatureHeader: header, at: instant)
            let adapter = StripeAdapter(
                configuration: .init(catalog: store.catalog, appUserIdMetadataKey: store.appUserIdMetadataKey))
            do {
                return try adapter.snapshot(from: event, at: instant)
            } catch {
                throw CommandFailure(status: .dataError, message: "\(input.displayName): \(error)")
            }
        } catch let error as StripeWebhookError {
            throw CommandFailure(status: .dataError, message: "\(input.displayName): \(error)")
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(status: .dataError, message: "\(input.displayName): \(error)")
        }
    }
}
