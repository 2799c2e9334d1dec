import Foundation
import MachineModel
import Yams

/// Project settings read from `.machine-viz.yml`.
///
/// ```yaml
/// included: [Sources]
/// excluded: [Sources/Generated]
/// disabled_checks: [unused_input]
/// severity:
///   dead_end_state: error
/// strict: true
/// reporter: github-actions
/// invariants: ["isLoading implies phase == .loading"]
/// product_budget: 10000
/// machines:
///   lockMappings:
///     initial: locked
///     terminal: [servicing]
///     ignored: [jammed]
///   SearchFeature:
///     invariants: ["alert != nil implies phase == .failed"]
/// ```
public struct Configuration: Equatable, Sendable {
    public static let fileName = ".machine-viz.yml"
    /// Every key the file may hold, in the order docs/configuration.md describes them.
    public static let keys = ["included", "excluded", "disabled_checks", "severity", "strict", "reporter", "invariants",
                              "product_budget", "effects", "machines"]
    public static let machineKeys = ["initial", "terminal", "ignored", "invariants", "internal", "external"]
    public static let effectKeys = ["max_instances", "budget"]

    /// The file the settings came from; nil for the defaults.
    public var file: String?
    public var included: [String] = []
    public var excluded: [String] = []
    public var disabledChecks: [String] = []
    public var severities: [String: Severity] = [:]
    public var strict: Bool?
    public var reporter: String?
    /// Bounds of the effect-aware checks: instances of one effect in flight, configurations explored.
    public var maxEffectInstances: Int?
    public var effectBudget: Int?
    public var machines: [String: MachineSettings] = [:]
    /// Invariants for every struct state whose machine fields include all the fields they name.
    public var invariants: [Invariant] = []
    /// Most combinations of a struct state's fields explored (`ProductExplorer.defaultBudget` when nil).
    public var productBudget: Int?

    public init() {}

    /// The folder that relative paths in the file are relative to.
    public var directory: String? {
        file.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }

    /// A path from the file, relative to the file's folder, made usable from the working directory.
    public func resolve(_ path: String, currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        guard let directory, !path.hasPrefix("/") else { return path }
        let cwd = URL(fileURLWithPath: currentDirectory).standardizedFileURL.path
        let dir = URL(fileURLWithPath: directory).standardizedFileURL.path
        if dir == cwd { return path }
        if dir.hasPrefix(cwd + "/") { return String(dir.dropFirst(cwd.count + 1)) + "/" + path }
        return dir + "/" + path
    }

    // MARK: Finding the file

    /// `.machine-viz.yml` in `directory` or the nearest parent that has one.
    public static func find(from directory: String = FileManager.default.currentDirectoryPath) -> String? {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) {
                // In the working directory itself: the short name, for shorter messages.
                let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
                return url.path == cwd ? fileName : candidate
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// Reads and checks a configuration file.
    public static func load(_ path: String, knownChecks: [String], knownReporters: [String]) throws -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(file: path, line: nil, column: nil, key: nil, message: "cannot read the configuration file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, line: nil, column: nil, key: nil, message: "the configuration file is not UTF-8 text")
        }
        return try parse(text, file: path, knownChecks: knownChecks, knownReporters: knownReporters)
    }

    // MARK: Parsing

