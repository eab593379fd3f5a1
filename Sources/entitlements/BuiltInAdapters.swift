import EntitlementKit
import EntitlementKitQonversion

/// The vendor formats the tool reads, besides the unified form. The one place to add a backend.
let builtInAdapters: [any EntitlementAdapter] = [QonversionAdapter()]
