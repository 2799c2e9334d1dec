import MachineModel
import XCTest

/// Shapes of everyday code: steps through `allCases` kept in locals, closures a queue runs at once whatever
/// they capture, and defaults of constrained protocol extensions. Made-up identifiers.
final class EverydayShapeTests: XCTestCase {
    /// The guard texts drawn on a machine's edges.
    func guards(_ m: Machine) -> [String] {
        m.edges.compactMap { edge in m.rules.first { $0.id == edge.rule }?.branches(behind: edge).guardText }
    }

    /// An enum's `var next` finding its position in a local `allCases`, guarded by a comparison of
    /// positions, and `!= Stage.allCases.last`: each case to the next, decided per state (no guard text).
    func testAllCasesPositionsComparedPerState() throws {
        let a = Analysed.source("""
        enum Page: CaseIterable {
            case cover, body, appendix, back
            var next: Page? {
                let all = Self.allCases
                guard let i = all.firstIndex(of: self), i + 1 < all.count else { return nil }
                return all[i + 1]
            }
        }
        final class Reader {
            private var page: Page = .cover
            func turn() {
                guard let next = page.next else { return }
                page = next
            }
        }
        enum Leg: CaseIterable { case outbound, layover, inbound }
        final class Trip {
            private var leg: Leg = .outbound
            func advance() {
                if leg != Leg.allCases.last, let i = Leg.allCases.firstIndex(of: leg) { leg = Leg.allCases[i + 1] }
            }
        }
        """)
        let reader = try a.machine("Reader.page")
        XCTAssertEqual(reader.moves, ["cover -turn()-> body", "body -turn()-> appendix", "appendix -turn()-> back"])
        XCTAssertEqual(guards(reader), [])
        let trip = try a.machine("Trip.leg")
        XCTAssertEqual(trip.moves, ["outbound -advance()-> layover", "layover -advance()-> inbound"])
        XCTAssertEqual(guards(trip), [])
    }

    /// `queue.sync { [unowned self] in … }` runs before `sync` returns: its write is the method's own, and
    /// no later `callback` input appears.
    func testClosureRunAtOnceWhateverItCaptures() throws {
        let a = Analysed.source("""
        import Foundation
        final class Fetcher {
            enum Stage { case idle, fetching, stopped }
            private(set) var stage: Stage = .idle
            private let queue = DispatchQueue(label: "fetch")
            func begin() { if stage == .idle { stage = .fetching } }
            func stop() {
                guard stage == .fetching else { return }
                queue.sync { [unowned self] in self.stage = .stopped }
            }
        }
        """)
        let m = try a.machine("Fetcher.stage")
        XCTAssertEqual(Set(m.inputs), ["begin()", "stop()"])
        XCTAssertTrue(m.moves.contains("fetching -stop()-> stopped"), "\(m.moves)")
    }

    /// A default in `extension Holder where State == Awning.State` belongs to `Awning` only, not to another
    /// conformer whose `State` is another declared type.
    func testConstrainedExtensionDefaultsOnlyForConformersMeetingThem() throws {
        let a = Analysed.source("""
        protocol Holder: AnyObject {
            associatedtype State
            var state: State { get set }
        }
        final class Awning: Holder {
            enum State { case furled, spread, moving }
            var state: State = .furled
            func settle() { if state == .moving { state = .spread } }
        }
        extension Holder where State == Awning.State {
            func unfurl() { if state == .furled { state = .moving } }
        }
        final class Hatch: Holder {
            enum State { case shut, open }
            var state: State = .shut
            func lift() { if state == .shut { state = .open } }
            func drop() { if state == .open { state = .shut } }
        }
        """)
        XCTAssertEqual(Set(try a.machine("Awning.state").inputs), ["settle()", "unfurl()"])
        XCTAssertEqual(Set(try a.machine("Hatch.state").inputs), ["lift()", "drop()"])
    }

    /// An enum field of a struct kept in a property named as a state (`state.clock`) is a machine when its
    /// methods switch over it, whatever the field is called.
    func testEnumFieldOfAStructNamedAsAState() throws {
        let a = Analysed.source("""
        final class Metronome {
            struct State { var beat: Beat = .resting; var tempo = 90 }
            enum Beat { case resting, ticking }
            private(set) var state = State()
            func toggle() {
                switch state.beat {
                case .resting: state.beat = .ticking
                case .ticking: state.beat = .resting
                }
            }
            func rest() {
                guard state.beat == .ticking else { return }
                state.beat = .resting
            }
        }
        """)
        let m = try a.machine("Metronome.state.beat")
        XCTAssertEqual(m.initial, "resting")
        XCTAssertEqual(m.moves, ["resting -toggle()-> ticking", "ticking -toggle()-> resting", "ticking -rest()-> resting"])
    }
}
