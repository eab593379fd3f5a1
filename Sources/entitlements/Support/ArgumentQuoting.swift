import EntitlementKit

/// How an error quotes what the user typed: on one line and cut to `DocumentError.maximumValueLength`
/// characters, as values from documents are, so a pasted document or a 100 KB argument never floods the
/// terminal.
enum ArgumentQuoting {
    /// `text` as a JSON string (`"next tuesday"`), cut with `…` past the limit.
    static func json(_ text: String) -> String {
        DocumentError.quoted(text)
    }

    /// `text` between single quotes (`'validate'`), control characters shown as `?`, cut with `…`.
    static func plain(_ text: String) -> String {
        let printable = String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return DocumentError.shortened("'" + printable + "'")
    }

}
