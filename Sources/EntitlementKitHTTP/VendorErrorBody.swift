import EntitlementKit
import Foundation

extension VendorErrorDetail {
    /// The `code` (a number or a string) and `message` of the error object `locate` finds in `body`
    /// (RevenueCat: the top level; Qonversion: `error`); empty when the body is not JSON or holds none.
    package init(body: Data, locate: (JSONValue) -> JSONValue? = { $0 }) {
        self.init()
        guard let document = try? JSONNode(parsing: body).value, let object = locate(document) else { return }
        switch object["code"] {
        case .integer(let code)?: self.code = String(code)
        case .string(let code)?: self.code = code
        default: break
        }
        if case .string(let message)? = object["message"] { self.message = message }
    }
}