    /// Parses YAML text. Unknown keys and bad values are errors naming the file, line and key.
    public static func parse(_ text: String, file: String, knownChecks: [String], knownReporters: [String]) throws -> Configuration {
        var config = Configuration()
        config.file = file
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigurationError.yaml(error, file: file, text: text)
        } catch {
            throw ConfigurationError(file: file, line: nil, column: nil, key: nil, message: "not valid YAML: \(error)")
        }
        guard let root else { return config }  // an empty file: the defaults
        let reader = Reader(file: file)
        let mapping = try reader.mapping(root, key: nil, what: "the top level")
        for (keyNode, value) in try reader.entries(mapping) {
            let key = keyNode.string ?? ""
            switch key {
            case "included":
                config.included = try reader.strings(value, key: key)
            case "excluded":
                config.excluded = try reader.strings(value, key: key)
            case "disabled_checks":
                config.disabledChecks = try reader.strings(value, key: key)
                for (i, check) in config.disabledChecks.enumerated() where !knownChecks.contains(check) {
                    throw reader.error(reader.element(value, i) ?? value, key: key, unknownValue: check, known: knownChecks, kind: "check")
                }
            case "severity":
                for (checkNode, levelNode) in try reader.entries(try reader.mapping(value, key: key, what: "a map from check id to error, warning or note")) {
                    let check = checkNode.string ?? ""
                    guard knownChecks.contains(check) else {
                        throw reader.error(checkNode, key: "severity", unknownValue: check, known: knownChecks, kind: "check")
                    }
                    let level = try reader.scalar(levelNode, key: "severity.\(check)")
                    guard let severity = Severity(rawValue: level) else {
                        throw reader.fail(levelNode, key: "severity.\(check)", "'\(level)' is not a severity; use error, warning or note")
                    }
                    config.severities[check] = severity
                }
            case "strict":
                let text = try reader.scalar(value, key: key)
                guard let flag = Bool(text.lowercased()) else { throw reader.fail(value, key: key, "'\(text)' is not true or false") }
                config.strict = flag
            case "reporter":
                let name = try reader.scalar(value, key: key)
                guard knownReporters.contains(name) else {
                    throw reader.error(value, key: key, unknownValue: name, known: knownReporters, kind: "reporter")
                }
                config.reporter = name
            case "invariants":
                config.invariants = try reader.invariants(value, key: key)
            case "product_budget":
                let text = try reader.scalar(value, key: key)
                guard let n = Int(text), n > 0 else { throw reader.fail(value, key: key, "'\(text)' is not a positive whole number") }
                config.productBudget = n
            case "effects":
                for (k, v) in try reader.entries(try reader.mapping(value, key: key, what: "a map with max_instances and budget")) {
                    let name = k.string ?? ""
                    guard Configuration.effectKeys.contains(name) else {
                        throw reader.error(k, key: "effects.\(name)", unknownValue: name, known: Configuration.effectKeys, kind: "effects setting")
                    }
                    let text = try reader.scalar(v, key: "effects.\(name)")
                    guard let n = Int(text), n >= 1, name == "budget" || n <= 100 else {
                        throw reader.fail(v, key: "effects.\(name)", "'\(text)' is not a whole number from 1\(name == "budget" ? " up" : " to 100")")
                    }
                    if name == "budget" { config.effectBudget = n } else { config.maxEffectInstances = n }
                }
            case "machines":
                for (nameNode, settingsNode) in try reader.entries(try reader.mapping(value, key: key, what: "a map from machine name to its settings")) {
                    let name = try reader.scalar(nameNode, key: key)
                    config.machines[name] = try reader.machine(settingsNode, name: name)
                }
            default:
                throw reader.error(keyNode, key: key, unknownValue: key, known: keys, kind: "key")
            }
        }
        return config
    }

    // MARK: Applying

    /// Sets a machine's initial and terminal states from its `machines:` entry (before analysis).
    /// A state the machine does not declare is an error that points at the configuration line.
    public func apply(to machine: Machine) throws -> Machine {
        guard let settings = settings(for: machine) else { return machine }
        var m = machine
        let file = self.file ?? Self.fileName
        func check(_ state: String, _ key: String) throws {
            guard m.states.contains(state) else {
                throw ConfigurationError(file: file, line: settings.lines[key], column: nil, key: "machines.\(machine.name).\(key)",
                    message: "'\(state)' is not a state of machine '\(machine.name)'; its states are: \(m.states.joined(separator: ", "))")
            }
        }
        if let initial = settings.initial {
            try check(initial, "initial")
            m.initial = initial
        }
        for state in settings.terminal { try check(state, "terminal") }
        for state in settings.ignored { try check(state, "ignored") }
        for key in ["internal", "external"] {
            for input in (key == "internal" ? settings.internal ?? [] : settings.external) where !m.inputs.contains(input) {
                throw ConfigurationError(file: file, line: settings.lines[key], column: nil, key: "machines.\(machine.name).\(key)",
                    message: "'\(input)' is not an input of machine '\(machine.name)'; its inputs are: \(m.inputs.joined(separator: ", "))")
            }
        }
        m.terminal = m.terminal.appendingUnique(settings.terminal)
        return m
    }

    /// A machine's `machines:` entry: by its id (`Module/Type.field`), else by its display name.
    public func settings(for machine: Machine) -> MachineSettings? {
        machines[machine.id] ?? machines[machine.name]
    }

    /// Drops findings of disabled checks and of the machine's ignored states, applies severity overrides.
    public func filter(_ findings: [Finding], for machine: Machine) -> [Finding] {
        filter(findings, ignoring: settings(for: machine)?.ignored ?? [])
    }

    /// The invariants that apply to a struct state: its own (`machines.NAME.invariants`), then the
    /// top-level ones that name only fields it has.
    public func invariants(for product: ProductMachine) -> [Invariant] {
        let fields = Set(product.fields.map(\.name))
        return (machines[product.name]?.invariants ?? []) + invariants.filter { Set($0.fields).isSubset(of: fields) }
    }

    /// Machine ids or names the file mentions that are not among `names` (worth a warning: a typo or a rename).
    public func unknownMachines(_ names: [String]) -> [String] {
        machines.keys.filter { !names.contains($0) }.sorted()
    }

    /// Drops findings of disabled checks and of ignored states, and applies severity overrides.
    public func filter(_ findings: [Finding], machine: String?) -> [Finding] {
        filter(findings, ignoring: machine.flatMap { machines[$0]?.ignored } ?? [])
    }

    func filter(_ findings: [Finding], ignoring ignored: [String]) -> [Finding] {
        findings.compactMap { finding in
            guard !disabledChecks.contains(finding.check) else { return nil }
            if !ignored.isEmpty, let state = Self.state(of: finding), ignored.contains(state) { return nil }
            var f = finding
            if let severity = severities[finding.check] { f.severity = severity }
            return f
        }
    }
}

