import MachineModel
import XCTest

/// Shapes of app flows whose next state is computed (optional successors, raw values, an enum stepping
/// itself), locals copying the state, and names Swift resolves by where they are written (a constant
/// standing for a case in a comparison, `private` helpers of two files, `super`). Made-up identifiers.
final class ComputedNextAndCopyShapeTests: XCTestCase {
    /// `var next: Step?` (nil after the last case), bound with `if let`/`guard let` or given a fallback:
    /// one successor per state, none after the last.
    func testAnOptionalSuccessorGivesOneEdgePerState() throws {
        let a = Analysed.source("""
        enum Leg {
            case pack, fly, land
            var next: Leg? {
                switch self {
                case .pack: return .fly
                case .fly: return .land
                case .land: return nil
                }
            }
            var previous: Leg? {
                switch self {
                case .pack, .land: return nil
                case .fly: return .pack
                }
            }
        }
        final class Trip {
            var leg: Leg = .pack
            func onward() { if let following = leg.next { leg = following } }
            func undo() {
                guard let prior = leg.previous else { return }
                leg = prior
            }
            func skip() { leg = leg.next ?? .pack }
        }
        """)
        let trip = try a.machine("Trip.leg")
        XCTAssertEqual(trip.moves, ["pack -onward()-> fly", "fly -onward()-> land", "fly -undo()-> pack",
                                    "pack -skip()-> fly", "fly -skip()-> land", "land -skip()-> pack"])
        XCTAssertFalse(trip.findings.contains { $0.check == "data_dependent_target" }, "\(trip.findingSet)")
    }

    /// The enum computes its next case from its raw value (`Self(rawValue: rawValue + 1)`), in a property,
    /// or steps itself in a mutating method; and a literal raw value names one case.
    func testASuccessorByRawValueInsideTheEnum() throws {
        let a = Analysed.source("""
        enum Round: Int {
            case heat, semi, final
            var next: Round? { Round(rawValue: rawValue + 1) }
        }
        final class Cup {
            var round: Round = .heat
            func advance() { round = round.next ?? .final }
            func restart() { round = .init(rawValue: 0)! }
        }
        enum Slide: Int {
            case intro = 1, body, outro
            mutating func forward() { self = Self(rawValue: rawValue + 1) ?? self }
            mutating func back() { self = Slide(rawValue: rawValue - 1) ?? self }
        }
        struct Deck {
            var slide: Slide = .intro
            mutating func nextTapped() { slide.forward() }
            mutating func backTapped() { slide.back() }
        }
        """)
        let cup = try a.machine("Cup.round")
        XCTAssertEqual(cup.moves, ["heat -advance()-> semi", "semi -advance()-> final", "semi -restart()-> heat", "final -restart()-> heat"])
        let deck = try a.machine("Deck.slide")
        XCTAssertEqual(deck.moves, ["intro -nextTapped()-> body", "body -nextTapped()-> outro",
                                    "body -backTapped()-> intro", "outro -backTapped()-> body"])
    }

    /// A case picked from `allCases` at a position found from the state's own (wrapping with `%`), and its
    /// first case, step each state once.
    func testAPickFromAllCasesByPosition() throws {
        let a = Analysed.source("""
        enum Slide: String, CaseIterable { case cover, story, pricing }
        final class Carousel {
            var slide: Slide = .cover
            func advance() {
                let all = Slide.allCases
                slide = all[(all.firstIndex(of: slide)! + 1) % all.count]
            }
            func rewind() { slide = Slide.allCases.first! }
        }
        """)
        let carousel = try a.machine("Carousel.slide")
        XCTAssertEqual(carousel.moves, ["cover -advance()-> story", "story -advance()-> pricing", "pricing -advance()-> cover",
                                        "story -rewind()-> cover", "pricing -rewind()-> cover"])
    }

    /// A helper stepping by the amount it is given (`shift(by: -1)`) steps by that many raw values.
    func testAStepByAnAmountAHelperIsGiven() throws {
        let a = Analysed.source("""
        enum Frame: Int { case first, second, third }
        final class Film {
            private(set) var frame: Frame = .first
            func forward() {
                guard let following = Frame(rawValue: frame.rawValue + 1) else { return }
                frame = following
            }
            func rewind() { shift(by: -2) }
            private func shift(by delta: Int) {
                guard let target = Frame(rawValue: frame.rawValue + delta) else { return }
                frame = target
            }
        }
        """)
        let film = try a.machine("Film.frame")
        XCTAssertEqual(film.moves, ["first -forward()-> second", "second -forward()-> third", "third -rewind()-> first"])
    }

