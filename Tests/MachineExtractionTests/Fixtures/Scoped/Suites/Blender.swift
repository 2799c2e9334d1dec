import ComposableArchitecture

// The body names its state and action types: `some Reducer<BlenderState, BlenderAction>`.
struct BlenderState { var pulse: Pulse = .idle }
enum Pulse { case idle, chopping }
enum BlenderAction { case press, release }

@Reducer
struct Blender<Tag> {
    var body: some Reducer<BlenderState, BlenderAction> {
        Reduce { state, action in
            switch action {
            case .press: state.pulse = .chopping
            case .release: state.pulse = .idle
            }
            return .none
        }
    }
}