extension Configuration {
    /// The state a finding is about: the subject of `unreachable_state` and `dead_end_state`, the
    /// state half of a `state/input` subject; nil for findings about inputs, rules and comments.
    static func state(of finding: Finding) -> String? {
        switch finding.check {
        case "unreachable_state", "dead_end_state": return finding.subject
        case "overlapping_rules", "data_dependent_target", "duplicate_key":
            return finding.subject.split(separator: "/", maxSplits: 1).first.map(String.init)
        default: return nil
        }
    }
}

/// The `machines:` entry for one machine.
public struct MachineSettings: Equatable, Sendable {
    /// The initial state, when the code does not say it (or says it in a way the tool cannot read).
    public var initial: String?
    /// States allowed to be dead ends.
    public var terminal: [String] = []
    /// States whose findings are not reported.
    public var ignored: [String] = []
    /// Invariants of a struct state's fields (the entry is named like the feature, `SearchFeature`).
    public var invariants: [Invariant] = []
    /// The inputs only the machine's own effects send (replaces what the code says).
    public var `internal`: [String]?
    /// Inputs that can also arrive from outside, although an effect sends them.
    public var external: [String] = []
    /// Line of each key in the file, for error messages.
    public var lines: [String: Int] = [:]

    public init(initial: String? = nil, terminal: [String] = [], ignored: [String] = []) {
        self.initial = initial
        self.terminal = terminal
        self.ignored = ignored
    }
}

/// A configuration file that cannot be used. Its description is `file:line:column: error: message`.
public struct ConfigurationError: Error, LocalizedError, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// The key at fault, dotted (`severity.dead_end_state`), if any.
    public var key: String?
    public var message: String

    public init(file: String, line: Int?, column: Int?, key: String?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    public var description: String {
        var place = file
        if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return "\(place): error: \(key.map { "'\($0)': " } ?? "")\(message)"
    }

    public var errorDescription: String? { description }

    static func yaml(_ error: YamlError, file: String, text: String) -> ConfigurationError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return ConfigurationError(file: file, line: mark.line, column: mark.column, key: nil, message: "not valid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams points at the map; find the second `key:` below it for the line.
            let key = duplicates.sorted().first ?? ""
            var line = context.mark.line
            let lines = text.components(separatedBy: "\n")
            var seen = 0
            for i in (context.mark.line - 1)..<lines.count where i >= 0 {
                let trimmed = lines[i].drop { $0 == " " || $0 == "-" }
                if trimmed.hasPrefix(key + ":") || trimmed.hasPrefix("\"\(key)\":") {
                    seen += 1
                    if seen == 2 { line = i + 1; break }
                }
            }
            return ConfigurationError(file: file, line: line, column: nil, key: key, message: "key appears twice")
        default:
            return ConfigurationError(file: file, line: nil, column: nil, key: nil, message: "not valid YAML: \(error)")
        }
    }
}

