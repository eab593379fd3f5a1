import EntitlementKit
import EntitlementKitGooglePlay
import Foundation

/// `--pubsub-audience AUD --pubsub-service-account EMAIL --google-keys JWKS-FILE`: how `ledger replay`
/// authenticates Play's Pub/Sub pushes (each line's `headers` carry the token). All three or none.
enum PubSubPushOptions {
    static let names = ["--pubsub-audience", "--pubsub-service-account", "--google-keys"]

    static func authentication(
        _ arguments: ParsedArguments, command: String
    ) throws(CommandFailure) -> GooglePlayPushAuthentication? {
        let values = names.map { arguments.value($0) }
        if values.allSatisfy({ $0 == nil }) { return nil }
        guard let audience = values[0], let email = values[1], let keysPath = values[2] else {
            let missing = zip(names, values).filter { $0.1 == nil }.map(\.0).joined(separator: ", ")
            throw .usage("\(names.joined(separator: ", ")) go together: \(missing) missing", command: command)
        }
        for (name, value) in zip(names, values) where value?.isEmpty == true {
            throw .usage("\(name): an empty value", command: command)
        }
        let input = InputFile(argument: keysPath)
        let data: Data
        do {
            data = try input.readAll()
        } catch {
            throw CommandFailure(status: error.status, message: "--google-keys: " + error.message)
        }
        do {
            let keys = try GoogleSigningKeys(jwks: data)
            return GooglePlayPushAuthentication(audience: audience, serviceAccountEmail: email, keys: keys)
        } catch {
            throw .usage(
                "--google-keys: \(input.displayName): is not a JWKS document of RSA keys: \(error)", command: command)
        }
    }
}
