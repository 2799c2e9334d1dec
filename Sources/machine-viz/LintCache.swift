import Foundation
import MachineExtraction
import MachineModel

/// Whole-run result cache of `lint`: what extraction and analysis produced for a set of inputs, keyed
/// by the content of every Swift file read, their paths, the configuration file, the options that
/// change the result and the tool itself (version, and the executable's size and modification time, so
/// a rebuilt tool never reuses a result). A second `lint` of an unchanged tree reads and hashes the
/// files instead of parsing them; any change (one byte of one file) computes everything again.
struct LintCache {
    /// What `LintPipeline` computes from the files before suppressions, baselines and reporting.
    struct Entry: Codable {
        var violations: [Violation]
        var suppressions: [Suppression]
        var diagnostics: [Diagnostic]
        var machineNames: [String]
        var readFiles: Int
        var machines: Int
    }

    static let formatVersion = 2
    /// Entries kept in the folder; older ones are removed when a new one is written.
    static let keptEntries = 16

    let directory: URL

    /// `--cache-path`, else `.build/machine-viz-cache` when the current folder has a `.build` (a SwiftPM
    /// package), else no cache.
    static func resolve(path: String?, disabled: Bool) -> LintCache? {
        if disabled { return nil }
        if let path { return LintCache(directory: URL(fileURLWithPath: path)) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: ".build", isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return LintCache(directory: URL(fileURLWithPath: ".build/machine-viz-cache"))
    }

    /// The key of a run: 128 bits (two independent 64-bit FNV-1a hashes) over every input.
    static func key(files: [String], configurationFile: String?, options: [String]) -> String {
        var hasher = Hasher128()
        hasher.add("machine-viz-lint-cache \(formatVersion) \(MachineViz.configuration.version)")
        if let exe = Bundle.main.executablePath, let attributes = try? FileManager.default.attributesOfItem(atPath: exe) {
            hasher.add("\(exe) \(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        }
        hasher.add(FileManager.default.currentDirectoryPath)
        for option in options { hasher.add(option) }
        if let configurationFile {
            hasher.add(configurationFile)
            hasher.add(FileManager.default.contents(atPath: configurationFile) ?? Data("(unreadable)".utf8))
        }
        for file in files {
            hasher.add(file)
            hasher.add(FileManager.default.contents(atPath: file) ?? Data("(unreadable)".utf8))
        }
        return hasher.hex
    }

    func load(_ key: String) -> Entry? {
        guard let data = FileManager.default.contents(atPath: url(key).path) else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: data)
    }

    /// Best effort: a cache that cannot be written is no cache, never an error.
    func store(_ entry: Entry, key: String) {
        let manager = FileManager.default
        guard (try? manager.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
              let data = try? JSONEncoder().encode(entry) else { return }
        try? data.write(to: url(key), options: .atomic)
        let entries = (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey]))?
            .filter { $0.lastPathComponent.hasPrefix("lint-") && $0.pathExtension == "json" } ?? []
        guard entries.count > Self.keptEntries else { return }
        let dated = entries.map { ($0, (try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast) }
        for (old, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(Self.keptEntries) { try? manager.removeItem(at: old) }
    }

    func url(_ key: String) -> URL { directory.appendingPathComponent("lint-\(key).json") }
}

/// Two FNV-1a 64-bit hashes with different offsets; each added value is length-prefixed.
struct Hasher128 {
    var a: UInt64 = 0xcbf2_9ce4_8422_2325
    var b: UInt64 = 0x6c62_272e_07bb_0142

    mutating func add(_ data: Data) {
        var a = self.a, b = self.b
        let prime: UInt64 = 0x0000_0100_0000_01b3
        func mix(_ byte: UInt8) {
            a = (a ^ UInt64(byte)) &* prime
            b = (b ^ UInt64(byte ^ 0x5a)) &* prime
        }
        withUnsafeBytes(of: UInt64(data.count).littleEndian) { for x in $0 { mix(x) } }
        data.withUnsafeBytes { buffer in for x in buffer { mix(x) } }
        self.a = a
        self.b = b
    }

    mutating func add(_ text: String) { add(Data(text.utf8)) }

    var hex: String { String(format: "%016llx%016llx", a, b) }
}
