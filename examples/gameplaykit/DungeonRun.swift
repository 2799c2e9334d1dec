import GameplayKit
import SpriteKit

/// Shared base for the run's states: every state can reach the scene.
class RunState: GKState {
    unowned let scene: DungeonScene

    init(scene: DungeonScene) {
        self.scene = scene
        super.init()
    }
}

final class LobbyState: RunState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        stateClass is ExploringState.Type || stateClass is ShopState.Type
    }

    override func willExit(to nextState: GKState) {
        scene.hideLobbyMenu()
    }
}

final class ShopState: RunState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        return stateClass == LobbyState.self
    }
}

final class ExploringState: RunState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        switch stateClass {
        case is CombatState.Type, is PausedState.Type, is DefeatState.Type:
            return true
        case is LobbyState.Type:
            return scene.exitReached
        default:
            return false
        }
    }

    override func didEnter(from previousState: GKState?) {
        if previousState is PausedState {
            scene.resumeAmbience()
        } else if previousState is CombatState {
            scene.grantLoot()
        } else {
            scene.generateFloor()
            scene.playAmbience()
        }
    }

    override func update(deltaTime seconds: TimeInterval) {
        if scene.monsterInRange {
            stateMachine?.enter(CombatState.self)
        }
    }
}

final class CombatState: RunState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        stateClass is ExploringState.Type || stateClass is DefeatState.Type || stateClass is PausedState.Type
    }

    override func didEnter(from previousState: GKState?) {
        scene.playBattleTheme()
    }

    override func update(deltaTime seconds: TimeInterval) {
        if scene.hero.health <= 0 {
            stateMachine?.enter(DefeatState.self)
        } else if scene.enemies.isEmpty {
            stateMachine?.enter(ExploringState.self)
        }
    }
}

final class PausedState: RunState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        guard stateClass is ExploringState.Type || stateClass is LobbyState.Type else { return false }
        return true
    }

    override func didEnter(from previousState: GKState?) {
        scene.isPaused = true
        scene.showPauseOverlay()
    }

    override func willExit(to nextState: GKState) {
        scene.isPaused = false
        scene.hidePauseOverlay()
    }
}

final class DefeatState: RunState {
    override func isValidNextState(_ stateClass: AnyClass) -> Bool {
        stateClass is LobbyState.Type
    }

    override func didEnter(from previousState: GKState?) {
        scene.showDefeatScreen()
    }
}

final class DungeonScene: SKScene {
    var exitReached = false
    var monsterInRange = false
    var hero = Hero()
    var enemies: [Enemy] = []

    lazy var runMachine = GKStateMachine(states: [
        LobbyState(scene: self), ShopState(scene: self), ExploringState(scene: self),
        CombatState(scene: self), PausedState(scene: self), DefeatState(scene: self),
    ])

    override func didMove(to view: SKView) {
        runMachine.enter(LobbyState.self)
    }

    override func update(_ currentTime: TimeInterval) {
        runMachine.update(deltaTime: currentTime)
    }

    @objc func startRunTapped() { runMachine.enter(ExploringState.self) }
    @objc func shopTapped() { runMachine.enter(ShopState.self) }
    @objc func pauseTapped() { runMachine.enter(PausedState.self) }
    @objc func resumeTapped() { runMachine.enter(ExploringState.self) }
    @objc func backToLobbyTapped() { runMachine.enter(LobbyState.self) }

    func hideLobbyMenu() {}
    func resumeAmbience() {}
    func grantLoot() {}
    func generateFloor() {}
    func playAmbience() {}
    func playBattleTheme() {}
    func showPauseOverlay() {}
    func hidePauseOverlay() {}
    func showDefeatScreen() {}
}
