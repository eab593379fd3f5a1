// `ECDSAPublicKey`, `ECDSACurve` and `ECDSAKeyError` were this module's API before the primitives moved to
// EntitlementKitCrypto (shared with the core's cache seal and the Stripe adapter); an app importing the App
// Store adapter still sees them.
@_exported import EntitlementKitCrypto
