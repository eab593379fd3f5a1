import EntitlementKit
import EntitlementKitMigration
import Foundation

/// Checks on the corpus that the direct canonical encoder writes the bytes the general tree writer
/// writes, so a figure is never bought with a different output.
enum EncoderCheck {
    static func report(corpusPath: String, name: String, limit: Int = 2_000) throws {
        var reader = JSONLinesReader(data: try Data(contentsOf: URL(fileURLWithPath: corpusPath)))
        var checked = 0
        var differing = 0
        while checked < limit, let line = try reader.next() {
            guard case .success(let snapshot) = ChildRun.decoder.snapshot(of: line, at: ChildRun.instant) else {
                continue
            }
            checked += 1
            if snapshot.canonicalJSONData(compact: true) != Data(snapshot.jsonValue.compactText.utf8) {
                differing += 1
            }
        }
        print("- canonical encoder vs tree writer on \(name): \(checked - differing) of \(checked) records identical")
    }
}
