import ComposableArchitecture
import SwiftUI

// A preview starts the Mixer in `.whisking`: that says nothing about the Grinder.
#Preview {
    MixerView(store: Store(initialState: Mixer.State(speed: .whisking)) { Mixer() })
}
