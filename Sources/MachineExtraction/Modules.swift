import Foundation
import SwiftParser
import SwiftSyntax

/// Which module each input file belongs to, decided as the build system would:
/// - inside a SwiftPM package (the nearest `Package.swift` above the file), the target whose folder
///   holds the file (`.target(name:path:)`, by default `Sources/<name>`, `Tests/<name>` for test targets);
/// - in a folder with an `.xcodeproj`/`.xcworkspace`, the top folder under it (an app target's sources);
/// - otherwise the top folder under the path given on the command line (under the package, for
///   files of a package outside its targets when the path given is above it); files directly in the
///   given folder, and files given one by one, form the unnamed module `""`;
/// - a file inside a documentation catalog (`X.docc/…`) is compiled by no target: each such file (a
///   tutorial's code listing, shown on its own) is a module of its own, `X.docc:<file name>`, so the
///   listings of successive tutorial steps, which declare the same types, do not see each other.
/// Module names decide which declarations see each other and are the first part of machine ids.
struct ModuleMap {
    private var packageTargets: [String: [(name: String, dir: String)]?] = [:]   // package root → targets
    private var markerCache: [String: String?] = [:]                            // dir → nearest project root

    /// The module of `file`, found from the argument path `root` it was listed under.
    mutating func module(of file: String, root: String) -> String {
        // outside documentation catalogs the module is the folder's (the same for every file in it):
        // found once per folder and argument path (a code base has thousands of files in hundreds of
        // folders, and finding it asks the file system)
        let folder = (file as NSString).deletingLastPathComponent
        let key = folder + "\u{0}" + root
        let inCatalog = file.split(separator: "/").dropLast().contains { $0.hasSuffix(".docc") }
        if !inCatalog, let known = folderModules[key] { return known }
        let module = find(file, root: root)
        if !inCatalog { folderModules[key] = module }
        return module
    }
    private var folderModules: [String: String] = [:]

    private mutating func find(_ file: String, root: String) -> String {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        let components = absolute.split(separator: "/")
        if let catalog = components.dropLast().last(where: { $0.hasSuffix(".docc") }) {
            return "\(catalog):\(((components.last.map(String.init) ?? "") as NSString).deletingPathExtension)"
        }
        let dir = (absolute as NSString).deletingLastPathComponent
        let project = projectRoot(above: dir)
        if let project, FileManager.default.fileExists(atPath: project + "/Package.swift"),
           let target = targets(ofPackage: project).filter({ absolute.hasPrefix($0.dir + "/") }).max(by: { $0.dir.count < $1.dir.count }) {
            return target.name
        }
        // an Xcode project's folder: its top folders are its targets; outside every package target:
        // the top folder under the given path (or under the package, when the path given is above it)
        var base = URL(fileURLWithPath: root).standardizedFileURL.path
        if let project {
            let isPackage = FileManager.default.fileExists(atPath: project + "/Package.swift")
            if !isPackage || !(base + "/").hasPrefix(project + "/") { base = project }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base, isDirectory: &isDirectory), isDirectory.boolValue else { return "" }
        return topFolder(of: absolute, under: base)
    }

    /// `root/A/B/x.swift` → `A`; `root/x.swift` → `` (the unnamed module of the loose files given).
    private func topFolder(of file: String, under root: String) -> String {
        guard file.hasPrefix(root + "/") else { return "" }
        let rest = file.dropFirst(root.count + 1).split(separator: "/")
        return rest.count > 1 ? String(rest[0]) : ""
    }

    /// The nearest folder at or above `dir` that holds a `Package.swift`, an `.xcodeproj` or an `.xcworkspace`.
    private mutating func projectRoot(above dir: String) -> String? {
        if let cached = markerCache[dir] { return cached }
        var found: String?
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        if entries.contains(where: { $0 == "Package.swift" || $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) {
            found = dir
        } else if dir != "/" && !dir.isEmpty {
            found = projectRoot(above: (dir as NSString).deletingLastPathComponent)
        }
        markerCache[dir] = found
        return found
    }

    /// The targets a `Package.swift` declares, read with swift-syntax (the manifest is never run).
    private mutating func targets(ofPackage root: String) -> [(name: String, dir: String)] {
        if let cached = packageTargets[root] { return cached ?? [] }
        var result: [(name: String, dir: String)] = []
        if let data = FileManager.default.contents(atPath: root + "/Package.swift"), let text = String(data: data, encoding: .utf8) {
            let finder = TargetFinder()
            finder.walk(Parser.parse(source: text))
            for t in finder.targets {
                let relative = t.path ?? ((t.isTest ? "Tests/" : "Sources/") + t.name)
                let dir = URL(fileURLWithPath: root + "/" + relative).standardizedFileURL.path
                result.append((t.name, dir.hasSuffix("/") ? String(dir.dropLast()) : dir))
            }
        }
        packageTargets[root] = result
        return result
    }

    final class TargetFinder: SyntaxVisitor {
        var targets: [(name: String, path: String?, isTest: Bool)] = []
        static let kinds: Set<String> = ["target", "executableTarget", "testTarget", "macro", "plugin", "systemLibrary", "binaryTarget"]
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            guard let member = node.calledExpression.as(MemberAccessExprSyntax.self),
                  Self.kinds.contains(member.declName.baseName.text),
                  let name = Self.string(node, "name") else { return .visitChildren }
            targets.append((name, Self.string(node, "path"), member.declName.baseName.text == "testTarget"))
            return .visitChildren
        }
        static func string(_ call: FunctionCallExprSyntax, _ label: String) -> String? {
            guard let e = call.arguments.first(where: { $0.label?.text == label })?.expression.as(StringLiteralExprSyntax.self),
                  e.segments.count == 1, let s = e.segments.first?.as(StringSegmentSyntax.self) else { return nil }
            return s.content.text
        }
    }
}
