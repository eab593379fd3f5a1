import Foundation

/// The shape every vendored Wycheproof signature file shares (see Wycheproof/README.md): groups of vectors
/// under one public key, whose members differ by algorithm (`Key`).
struct WycheproofVectorFile<Key: Decodable>: Decodable {
    struct Group: Decodable {
        let publicKey: Key
        let sha: String
        let tests: [Vector]
    }
    struct Vector: Decodable {
        let tcId: Int
        let comment: String
        let msg: String
        let sig: String
        let result: String
    }

    let numberOfTests: Int
    let testGroups: [Group]

    /// The file `name`.json of the test bundle's Wycheproof folder.
    static func named(_ name: String) throws -> Self {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Wycheproof") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Wycheproof/\(name).json"])
        }
        return try JSONDecoder().decode(Self.self, from: Data(contentsOf: url))
    }
}
