/// Something in the code shaped like a state machine, and what became of it: a machine, or a
/// diagnostic that says why not (`machine-viz list --explain`). Nothing shaped like a machine is
/// passed over in silence.
public struct Candidate: Codable, Hashable, Sendable {
    public enum Outcome: String, Codable, Hashable, Sendable {
        /// One or more machines were read from it.
        case machine
        /// No machine: `reason` says why (the same text is a diagnostic of the run).
        case diagnostic
    }

    /// The shape that made it a candidate (`@Reducer`, `Reduce { }`, `construction`, `operator table`, …).
    public var shape: String
    /// The declaration or variable it belongs to.
    public var name: String
    public var location: SourceLocation
    public var outcome: Outcome
    /// Ids of the machines read from it.
    public var machines: [String]
    /// Why no machine was read from it.
    public var reason: String?

    public init(shape: String, name: String, location: SourceLocation, outcome: Outcome, machines: [String] = [], reason: String? = nil) {
        self.shape = shape
        self.name = name
        self.location = location
        self.outcome = outcome
        self.machines = machines
        self.reason = reason
    }
}
