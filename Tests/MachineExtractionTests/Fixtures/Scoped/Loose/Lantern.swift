// Uses Shared's names without importing Shared: they are not visible here.
final class Lantern {
    var beacon: Beacon = .dark

    func handle(_ trigger: Trigger) {
        switch (beacon, trigger) {
        case (.dark, .on): beacon = .lit
        default: break
        }
    }
}
