import MachineModel
import XCTest

final class MappingFunctionTests: XCTestCase {
    func testCheckoutExample() throws {
        let (machines, _) = Fixture.analyze([Fixture.example("mapping/Checkout.swift")])
        let m = try XCTUnwrap(machines.named("checkout"))
        XCTAssertEqual(m.dialect, .mappingFunction)
        XCTAssertEqual(m.initial, "browsing")
        XCTAssertEqual(m.transitions, [
            "browsing -openCart-> reviewingCart", "reviewingCart -closeCart-> browsing", "enteringPayment -closeCart-> browsing",
            "reviewingCart -proceed-> enteringPayment", "enteringPayment -submit-> processing",
            "processing -approved-> confirmed", "processing -rejected-> declined",
            "declined -startOver-> browsing", "confirmed -startOver-> browsing",
        ])
        XCTAssertEqual(m.selfLoops, [], "`return nil` is a failed transition, not a self-loop")
        let submit = try XCTUnwrap(m.rules.first { $0.inputs == ["submit"] })
        XCTAssertEqual(submit.displayGuard, "!card.isEmpty")
        XCTAssertEqual(m.findings, [])
    }

    func testInoutFormTupleOrderAndDefaultBreakIsASelfLoop() throws {
        let (machines, _) = try Fixture.analyze(source: """
        enum Phase { case cold, heating, boiling }
        enum Knob { case on, reached, off, descale }
        let em = Harvester<Knob, Phase>.Mapping.makeInout { knob, st in
            switch (st.phase, knob) {
            case (.cold, .on): st.phase = .heating
            case (.heating, .reached): st.phase = .boiling
            case (.heating, .off), (.boiling, .off): st.phase = .cold
            default: break
            }
        }
        """)
        let m = try XCTUnwrap(machines.first)
        XCTAssertEqual(m.transitions, ["cold -on-> heating", "heating -reached-> boiling", "heating -off-> cold", "boiling -off-> cold"])
        XCTAssertTrue(m.selfLoops.contains("cold -descale-> cold"), "Mapping.makeInout: default is a successful self-loop")
        XCTAssertTrue(m.findingKeys.contains("unused_input descale"))
    }
}

final class SwitchMethodTests: XCTestCase {
    func testTrafficLightExample() throws {
        let (machines, _) = Fixture.analyze([Fixture.example("switch/TrafficLight.swift")])
        let m = try XCTUnwrap(machines.named("Crossing.light"))
        XCTAssertEqual(m.dialect, .switchMethod)
        XCTAssertEqual(m.initial, "red")
        XCTAssertEqual(m.terminal, ["off"], "`// machine-viz: terminal` on the case")
        XCTAssertTrue(m.transitions.isSuperset(of: [
            "red -timer-> redAmber", "green -timer-> amber", "flashingAmber -repair-> red", "amber -fault-> flashingAmber",
            "off -powerCut-> off", "green -powerCut-> off",
        ].filter { !$0.hasPrefix("off") }))
        XCTAssertTrue(m.transitions.contains("flashingAmber -repair-> red"), "assignment inside a private helper method")
        XCTAssertEqual(m.findingKeys, ["shadowed_rule line:35"])
    }

    func testEventFirstSwitchWithStateGuardsAndEnumsInAnotherFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Model"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "enum DoorState { case closed, open, locked }\nenum DoorEvent { case push, pull, lock, unlock(code: Int) }\n"
            .write(to: dir.appendingPathComponent("Model/Types.swift"), atomically: true, encoding: .utf8)
        try """
        struct Door {
            var state: DoorState = .closed
            let code = 42
            mutating func send(_ event: DoorEvent) {
                switch event {
                case .push:
                    if state == .closed { state = .open }
                case .pull:
                    guard case .open = self.state else { return }
                    self.state = .closed
                case .lock where state == .closed:
                    state = .locked
                case let .unlock(entered):
                    switch state {
                    case .locked:
                        state = entered == code ? .closed : .locked
                    default:
                        break
                    }
                default:
                    return
                }
            }
        }
        """.write(to: dir.appendingPathComponent("Door.swift"), atomically: true, encoding: .utf8)
        let (machines, _) = Fixture.analyze([dir.path])
        let m = try XCTUnwrap(machines.named("Door.state"))
        XCTAssertEqual(m.inputs, ["push", "pull", "lock", "unlock"])
        XCTAssertEqual(m.transitions, ["closed -push-> open", "open -pull-> closed", "closed -lock-> locked", "locked -unlock-> closed"])
        // `entered == code ? .closed : .locked`: two targets chosen by the payload
        XCTAssertEqual(m.findingKeys, ["data_dependent_target locked/unlock"])
        let unlock = try XCTUnwrap(m.rules.first { $0.inputs == ["unlock"] && !$0.targets.isEmpty })
        XCTAssertEqual(unlock.targets, ["closed", "locked"])
    }
}

final class SelfEnumMachineTests: XCTestCase {
    func testEnumsThatAreTheirOwnMachineAndIfConfigCases() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("self_enum")])
        let traffic = try XCTUnwrap(machines.named("Traffic"))
        XCTAssertEqual(traffic.initial, "off", "`// machine-viz: initial` on the case")
        XCTAssertEqual(traffic.transitions, [
            "red -next-> green", "green -next-> yellow", "yellow -next-> red",
            "red -power-> off", "green -power-> off", "yellow -power-> off",
            "off -next-> red",   // inside `#if DEBUG`: the first clause counts
        ])
        XCTAssertEqual(traffic.findingKeys, ["shadowed_rule line:16"], "`default` after cases that cover every pair")
        let phase = try XCTUnwrap(machines.named("Phase"))
        XCTAssertEqual(phase.transitions, ["a -go-> b"], "`e == .go ? .b : nil`: nil is a failed transition")
        XCTAssertEqual(phase.findingKeys, ["dead_end_state b"], "no initial state, but `b` is entered and never left")
    }
}

final class HelperSetterTests: XCTestCase {
    /// `transition(to: .loading)`: the helper's parameter stands for the call's argument.
    func testHelperSetterParametersAreBoundToArguments() throws {
        let (machines, _) = Fixture.analyze([Fixture.path("switch_helper_setter")])
        let m = try XCTUnwrap(machines.named("Player.state"))
        XCTAssertEqual(m.transitions, [
            "idle -play-> loading", "failed -play-> loading", "loading -loaded-> playing",
            "idle -error-> failed", "loading -error-> failed", "playing -error-> failed",
            "loading -stop-> idle", "playing -stop-> idle", "failed -stop-> idle",
        ])
        XCTAssertEqual(m.findings, [])
    }
}
