// A library module that declares its generic machine type with a member typealias.
public final class Automaton<Input, State> {
    public typealias Mapping = (Input, State) -> State?
    public init(state: State, mapping: @escaping Mapping) {}
}
