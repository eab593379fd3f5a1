// The core's API throws `DocumentError`, takes and returns `JSONValue`/`JSONPath`, and the README's quick
// start parses a date with `RFC3339` under `import EntitlementKit` alone: those types live in
// EntitlementKitJSON (so the JSON layer builds and fuzzes on its own), and an app importing the core must
// still see them. Swift has no stable spelling for a re-export yet, hence the underscored attribute.
@_exported import EntitlementKitJSON
