import MachineModel
import XCTest

/// Shapes found in probes of session 42: cases compiled in some builds only. Made-up identifiers.
final class BuildAndSpellingTests: XCTestCase {
    /// A `case` under `#if DEBUG` is there in debug builds only: the `default` after it still takes its
    /// pairs in other builds (no `shadowed_rule`), and the `#else` clause's case is read too, each edge
    /// guarded by its build condition.
    func testSwitchCasesUnderIfConfigAreConditional() throws {
        let a = Analysed.source("""
        enum Lamp { case off, dim, bright, broken }
        enum Knob { case turn, debug }
        final class Desk {
            var lamp: Lamp = .off
            func handle(_ k: Knob) {
                switch (lamp, k) {
                case (.off, .turn): lamp = .dim
                case (.dim, .turn): lamp = .bright
                case (.bright, .turn): lamp = .off
                #if DEBUG
                case (_, .debug): lamp = .off
                #else
                case (.bright, .debug): lamp = .broken
                #endif
                default: break
                }
            }
        }
        """)
        let m = try a.machine("Desk.lamp")
        XCTAssertEqual(m.moves, ["off -turn-> dim", "dim -turn-> bright", "bright -turn-> off", "dim -debug-> off",
                                 "bright -debug-> off", "broken -debug-> off", "bright -debug-> broken"])
        XCTAssertEqual(m.findingSet.filter { $0.hasPrefix("shadowed_rule") || $0.hasPrefix("unreachable_state") }, [])
        let guards = Set(m.edges.compactMap { edge in m.rules.first { $0.id == edge.rule }?.branches(behind: edge).guardText })
        XCTAssertTrue(guards.contains("#if DEBUG") && guards.contains("#if !(DEBUG)"), "\(guards)")
    }
}
