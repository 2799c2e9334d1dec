// swift-tools-version: 6.0
import PackageDescription

// A small package that uses machine-viz's plugins from the repository root (by path):
//   swift build                                    # findings appear as build warnings
//   swift package machine-viz lint
//   swift package --allow-writing-to-package-directory machine-viz docs
let package = Package(
    name: "PluginSample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "machine-viz", path: "../.."),
    ],
    targets: [
        .target(
            name: "Turnstile",
            plugins: [.plugin(name: "MachineVizBuildToolPlugin", package: "machine-viz")]
        ),
    ]
)
