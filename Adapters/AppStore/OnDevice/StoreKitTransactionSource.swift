// Apple's systems only: Linux has no StoreKit, so this file is not compiled on this project's CI (Linux).
// Every StoreKit symbol it names is listed, with its availability, in docs/Platforms.md.
#if canImport(StoreKit)
    import EntitlementKit
    import StoreKit

    /// StoreKit 2 as a ``SignedTransactionSource``: the JWS StoreKit holds for the device's Apple account.
    ///
    /// - ``currentEntitlements()``: `Transaction.currentEntitlements`, each `jwsRepresentation`, and for each
    ///   auto-renewable subscription among them the renewal info of its group
    ///   (`Product.SubscriptionInfo.status(for:)`, each status's `renewalInfo.jwsRepresentation`), which says
    ///   whether it renews and how long a billing issue's grace lasts. A group whose status cannot be read is
    ///   left without (its renew state is then unknown; access still comes from the transaction).
    /// - ``transactionUpdates()``: `Transaction.updates`, each `jwsRepresentation`.
    /// - ``sync()``: `AppStore.sync()`, which may ask the user to sign in: call it from a Restore button only.
    ///
    /// It passes on what StoreKit hands over, verified or not: ``AppStoreOnDeviceProvider`` verifies every JWS
    /// itself. It never finishes a transaction: the app does, where it delivers content.
    public struct StoreKitTransactionSource: SignedTransactionSource {
        /// The device's StoreKit.
        public init() {}

        public func currentEntitlements() async throws(EntitlementClientError) -> [String] {
            var signed: [String] = []
            var groups: Set<String> = []
            for await result in Transaction.currentEntitlements {
                signed.append(result.jwsRepresentation)
                // Only to find the subscription groups; whether it verifies is the provider's question.
                let transaction = result.unsafePayloadValue
                if transaction.productType == .autoRenewable, let group = transaction.subscriptionGroupID {
                    groups.insert(group)
                }
            }
            for group in groups.sorted() {
                guard let statuses = try? await Product.SubscriptionInfo.status(for: group) else { continue }
                signed += statuses.map(\.renewalInfo.jwsRepresentation)
            }
            return signed
        }

        public func transactionUpdates() -> AsyncStream<String> {
            AsyncStream { continuation in
                let relay = Task {
                    for await result in Transaction.updates { continuation.yield(result.jwsRepresentation) }
                    continuation.finish()
                }
                continuation.onTermination = { _ in relay.cancel() }
            }
        }

        public func sync() async throws(EntitlementClientError) {
            do {
                try await AppStore.sync()
            } catch let error as StoreKitError {
                switch error {
                case .networkError:
                    throw EntitlementClientError(.offline, "the App Store could not be reached")
                case .userCancelled:
                    throw EntitlementClientError(.credentialsRefused, "the user cancelled the App Store sign-in")
                default:
                    throw EntitlementClientError(.backendUnavailable, "the App Store sync failed: \(error)")
                }
            } catch {
                throw EntitlementClientError(.backendUnavailable, "the App Store sync failed: \(error)")
            }
        }
    }
#endif