/// Walks a YAML node tree, turning every surprise into a ConfigurationError with a line.
struct Reader {
    let file: String

    func fail(_ node: Node, key: String?, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node.mark?.line, column: node.mark?.column, key: key, message: message)
    }

    func error(_ node: Node, key: String, unknownValue: String, known: [String], kind: String) -> ConfigurationError {
        var message = "unknown \(kind) '\(unknownValue)'"
        let prefixed = known.filter { !unknownValue.isEmpty && ($0.hasPrefix(unknownValue) || unknownValue.hasPrefix($0)) }
        if let guess = prefixed.count == 1 ? prefixed.first : known.min(by: { distance($0, unknownValue) < distance($1, unknownValue) }),
           prefixed.count == 1 || distance(guess, unknownValue) <= max(2, unknownValue.count / 3) {
            message += " (did you mean '\(guess)'?)"
        }
        message += "; expected one of: \(known.joined(separator: ", "))"
        return fail(node, key: key, message)
    }

    func mapping(_ node: Node, key: String?, what: String) throws -> Node.Mapping {
        guard case .mapping(let m) = node else { throw fail(node, key: key, "expected \(what), found \(describe(node))") }
        return m
    }

    /// A mapping's entries, with keys checked to be plain scalars and to appear once.
    func entries(_ mapping: Node.Mapping) throws -> [(Node, Node)] {
        var seen = Set<String>()
        var result: [(Node, Node)] = []
        for (key, value) in mapping {
            guard case .scalar(let s) = key else { throw fail(key, key: nil, "keys must be plain names, found \(describe(key))") }
            guard seen.insert(s.string).inserted else { throw fail(key, key: s.string, "key appears twice") }
            result.append((key, value))
        }
        return result
    }

    func scalar(_ node: Node, key: String) throws -> String {
        guard case .scalar(let s) = node, !s.string.isEmpty else { throw fail(node, key: key, "expected a single value, found \(describe(node))") }
        return s.string
    }

    /// A list of strings; a single string counts as a list of one.
    func strings(_ node: Node, key: String) throws -> [String] {
        switch node {
        case .scalar(let s) where !s.string.isEmpty:
            return [s.string]
        case .sequence(let seq):
            return try seq.map { try scalar($0, key: key) }
        default:
            throw fail(node, key: key, "expected a list of names, found \(describe(node))")
        }
    }

    func invariants(_ node: Node, key: String) throws -> [Invariant] {
        let texts = try strings(node, key: key)
        return try texts.enumerated().map { i, text in
            do { return try Invariant(text) } catch let e as Invariant.ParseError {
                throw fail(element(node, i) ?? node, key: key, e.message)
            }
        }
    }

    func element(_ node: Node, _ i: Int) -> Node? {
        if case .sequence(let seq) = node, i < seq.count { return seq[i] }
        return nil
    }

    func machine(_ node: Node, name: String) throws -> MachineSettings {
        var settings = MachineSettings()
        let path = "machines.\(name)"
        for (keyNode, value) in try entries(try mapping(node, key: path, what: "initial, terminal, ignored, invariants, internal and external settings")) {
            let key = keyNode.string ?? ""
            settings.lines[key] = value.mark?.line ?? keyNode.mark?.line
            switch key {
            case "initial": settings.initial = try scalar(value, key: "\(path).initial")
            case "terminal": settings.terminal = try strings(value, key: "\(path).terminal")
            case "ignored": settings.ignored = try strings(value, key: "\(path).ignored")
            case "invariants": settings.invariants = try invariants(value, key: "\(path).invariants")
            case "internal": settings.internal = try strings(value, key: "\(path).internal")
            case "external": settings.external = try strings(value, key: "\(path).external")
            default: throw error(keyNode, key: "\(path).\(key)", unknownValue: key, known: Configuration.machineKeys, kind: "machine setting")
            }
        }
        return settings
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): s.string.isEmpty ? "nothing" : "'\(s.string)'"
        case .mapping: "a map"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// Levenshtein distance, for "did you mean".
    func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
