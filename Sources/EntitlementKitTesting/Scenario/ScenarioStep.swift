/// One step of a story: exactly one action and what the app must see after it.
public struct ScenarioStep: Sendable, Hashable {
    /// Counted from 1.
    public var number: Int
    /// What happens.
    public var action: ScenarioAction
    /// What must hold afterwards (only the keys given).
    public var expectations: ScenarioExpectations

    /// Creates a step.
    public init(number: Int, action: ScenarioAction, expectations: ScenarioExpectations = ScenarioExpectations()) {
        self.number = number
        self.action = action
        self.expectations = expectations
    }
}