    /// A local constant copying the state, read before anything writes the state, is the state; a local
    /// `var` of the state's name is a value of its own until it is written back.
    func testLocalCopiesOfTheState() throws {
        let a = Analysed.source("""
        final class Lens {
            enum State { case off, framing, shooting }
            var state: State = .off
            func press() {
                let current = state
                switch current {
                case .off: state = .framing
                case .framing: state = .shooting
                case .shooting: state = .framing
                }
            }
            func halt() {
                let state = self.state
                switch state {
                case .off: return
                case .framing, .shooting: self.state = .off
                }
            }
            func sample() {
                var state = self.state
                state = .shooting
                print(state)
            }
            func frame() {
                var state = self.state
                guard state == .off else { return }
                state = .framing
                self.state = state
            }
        }
        """)
        let lens = try a.machine("Lens.state")
        XCTAssertEqual(lens.moves, ["off -press()-> framing", "framing -press()-> shooting", "shooting -press()-> framing",
                                    "framing -halt()-> off", "shooting -halt()-> off", "off -frame()-> framing"])
        XCTAssertFalse(lens.inputs.contains("sample()"), "\(lens.inputs)")
        // (a copy taken before the state is written is the value it had: not the state)
        let b = Analysed.source("""
        final class Gate {
            enum State { case shut, opening, open }
            var state: State = .shut
            func toggle() {
                let before = state
                state = .opening
                if before == .open { state = .shut }
            }
            func settle() { if state == .opening { state = .open } }
        }
        """)
        let gate = try b.machine("Gate.state")
        XCTAssertNotNil(gate.edge("open", "toggle()", "shut"), "\(gate.allEdges)")
        XCTAssertNotNil(gate.edge("shut", "toggle()", "opening"), "\(gate.allEdges)")
    }

    /// A static constant of the enum standing for a case is that case in a comparison too.
    func testAStaticConstantInAComparison() throws {
        let a = Analysed.source("""
        enum Flow {
            case resting, pumping, draining
            static let initial: Flow = .resting
            static let active = Flow.pumping
        }
        final class Pump {
            var mode: Flow = .initial
            func prime() { guard mode == .initial else { return }; mode = .pumping }
            func drain() { if mode == .active { mode = .draining } }
            func settle() { if mode != .initial { mode = .resting } }
        }
        """)
        let pump = try a.machine("Pump.mode")
        XCTAssertEqual(pump.moves, ["resting -prime()-> pumping", "pumping -drain()-> draining",
                                    "pumping -settle()-> resting", "draining -settle()-> resting"])
    }

    /// `private` helpers of the same name in two files: each file's callers call their own.
    func testPrivateHelpersOfTwoFilesAreKeptApart() throws {
        let a = Analysed.source([
            "Mixer.swift": """
            enum Speed { case off, low, high }
            final class Mixer {
                var speed: Speed = .off
                func start() { settle() }
                func stop() { speed = .off }
            }
            extension Mixer {
                private func settle() { if speed == .off { speed = .low } }
            }
            """,
            "Mixer+Boost.swift": """
            extension Mixer {
                func boost() { settle() }
                private func settle() { speed = .high }
            }
            """,
        ])
        let mixer = try a.machine("Mixer.speed")
        XCTAssertEqual(mixer.moves, ["off -start()-> low", "low -stop()-> off", "high -stop()-> off",
                                     "off -boost()-> high", "low -boost()-> high"])
    }

    /// `super.start()` in an override runs the superclass's method first.
    func testASuperCallRunsTheSuperclassMethod() throws {
        let a = Analysed.source("""
        class Engine {
            enum State { case off, idle, hot }
            var state: State = .off
            func start() { if state == .off { state = .idle } }
            func stop() { state = .off }
        }
        final class Turbo: Engine {
            override func start() {
                super.start()
                if state == .idle { state = .hot }
            }
        }
        """)
        let turbo = try a.machine("Turbo.state")
        XCTAssertNotNil(turbo.edge("off", "start()", "hot"), "\(turbo.allEdges)")
        XCTAssertNil(turbo.edge("off", "start()", "off"), "\(turbo.allEdges)")
    }
}
