import Foundation
import OwnBackendServerCore

// Configuration from the environment only; an unusable setting is one line on stderr and exit 78.
let configuration: ServerConfiguration
do {
    configuration = try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(78)
}
do {
    try await OwnBackendServer.run(configuration)
} catch {
    FileHandle.standardError.write(Data("own-backend-server: \(error)\n".utf8))
    exit(1)
}
