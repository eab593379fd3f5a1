import Foundation

/// A JSON object or array written as Swift literals (`["productId": "pro", "lineItems": [...]]`), as bytes
/// with sorted keys.
///
/// Test inputs are literals: a value `JSONSerialization` cannot write is a bug in the test, and stops the run.
public func json(_ object: Any) -> Data {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
        preconditionFailure("not JSON: \(object)")
    }
    return data
}
